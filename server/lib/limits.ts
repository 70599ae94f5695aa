import type { Redis } from "ioredis";
import type { Pool } from "pg";
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRedis, type RateLimiterAbstract } from "rate-limiter-flexible";
import { leasedLimiter, type PointSpender } from "./leased-limiter";

/** One limiter: `points` a `duration` (seconds) per key, its keys under `keyPrefix`. */
export interface LimitOptions {
  keyPrefix: string;
  points: number;
  duration: number;
}

/**
 * Where the rate limits and the sign-in slow-down count (issue 29 item 2). Several instances on one
 * PostgreSQL count together in its `rate_limits` table (rate-limiter-flexible's PostgreSQL store: one
 * upsert per request); with REDIS_URL, in Redis; the embedded database serves one process, whose
 * memory is then the whole count. Every limiter is insured by one in memory: while the shared store
 * fails, each instance goes on counting alone instead of refusing or failing the request.
 */
export interface Limits {
  kind: "memory" | "postgres" | "redis";
  create(options: LimitOptions): RateLimiterAbstract;
  /**
   * A limiter for a hot path (the API limit, one point a request): on a shared store it spends
   * points leased in slices (lib/leased-limiter.ts), so a request does not wait on the store.
   */
  spender(options: LimitOptions): PointSpender;
  /** Drops counts that expired (the periodic clean-up; memory and Redis expire their own). */
  sweep(): Promise<void>;
}

export const memoryLimits = (): Limits => ({
  kind: "memory",
  create: (options) => new RateLimiterMemory(options),
  spender: (options) => new RateLimiterMemory(options),
  sweep: () => Promise.resolve(),
});

/** The table the PostgreSQL store counts in (server/db/schema.ts `rateLimits`, made by a migration). */
export const RATE_LIMITS_TABLE = "rate_limits";

export function postgresLimits(pool: Pool): Limits {
  const create = (options: LimitOptions) =>
    new RateLimiterPostgres({
      ...options,
      storeClient: pool,
      storeType: "pool",
      tableName: RATE_LIMITS_TABLE,
      tableCreated: true,
      // Expired rows are swept by the server's periodic clean-up (one statement, not a timer per limiter).
      clearExpiredByTimeout: false,
      insuranceLimiter: new RateLimiterMemory(options),
    });
  return {
    kind: "postgres",
    create,
    spender: (options) => leasedLimiter(create(options)),
    // Rows an hour past their expiry, as the library's own timer would sweep them.
    sweep: async () => void (await pool.query(`delete from ${RATE_LIMITS_TABLE} where expire < $1`, [Date.now() - 3_600_000])),
  };
}

/** Counts in Redis (REDIS_URL): keys expire by themselves. While Redis is unreachable, each instance counts alone. */
export function redisLimits(client: Redis): Limits {
  const create = (options: LimitOptions) =>
    new RateLimiterRedis({
      ...options,
      keyPrefix: `bk:${options.keyPrefix}`,
      storeClient: client,
      // A request is not held up waiting for a reconnect: the memory count answers at once.
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory(options),
    });
  return { kind: "redis", create, spender: (options) => leasedLimiter(create(options)), sweep: () => Promise.resolve() };
}
