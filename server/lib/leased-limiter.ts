import { RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";

/** What a hot path spends points with: resolves when allowed; rejects with a RateLimiterRes when refused (an Error when broken). */
export interface PointSpender {
  readonly points: number;
  consume(key: string, points?: number): Promise<RateLimiterRes>;
}

/** The share of a key's points an instance takes from the shared store at a time. */
export const LEASE_FRACTION = 0.01;

interface Lease {
  /** Points taken from the shared count and not yet spent here. */
  left: number;
  /** When the shared window ends (epoch ms): what is left then is void. */
  until: number;
  /** The shared count had no more for this window: refuse without asking again until `until`. */
  refused: boolean;
  /** The slice being taken now: other requests for the key wait for it rather than take their own. */
  taking?: Promise<void>;
}

/**
 * Spends a shared limiter's points in slices (issue 29 item 9): an instance takes 1 % of a key's
 * points from the shared count (PostgreSQL or Redis) in one round trip and spends them in memory, so
 * a busy client costs one upsert per slice instead of one per request, and its requests never queue
 * on one row's lock. A limit under 200 points takes one point at a time (as without leases).
 *
 * The count stays a ceiling: nothing is spent that the shared count did not grant. What a lease
 * costs is the other way: points an instance took and did not spend before the window ended are
 * lost to the others, at most one slice per instance (1 % each) per window.
 */
export function leasedLimiter(shared: RateLimiterAbstract, now: () => number = Date.now): PointSpender {
  const slice = Math.max(1, Math.floor(shared.points * LEASE_FRACTION));
  const leases = new Map<string, Lease>();

  const refusal = (lease: Lease, t: number) => new RateLimiterRes(0, Math.max(0, lease.until - t), shared.points, false);

  /** Takes a slice (at least `points`) from the shared count into `lease`. */
  const take = (key: string, lease: Lease, points: number): Promise<void> => {
    const want = Math.max(points, slice);
    const asked = now();
    return shared.consume(key, want).then(
      (res) => {
        lease.left += want;
        lease.until = asked + res.msBeforeNext;
      },
      (rejection: RateLimiterRes | Error) => {
        if (rejection instanceof Error) throw rejection;
        // The store counted the whole slice; what was free before it is ours (the rest never was).
        const freeBefore = shared.points - (rejection.consumedPoints - want);
        lease.left += Math.max(0, Math.min(want, freeBefore));
        lease.until = asked + rejection.msBeforeNext;
        lease.refused = true;
      },
    );
  };

  const forget = (t: number) => {
    for (const [key, lease] of leases) if (lease.until <= t && !lease.taking) leases.delete(key);
  };

  return {
    points: shared.points,
    async consume(key, points = 1) {
      // Each turn spends, refuses, or waits for a slice that adds points or marks the key refused.
      for (;;) {
        const t = now();
        let lease = leases.get(key);
        if (lease && lease.until <= t && !lease.taking) lease = undefined;
        if (!lease) {
          if (leases.size >= 10_000) forget(t);
          lease = { left: 0, until: 0, refused: false };
          leases.set(key, lease);
        }
        if (lease.left >= points && lease.until > t) {
          lease.left -= points;
          return new RateLimiterRes(lease.left, lease.until - t, points, false);
        }
        if (lease.taking) {
          await lease.taking;
          continue;
        }
        if (lease.refused && lease.until > t) throw refusal(lease, t);
        const current = lease;
        current.taking = take(key, current, points).finally(() => (current.taking = undefined));
        await current.taking;
      }
    },
  };
}
