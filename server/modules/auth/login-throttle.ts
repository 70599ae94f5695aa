import type { RateLimiterRes } from "rate-limiter-flexible";
import { memoryLimits, type Limits } from "../../lib/limits";

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

export function createLoginThrottle(limits: LoginThrottleLimits = DEFAULT_LOGIN_LIMITS, store: Limits = memoryLimits()) {
  const make = (name: string, l: { failures: number; windowSeconds: number }) => ({
    max: l.failures,
    limiter: store.create({ keyPrefix: `login_${name}`, points: l.failures, duration: l.windowSeconds }),
  });
  const byUserAndIp = make("user_ip", limits.perUserAndIp);
  const byIp = make("ip", limits.perIp);
  const byUser = make("user", limits.perUser);

  const rejected = (err: unknown): number => {
    if (err instanceof Error) throw err; // the store failed, not the limit
    return Math.max(1, (err as RateLimiterRes).msBeforeNext);
  };

  return {
    /**
     * Admits one sign-in attempt, or says how long to wait. The per-address counts are taken
     * before the password is checked (atomically, so a burst of parallel guesses cannot all slip
     * under a limit) and given back by `settle(true)`; a failure then also counts against the
     * account.
     */
    async admit(username: string, ip: string): Promise<{ retryAfterMs: number } | { settle(success: boolean): Promise<void> }> {
      const user = username.toLowerCase();
      const userIpKey = `${user}|${ip}`;
      const [userAndIp, onUser] = await Promise.all([byUserAndIp.limiter.get(userIpKey), byUser.limiter.get(user)]);
      // The account is under attack: addresses that guessed wrong wait; a clean one may try.
      if (userAndIp && userAndIp.consumedPoints > 0 && onUser && onUser.consumedPoints >= byUser.max) {
        return { retryAfterMs: Math.max(1, Math.min(onUser.msBeforeNext, userAndIp.msBeforeNext)) };
      }
      try {
        await byUserAndIp.limiter.consume(userIpKey);
      } catch (err) {
        return { retryAfterMs: rejected(err) };
      }
      try {
        await byIp.limiter.consume(ip);
      } catch (err) {
        await byUserAndIp.limiter.reward(userIpKey);
        return { retryAfterMs: rejected(err) };
      }
      return {
        async settle(success: boolean) {
          if (success) {
            await Promise.all([byUserAndIp.limiter.delete(userIpKey), byIp.limiter.reward(ip)]);
          } else {
            await byUser.limiter.consume(user).catch((res: RateLimiterRes | Error) => res);
          }
        },
      };
    },
  };
}
