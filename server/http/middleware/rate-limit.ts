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
  const handler: RequestHandler = (req, res, next) => {
    const key = req.auth?.clientId ?? req.ip ?? "unknown";
    limiter.consume(key).then(
      () => next(),
      (rejection: RateLimiterRes | Error) => {
        if (rejection instanceof Error) return next(rejection);
        // The house error body (with the request id), like every /api answer that is not a bearer challenge.
        next(new AppError("rate_limited", `More than ${options.perMinute} requests a minute from this client; try again later`, { headers: retryAfter(rejection.msBeforeNext) }));
      },
    );
  };
  /** The limit's ordinary case, for a request served before Express (front-door.ts): spends one of the client's requests, or answers false and leaves the refusal to the handler. */
  const admits = (clientId: string): Promise<boolean> => limiter.consume(clientId).then(
    () => true,
    () => false,
  );
  return Object.assign(handler, { admits });
}

export type ClientRateLimit = RequestHandler & { admits(clientId: string): Promise<boolean> };
