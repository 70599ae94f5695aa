import type { EventBus } from "../lib/event-bus";
import type { Clock } from "../lib/clock";
import type { Outcome, UpstreamService } from "./errors";

export type { Outcome };

/** Jira and Confluence share one Atlassian site and its rate limit; Bitbucket has its own. */
export type BudgetGroup = "atlassian" | "bitbucket";
export const budgetGroupOf = (service: UpstreamService): BudgetGroup => (service === "bitbucket" ? "bitbucket" : "atlassian");

export interface ServiceHealth {
  lastSuccessAt: Date | null;
  lastFailureAt: Date | null;
  lastError: string | null;
  /** The newest outcome, success or failure. */
  last: Outcome | null;
}

export interface UsageSnapshot {
  used: number;
  total: number;
}

const HOUR_MS = 3_600_000;
const SERVICES: readonly UpstreamService[] = ["jira", "confluence", "bitbucket"];
const MINUTE_MS = 60_000;

/**
 * Measures what the status cards show (docs/decisions.md#measured-numbers): calls per service in
 * the last hour (a ring of 60 one-minute buckets each; a budget group's use is the sum of its
 * services'), the upstream's own rate-limit headers, and each service's last success and failure.
 */
export function createUpstreamMeter(deps: { clock: Clock; hourlyBudget: Record<BudgetGroup, number>; events?: EventBus }) {
  const rings: Record<UpstreamService, { minute: number; count: number }[]> = { jira: [], confluence: [], bitbucket: [] };
  const reported: Partial<Record<BudgetGroup, { limit: number; remaining: number | null; at: number }>> = {};
  const health = new Map<UpstreamService, ServiceHealth>();

  const minuteOf = (ms: number) => Math.floor(ms / MINUTE_MS);
  const callsInLastHour = (group: BudgetGroup, now: number): number => {
    const current = minuteOf(now);
    let sum = 0;
    for (const service of SERVICES) {
      if (budgetGroupOf(service) !== group) continue;
      for (const b of rings[service]) if (b.minute > current - 60) sum += b.count;
    }
    return sum;
  };

  return {
    /** One HTTP request sent upstream (each retry counts: it spends the budget too). */
    recordCall(service: UpstreamService): void {
      const ring = rings[service];
      const minute = minuteOf(deps.clock.now().getTime());
      const last = ring[ring.length - 1];
      if (last && last.minute === minute) last.count += 1;
      else {
        ring.push({ minute, count: 1 });
        if (ring.length > 60) ring.shift();
      }
    },

    /** This process's calls to `service` in each of the last 60 minutes, oldest first (the dashboard's chart). */
    callsPerMinute(service: UpstreamService): number[] {
      const current = minuteOf(deps.clock.now().getTime());
      const counts = new Array<number>(60).fill(0);
      for (const b of rings[service]) if (b.minute > current - 60 && b.minute <= current) counts[59 - (current - b.minute)] = b.count;
      return counts;
    },

    /** X-RateLimit-Limit / X-RateLimit-Remaining, when the upstream sends them. */
    recordRateLimitHeaders(service: UpstreamService, headers: Record<string, string | string[] | undefined>): void {
      const limit = Number(headers["x-ratelimit-limit"]);
      if (!Number.isFinite(limit) || limit <= 0) return;
      const remainingRaw = headers["x-ratelimit-remaining"];
      const remaining = remainingRaw === undefined ? null : Number(remainingRaw);
      reported[budgetGroupOf(service)] = {
        limit,
        remaining: Number.isFinite(remaining) ? remaining : null,
        at: deps.clock.now().getTime(),
      };
    },

    recordOutcome(service: UpstreamService, ok: boolean, error: string | null = null): void {
      const at = deps.clock.now();
      const h = health.get(service) ?? { lastSuccessAt: null, lastFailureAt: null, lastError: null, last: null };
      if (ok) h.lastSuccessAt = at;
      else {
        h.lastFailureAt = at;
        h.lastError = error;
      }
      h.last = { ok, at, error: ok ? null : error };
      health.set(service, h);
      deps.events?.emit("upstream.outcome", { service, outcome: h.last });
    },

    /** Restores what a previous run stored (last sync survives a restart). */
    restoreHealth(
      service: UpstreamService,
      stored: { lastSuccessAt: Date | null; lastFailureAt: Date | null; lastError: string | null },
    ): void {
      if (health.has(service)) return;
      health.set(service, { ...stored, last: null });
    },

    /** Forgets outcomes (after the configuration changed: they were about another target). */
    forgetOutcomes(services: UpstreamService[]): void {
      for (const s of services) {
        const h = health.get(s);
        if (h) h.last = null;
      }
    },

    health(service: UpstreamService): ServiceHealth {
      return health.get(service) ?? { lastSuccessAt: null, lastFailureAt: null, lastError: null, last: null };
    },

    /**
     * used/total per hour: our own count against the configured budget, or the upstream's figures
     * when it reported them within the hour (it knows about calls other clients made).
     */
    usage(group: BudgetGroup): UsageSnapshot {
      const now = deps.clock.now().getTime();
      const own = callsInLastHour(group, now);
      const r = reported[group];
      if (r && now - r.at < HOUR_MS) {
        return { total: r.limit, used: r.remaining === null ? Math.min(own, r.limit) : Math.max(0, r.limit - r.remaining) };
      }
      return { used: own, total: deps.hourlyBudget[group] };
    },
  };
}

export type UpstreamMeter = ReturnType<typeof createUpstreamMeter>;
