import { RateLimiterMemory, type RateLimiterRes } from "rate-limiter-flexible";

/**
 * Password-guessing brake (OWASP Authentication Cheat Sheet): failures are counted per
 * username+IP (a typo-prone user is slowed, not banned), per IP (one host spraying many accounts)
 * and per username (many hosts against one account). A success clears the username+IP count.
 *
 * The per-username count never locks the owner out: once it is over its limit, only addresses
 * that have themselves failed against that account in the window are turned away. Each further
 * guessing address gets one try, then it is blocked too; the owner, from an address without
 * failures, still signs in (issue 9: 30 guesses from 6 addresses used to lock the real user out
 * for 15 minutes, renewable forever, even for names not registered yet).
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
      const [userAndIp = null, onIp = null, onUser = null] = await Promise.all(keys(username, ip).map(([l, key]) => l.limiter.get(key)));
      const over = (res: RateLimiterRes | null, max: number) => (res !== null && res.consumedPoints >= max ? res.msBeforeNext : 0);
      return Math.max(
        over(userAndIp, byUserAndIp.max),
        over(onIp, byIp.max),
        // The account is under attack: addresses that guessed wrong wait; a clean one may try.
        userAndIp !== null && userAndIp.consumedPoints > 0 ? Math.min(over(onUser, byUser.max), userAndIp.msBeforeNext) : 0,
      );
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
