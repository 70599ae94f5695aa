import { AsyncLocalStorage } from "node:async_hooks";
import { RateLimiterMemory } from "rate-limiter-flexible";
import { budgetGroupOf, type BudgetGroup } from "./meter";
import type { UpstreamService } from "./errors";

const HOUR_SECONDS = 3600;

/** What a caller may still spend of one integration's hourly calls, or why not. */
export type BudgetCheck = { ok: true } | { ok: false; group: BudgetGroup; limit: number; retryAfterSeconds: number };

/**
 * Each caller's share of an integration's hourly upstream calls (issue 24 item 6): the integration's
 * budget (ATLASSIAN_HOURLY_BUDGET, BITBUCKET_HOURLY_BUDGET) is spent by every client together, so
 * without a share one client's loop would spend it for everyone. A caller is an OAuth client and
 * the user behind its token (a company-wide client serves many people, each with their own
 * share). The calls made while a tool runs are counted against its caller, found through
 * AsyncLocalStorage (`spending`), so the one HTTP layer counts them without being told who asks;
 * a caller over its share gets no new tool call until the hour's window lets it. Per process,
 * like the API limit.
 */
export function createClientBudget(deps: { hourly: Record<BudgetGroup, number> }) {
  const spender = new AsyncLocalStorage<string>();
  const limiters: Record<BudgetGroup, RateLimiterMemory> = {
    atlassian: new RateLimiterMemory({ keyPrefix: "upstream-share-atlassian", points: deps.hourly.atlassian, duration: HOUR_SECONDS }),
    bitbucket: new RateLimiterMemory({ keyPrefix: "upstream-share-bitbucket", points: deps.hourly.bitbucket, duration: HOUR_SECONDS }),
  };
  return {
    /** Runs `work` with its upstream calls counted against `caller`. */
    spending: <T>(caller: string, work: () => Promise<T>): Promise<T> => spender.run(caller, work),

    /** One upstream call to `service` (the HTTP layer calls this per attempt, retries included). */
    count(service: UpstreamService): void {
      const caller = spender.getStore();
      if (caller !== undefined) void limiters[budgetGroupOf(service)].penalty(caller, 1).catch(() => undefined);
    },

    /** Whether `caller` may start a call that reaches `service` now. */
    async check(caller: string, service: UpstreamService): Promise<BudgetCheck> {
      const group = budgetGroupOf(service);
      const spent = await limiters[group].get(caller);
      if (!spent || spent.consumedPoints < deps.hourly[group]) return { ok: true };
      return { ok: false, group, limit: deps.hourly[group], retryAfterSeconds: Math.max(1, Math.ceil(spent.msBeforeNext / 1000)) };
    },
  };
}

export type ClientBudget = ReturnType<typeof createClientBudget>;
