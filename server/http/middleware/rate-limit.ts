import type { IncomingMessage } from "node:http";
import type { RequestHandler } from "express";
import { AppError, retryAfter } from "../../lib/app-error";
import { BurstyRateLimiter, RateLimiterMemory, type RateLimiterRes } from "rate-limiter-flexible";

/**
 * D16: the API limit for bearer clients, per OAuth client: `perMinute` requests a minute, and
 * `burst` more at once before that (a bursty limiter: the main bucket, then a small one). A
 * limited request gets 429 with Retry-After, in the house error body.
 */
export function clientRateLimit(options: { perMinute: number; burst: number }): ClientRateLimit {
  const limiter = new BurstyRateLimiter(
    new RateLimiterMemory({ keyPrefix: "api", points: options.perMinute, duration: 60 }),
    new RateLimiterMemory({ keyPrefix: "api-burst", points: Math.max(1, options.burst), duration: 60 }),
  );
  // The house error body (with the request id), like every /api answer that is not a bearer challenge.
  const refusal = (rejection: RateLimiterRes) => new AppError("rate_limited", `More than ${options.perMinute} requests a minute from this client; try again later`, { headers: retryAfter(rejection.msBeforeNext) });
  /** What the front door's `admits` decided for a request it then handed on: null for let through, else the refusal. Counted once. */
  const decided = new WeakMap<IncomingMessage, RateLimiterRes | null>();
  const handler: RequestHandler = (req, res, next) => {
    const earlier = decided.get(req);
    if (earlier !== undefined) return next(earlier ? refusal(earlier) : undefined);
    const key = req.auth?.clientId ?? req.ip ?? "unknown";
    limiter.consume(key).then(
      () => next(),
      (rejection: RateLimiterRes | Error) => next(rejection instanceof Error ? rejection : refusal(rejection)),
    );
  };
  /**
   * The limit for a request the front door looks at before Express: spends one of the client's
   * requests for `req` and answers whether it may go on. Either way the handler, should the
   * request reach it, does not count it again: it lets it through, or answers the same refusal
   * with its Retry-After.
   */
  const admits = (req: IncomingMessage, clientId: string): Promise<boolean> =>
    limiter.consume(clientId).then(
      () => {
        decided.set(req, null);
        return true;
      },
      (rejection: RateLimiterRes | Error) => {
        if (!(rejection instanceof Error)) decided.set(req, rejection);
        return false;
      },
    );
  /**
   * A JSON-RPC batch (2025-03-26) counts as its messages, not as one request: the handler above
   * spent one point on the request, this spends one more for each further message, once the body
   * is read. Twelve batches of 100 tool calls are 1,200 requests against the limit (issue 24 item 6).
   */
  const eachMessage: RequestHandler = (req, _res, next) => {
    const more = Array.isArray(req.body) ? req.body.length - 1 : 0;
    if (more <= 0) return next();
    limiter.consume(req.auth?.clientId ?? req.ip ?? "unknown", more).then(
      () => next(),
      (rejection: RateLimiterRes | Error) => next(rejection instanceof Error ? rejection : refusal(rejection)),
    );
  };
  return Object.assign(handler, { admits, eachMessage });
}

export type ClientRateLimit = RequestHandler & {
  admits(req: IncomingMessage, clientId: string): Promise<boolean>;
  /** After the body is read: the further messages of a batch, each counted. */
  eachMessage: RequestHandler;
};
