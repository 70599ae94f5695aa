import { RateLimiterMemory, type RateLimiterRes } from "rate-limiter-flexible";

/**
 * Password-guessing brake (OWASP Authentication Cheat Sheet): failures are counted per
 * username+IP (a typo-prone user is slowed, not banned), per IP (one host spraying many accounts)
 * and per username (many hosts against one account). Every block ends with its window, so an
 * attacker can delay the real user but never lock them out for good. A success clears the
 * username+IP count.
 */
export interface LoginThrottleLimits {
  perUserAndIp: { failures: number; windowSeconds: number };
  perIp: { failures: number; windowSeconds: number };
  perUser: { failures: number; windowSeconds: number };
}

export const DEFAULT_LOGIN_LIMITS: LoginThrottleLimits = {
  perUserAndIp: { failures: 5, windowSeconds: 15 * 60 },
  perIp: { failures: 100, windowSeconds: 60 * 60 },
  perUser: { failures: 30, windowSeconds: 15 * 60 },
};

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;

export function createLoginThrottle(limits: LoginThrottleLimits = DEFAULT_LOGIN_LIMITS) {
  const make = (name: string, l: { failures: number; windowSeconds: number }) => ({
    max: l.failures,
    limiter: new RateLimiterMemory({ keyPrefix: `login_${name}`, points: l.failures, duration: l.windowSeconds }),
  });
  const byUserAndIp = make("user_ip", limits.perUserAndIp);
  const byIp = make("ip", limits.perIp);
  const byUser = make("user", limits.perUser);

  const keys = (username: string, ip: string) => {
    const user = username.toLowerCase();
    return [
      [byUserAndIp, `${user}|${ip}`],
      [byIp, ip],
      [byUser, user],
    ] as const;
  };

  return {
    /** Milliseconds until another attempt is allowed; 0 when allowed now. */
    async retryAfterMs(username: string, ip: string): Promise<number> {
      const states = await Promise.all(keys(username, ip).map(([l, key]) => l.limiter.get(key).then((res) => ({ l, res }))));
      return states.reduce((wait, { l, res }) => {
        const blocked = res !== null && res.consumedPoints >= l.max;
        return blocked ? Math.max(wait, res.msBeforeNext) : wait;
      }, 0);
    },

    async recordFailure(username: string, ip: string): Promise<void> {
      await Promise.all(
        keys(username, ip).map(([l, key]) => l.limiter.consume(key).catch((res: RateLimiterRes | Error) => res)),
      );
    },

    async recordSuccess(username: string, ip: string): Promise<void> {
      await byUserAndIp.limiter.delete(`${username.toLowerCase()}|${ip}`);
    },
  };
}
