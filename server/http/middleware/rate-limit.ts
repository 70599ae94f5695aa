import type { RequestHandler } from "express";
import { AppError, retryAfter } from "../../lib/app-error";
import { RateLimiterRes } from "rate-limiter-flexible";
import { memoryLimits, type Limits } from "../../lib/limits";

/**
 * docs/decisions.md#rate-limits: the API limit for bearer clients, per OAuth client: `perMinute` requests a minute, and
 * `burst` more at once before that (a bursty limiter: the main bucket, then a small one). A
 * limited request gets 429 with Retry-After, in the house error body.
 */
export function clientRateLimit(options: { perMinute: number; burst: number }, store: Limits = memoryLimits()): ClientRateLimit {
  const perMinute = store.spender({ keyPrefix: "api", points: options.perMinute, duration: 60 });
  // A burst of 0 is none (a second bucket always holds at least one point: one more request a minute).
  const burst = options.burst > 0 ? store.spender({ keyPrefix: "api-burst", points: options.burst, duration: 60 }) : null;
  /** The minute's bucket, then the burst's: refused when both are spent (Retry-After: the sooner of the two). */
  const consume = (key: string, points: number): Promise<unknown> =>
    perMinute.consume(key, points).catch((spent: RateLimiterRes | Error) => {
      if (!burst || spent instanceof Error) throw spent;
      return burst.consume(key, points).catch((alsoSpent: RateLimiterRes | Error) => {
        if (alsoSpent instanceof Error) throw alsoSpent;
        throw new RateLimiterRes(0, Math.min(spent.msBeforeNext, alsoSpent.msBeforeNext), spent.consumedPoints, false);
      });
    });
  // The house error body (with the request id), like every /api answer that is not a bearer challenge.
  const refusal = (rejection: RateLimiterRes) =>
    new AppError("rate_limited", `More than ${options.perMinute} requests a minute from this client; try again later`, {
      headers: retryAfter(rejection.msBeforeNext),
    });
  /**
   * Spends `points` of the client's requests: undefined when it may go on, else the refusal to
   * answer (429 with its Retry-After). A JSON-RPC batch (2025-03-26) spends one point for each of
   * its messages: twelve batches of 100 tool calls are 1,200 requests against the limit (issue 24 item 6).
   */
  const spend = (key: string, points = 1): Promise<AppError | undefined> =>
    consume(key, points).then(
      () => undefined,
      (rejection: RateLimiterRes | Error) => {
        if (rejection instanceof Error) throw rejection;
        return refusal(rejection);
      },
    );
  const handler: RequestHandler = (req, _res, next) => {
    spend(req.auth?.clientId ?? req.ip ?? "unknown").then(next, next);
  };
  return Object.assign(handler, { spend });
}

export type ClientRateLimit = RequestHandler & {
  /** The limit for a plain node request (the MCP pipeline): spends `points` for `key`, answers the refusal if over. */
  spend(key: string, points?: number): Promise<AppError | undefined>;
};
