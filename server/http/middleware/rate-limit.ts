import type { RequestHandler } from "express";
import { AppError, retryAfter } from "../../lib/app-error";
import { BurstyRateLimiter, type RateLimiterRes } from "rate-limiter-flexible";
import { memoryLimits, type Limits } from "../../lib/limits";

/**
 * docs/decisions.md#rate-limits: the API limit for bearer clients, per OAuth client: `perMinute` requests a minute, and
 * `burst` more at once before that (a bursty limiter: the main bucket, then a small one). A
 * limited request gets 429 with Retry-After, in the house error body.
 */
export function clientRateLimit(options: { perMinute: number; burst: number }, store: Limits = memoryLimits()): ClientRateLimit {
  const limiter = new BurstyRateLimiter(
    store.create({ keyPrefix: "api", points: options.perMinute, duration: 60 }),
    store.create({ keyPrefix: "api-burst", points: Math.max(1, options.burst), duration: 60 }),
  );
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
    limiter.consume(key, points).then(
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
