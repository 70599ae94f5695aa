import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../test/test-app";
import { startTestApp } from "../test/test-app";
import { onPostgres, startTwoInstances, type TwoInstances } from "../test/two-instances";

/** Jobs that must run once (issue 29 item 4): the clean-ups take turns across instances. */
describe.skipIf(!onPostgres)("jobs on two instances of one PostgreSQL", () => {
  let two: TwoInstances;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    two = await startTwoInstances();
    ({ a, b } = two);
  });
  afterAll(() => two?.close());

  it("started together, one instance runs the job and the other skips it", async () => {
    const ran: string[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    const job = (who: string) => async () => {
      ran.push(who);
      await held;
    };
    const first = a.container.cluster.jobs.once("together", 60_000, job("a"));
    // While a holds the job's lock, b's turn is skipped.
    await expect.poll(() => ran.length).toBe(1);
    expect(await b.container.cluster.jobs.once("together", 60_000, job("b"))).toBe(false);
    release();
    expect(await first).toBe(true);
    expect(ran).toEqual(["a"]);
  });

  it("once per period in the whole cluster: done on one, not due on the other; due again after the period", async () => {
    let runs = 0;
    const job = async () => void runs++;
    expect(await a.container.cluster.jobs.once("periodic", 60_000, job)).toBe(true);
    expect(await b.container.cluster.jobs.once("periodic", 60_000, job)).toBe(false);
    expect(await a.container.cluster.jobs.once("periodic", 60_000, job)).toBe(false);
    expect(runs).toBe(1);
    // A period of a millisecond has passed by now.
    expect(await b.container.cluster.jobs.once("periodic", 1, job)).toBe(true);
    expect(runs).toBe(2);
  });

  it("a job that fails releases its turn: the next may run", async () => {
    await expect(a.container.cluster.jobs.once("failing", 60_000, () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await b.container.cluster.jobs.once("failing", 60_000, async () => undefined)).toBe(true);
  });
});

describe.skipIf(onPostgres)("jobs on the embedded database", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it("one process: every turn runs", async () => {
    let runs = 0;
    for (let i = 0; i < 3; i++) expect(await t.container.cluster.jobs.once("alone", 60_000, async () => void runs++)).toBe(true);
    expect(runs).toBe(3);
  });
});
