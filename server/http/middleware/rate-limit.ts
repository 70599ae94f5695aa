import type { RequestHandler } from "express";
import { AppError, retryAfter } from "../../lib/app-error";
import { BurstyRateLimiter, RateLimiterMemory, type RateLimiterRes } from "rate-limiter-flexible";

/**
 * D16: the API limit for bearer clients, per OAuth client: `perMinute` requests a minute, and
 * `burst` more at once before that (a bursty limiter: the main bucket, then a small one). A
 * limited request gets 429 with Retry-After, in the house error body.
 */
export function clientRateLimit(options: { perMinute: number; burst: number }): RequestHandler {
  const limiter = new BurstyRateLimiter(
    new RateLimiterMemory({ keyPrefix: "api", points: options.perMinute, duration: 60 }),
    new RateLimiterMemory({ keyPrefix: "api-burst", points: Math.max(1, options.burst), duration: 60 }),
  );
  return (req, res, next) => {
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
}
