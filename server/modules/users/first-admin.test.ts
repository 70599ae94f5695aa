import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { pino } from "pino";
import { signIn } from "../../test/factories";
import { startTestApp, type TestApp } from "../../test/test-app";
import { ensureFirstAdmin, FIRST_ADMIN_USERNAME } from "./first-admin";

describe("the first administrator (D2)", () => {
  let t: TestApp;
  const log = pino({ level: "silent" });
  beforeEach(async () => {
    t = await startTestApp();
  });
  afterEach(() => t.close());

  it("uses ADMIN_PASSWORD when set, and prints nothing", async () => {
    const printed: string[] = [];
    await ensureFirstAdmin({ ...t.container.repos, log, adminPassword: "s3cret-admin", print: (s) => printed.push(s) });
    expect(printed).toEqual([]);
    await signIn(t.client(), { row: { username: FIRST_ADMIN_USERNAME } as never, password: "s3cret-admin" });
  });

  it("otherwise generates a password, prints it once, and it works", async () => {
    const printed: string[] = [];
    const print = (s: string) => printed.push(s);
    await ensureFirstAdmin({ ...t.container.repos, log, adminPassword: undefined, print });
    await ensureFirstAdmin({ ...t.container.repos, log, adminPassword: undefined, print });
    expect(printed).toHaveLength(1);
    const password = /password: (\S+)/.exec(printed[0]!)?.[1];
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    await signIn(t.client(), { row: { username: FIRST_ADMIN_USERNAME } as never, password: password! });
  });

  it("does nothing when users exist", async () => {
    await ensureFirstAdmin({ ...t.container.repos, log, adminPassword: "first-one", print: () => {} });
    await ensureFirstAdmin({ ...t.container.repos, log, adminPassword: "second-one", print: () => {} });
    expect(await t.container.repos.usersRepo.count()).toBe(1);
    const res = await t.client().post("/api/login", { username: "admin", password: "second-one" });
    expect(res.status).toBe(401);
  });
});
