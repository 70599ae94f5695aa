import type { RateLimiterAbstract } from "rate-limiter-flexible";
import { memoryLimits, type Limits } from "../lib/limits";
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
 * share). Each request a tool sends is counted against its caller (the tool's clients are made per
 * call with `spend`, upstream-targets.ts `clientsFor`); a caller over its share gets no new
 * tool call until the hour's window lets it. Per process, like the API limit.
 */
export function createClientBudget(deps: { hourlyBudget: Record<BudgetGroup, number>; sharePercent: number; limits?: Limits }) {
  const store = deps.limits ?? memoryLimits();
  const share = (group: BudgetGroup) => Math.max(1, Math.floor((deps.hourlyBudget[group] * deps.sharePercent) / 100));
  const limit: Record<BudgetGroup, number> = { atlassian: share("atlassian"), bitbucket: share("bitbucket") };
  const limiterOf = (group: BudgetGroup) =>
    store.create({ keyPrefix: `upstream-share-${group}`, points: limit[group], duration: HOUR_SECONDS });
  const limiters: Record<BudgetGroup, RateLimiterAbstract> = { atlassian: limiterOf("atlassian"), bitbucket: limiterOf("bitbucket") };
  return {
    /** One request sent to `service` for `caller` (each attempt, retries included). */
    spend(caller: string, service: UpstreamService): void {
      void limiters[budgetGroupOf(service)].penalty(caller, 1).catch(() => undefined);
    },

    /** Whether `caller` may start a call that reaches `service` now. */
    async check(caller: string, service: UpstreamService): Promise<BudgetCheck> {
      const group = budgetGroupOf(service);
      const spent = await limiters[group].get(caller);
      if (!spent || spent.consumedPoints < limit[group]) return { ok: true };
      return { ok: false, group, limit: limit[group], retryAfterSeconds: Math.max(1, Math.ceil(spent.msBeforeNext / 1000)) };
    },
  };
}

export type ClientBudget = ReturnType<typeof createClientBudget>;
