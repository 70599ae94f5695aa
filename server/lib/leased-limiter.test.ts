import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { describe, expect, it } from "vitest";
import { leasedLimiter } from "./leased-limiter";

// @pglite-only: the lease's arithmetic over the library's memory store; the shared stores are checked in server/cluster/shared-limits.test.ts.

/** A shared store that counts the round trips made to it. */
function countedStore(points: number, duration = 60) {
  const store = new RateLimiterMemory({ points, duration });
  let trips = 0;
  const counted = Object.assign(Object.create(store) as RateLimiterAbstract, {
    consume: (key: string, n?: number) => {
      trips++;
      return store.consume(key, n);
    },
  });
  return { store, counted, trips: () => trips };
}

const allowed = (p: Promise<unknown>) =>
  p.then(
    () => true,
    (e: unknown) => {
      if (e instanceof RateLimiterRes) return false;
      throw e;
    },
  );

describe("a leased limiter", () => {
  it("spends a 1,000-point limit in slices of 10: a hundred round trips, and the 1,001st request is refused", async () => {
    const { counted, store, trips } = countedStore(1000);
    const spender = leasedLimiter(counted);
    for (let i = 0; i < 1000; i++) expect(await allowed(spender.consume("c"))).toBe(true);
    expect(trips()).toBe(100);
    expect(await allowed(spender.consume("c"))).toBe(false);
    expect((await store.get("c"))!.consumedPoints).toBeGreaterThanOrEqual(1000);
  });

  it("once refused it does not ask the store again within the window, and says when to come back", async () => {
    const { counted, trips } = countedStore(300);
    const spender = leasedLimiter(counted);
    for (let i = 0; i < 300; i++) await spender.consume("c");
    const before = trips();
    const refusals = await Promise.all(Array.from({ length: 20 }, () => spender.consume("c").catch((e: unknown) => e)));
    expect(trips() - before).toBe(1);
    for (const r of refusals) {
      expect(r).toBeInstanceOf(RateLimiterRes);
      expect((r as RateLimiterRes).msBeforeNext).toBeGreaterThan(50_000);
    }
  });

  it("requests arriving together wait for one slice instead of each taking its own", async () => {
    const { counted, trips } = countedStore(2000);
    const spender = leasedLimiter(counted);
    const results = await Promise.all(Array.from({ length: 60 }, () => allowed(spender.consume("c"))));
    expect(results.every(Boolean)).toBe(true);
    expect(trips()).toBe(3);
  });

  it("two instances on one count never pass the limit, and leave at most a slice each unspent", async () => {
    const { counted } = countedStore(1000);
    const [one, two] = [leasedLimiter(counted), leasedLimiter(counted)];
    let granted = 0;
    for (let i = 0; i < 700; i++) {
      if (await allowed(one.consume("c"))) granted++;
      if (await allowed(two.consume("c"))) granted++;
    }
    expect(granted).toBeLessThanOrEqual(1000);
    expect(granted).toBeGreaterThanOrEqual(1000 - 2 * 9);
  });

  it("a small limit is counted one point at a time: exact across instances", async () => {
    const { counted, trips } = countedStore(20);
    const [one, two] = [leasedLimiter(counted), leasedLimiter(counted)];
    let granted = 0;
    for (let i = 0; i < 20; i++) {
      if (await allowed(one.consume("c"))) granted++;
      if (await allowed(two.consume("c"))) granted++;
    }
    expect(granted).toBe(20);
    expect(trips()).toBe(22);
  });

  it("what a slice could not fully grant is still spent; a request for more points than are left is refused", async () => {
    const { counted } = countedStore(1000);
    const spender = leasedLimiter(counted);
    expect(await allowed(spender.consume("c", 995))).toBe(true);
    // The next slice asks for 10 while 5 are free: those 5 are granted here, then no more.
    for (let i = 0; i < 5; i++) expect(await allowed(spender.consume("c"))).toBe(true);
    expect(await allowed(spender.consume("c"))).toBe(false);
    const other = leasedLimiter(counted);
    expect(await allowed(other.consume("c", 2))).toBe(false);
  });

  it("keys are separate, and a new window brings the points back", async () => {
    const { counted } = countedStore(200, 1);
    const spender = leasedLimiter(counted);
    for (let i = 0; i < 200; i++) await spender.consume("a");
    expect(await allowed(spender.consume("a"))).toBe(false);
    expect(await allowed(spender.consume("b"))).toBe(true);
    const deadline = Date.now() + 5_000;
    while (!(await allowed(spender.consume("a")))) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 50));
    }
  });

  it("a store that fails rejects with its error (not a refusal), for every request waiting on the slice", async () => {
    const broken = Object.assign(Object.create(new RateLimiterMemory({ points: 1000, duration: 60 })) as RateLimiterAbstract, {
      consume: () => Promise.reject(new Error("store down")),
    });
    const spender = leasedLimiter(broken);
    const results = await Promise.all([spender.consume("c"), spender.consume("c")].map((p) => p.catch((e: unknown) => e)));
    for (const r of results) expect(r).toEqual(new Error("store down"));
  });
});
