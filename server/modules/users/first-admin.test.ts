import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { pino } from "pino";
import { signIn } from "../../test/factories";
import { startTestApp, type TestApp } from "../../test/test-app";
import { ensureFirstAdmin, FIRST_ADMIN_USERNAME } from "./first-admin";

describe("the first administrator", () => {
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

  it("otherwise generates a password, prints it once with the address to open, and it works; Get started asks to change it until it is", async () => {
    const printed: string[] = [];
    const print = (s: string) => printed.push(s);
    await ensureFirstAdmin({ ...t.container.repos, log, adminPassword: undefined, openAt: "http://localhost:5000", print });
    await ensureFirstAdmin({ ...t.container.repos, log, adminPassword: undefined, print });
    expect(printed).toHaveLength(1);
    const password = /password: (\S+)/.exec(printed[0]!)?.[1];
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(printed[0]).toMatch(/│ {3}open: {5}http:\/\/localhost:5000 +│/);
    // Every line of the box is as wide as its frame.
    const box = printed[0]!.split("\n").filter((l) => l.trim() !== "");
    expect(new Set(box.map((l) => [...l].length)).size).toBe(1);
    const admin = t.client();
    await signIn(admin, { row: { username: FIRST_ADMIN_USERNAME } as never, password: password! });
    expect((await admin.get("/api/setup-status")).body).toMatchObject({ passwordChanged: false });
    const me = (await t.container.repos.usersRepo.findByUsername(FIRST_ADMIN_USERNAME))!;
    expect((await admin.put(`/api/users/${me.id}`, { password: "a-new-admin-password" })).status).toBe(200);
    const again = t.client();
    await signIn(again, { row: { username: FIRST_ADMIN_USERNAME } as never, password: "a-new-admin-password" });
    expect((await again.get("/api/setup-status")).body).toMatchObject({ passwordChanged: true });
  });

  it("does nothing when users exist", async () => {
    await ensureFirstAdmin({ ...t.container.repos, log, adminPassword: "first-one", print: () => {} });
    await ensureFirstAdmin({ ...t.container.repos, log, adminPassword: "second-one", print: () => {} });
    expect(await t.container.repos.usersRepo.count()).toBe(1);
    const res = await t.client().post("/api/login", { username: "admin", password: "second-one" });
    expect(res.status).toBe(401);
  });
});
