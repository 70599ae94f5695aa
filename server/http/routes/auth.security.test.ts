import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildUser, signIn, type BuiltUser } from "../../test/factories";
import { startTestApp, type TestApp } from "../../test/test-app";

describe("sign-in security", () => {
  let t: TestApp;
  let frank: BuiltUser;

  // Windows long enough that a busy machine cannot let a count expire mid-test (six sign-ins took
  // 2.8 s on a loaded CI machine, longer than a window of 2 s).
  beforeAll(async () => {
    t = await startTestApp({
      config: {
        TRUST_PROXY: ["loopback"], // the test client is the proxy: each test speaks from its own IP through X-Forwarded-For
        loginLimits: {
          perUserAndIp: { failures: 3, windowSeconds: 600 },
          perIp: { failures: 6, windowSeconds: 600 },
          perUser: { failures: 10, windowSeconds: 600 },
        },
      },
    });
    frank = await buildUser(t.container, { username: "frank" });
  });
  afterAll(() => t.close());

  const from = (ip: string) => t.client({ "x-forwarded-for": ip });

  describe("password guessing", () => {
    it("blocks a username+IP after repeated failures with 429 and Retry-After, even for the right password", async () => {
      const client = from("10.0.0.1");
      for (let i = 0; i < 3; i++) {
        expect((await client.post("/api/login", { username: "frank", password: "guess" })).status).toBe(401);
      }
      const blocked = await client.post("/api/login", { username: "frank", password: frank.password });
      expect(blocked.status).toBe(429);
      expect(blocked.body.error.code).toBe("rate_limited");
      expect(blocked.body.error.message).toMatch(/Too many sign-in attempts/);
      expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    });

    it("does not block the real user signing in from elsewhere", async () => {
      await signIn(from("10.0.0.2"), frank);
    });

    it("blocks one IP spraying many usernames", async () => {
      const client = from("10.0.0.3");
      for (let i = 0; i < 6; i++) await client.post("/api/login", { username: `spray${i}`, password: "x" });
      const res = await client.post("/api/login", { username: "frank", password: frank.password });
      expect(res.status).toBe(429);
    });
  });

  // A window of 2 s, waited out: only the lifting is checked here (the block itself above).
  describe("no lockout for good", () => {
    let quick: TestApp;
    beforeAll(async () => {
      quick = await startTestApp({
        config: {
          TRUST_PROXY: ["loopback"],
          loginLimits: {
            perUserAndIp: { failures: 3, windowSeconds: 2 },
            perIp: { failures: 6, windowSeconds: 2 },
            perUser: { failures: 10, windowSeconds: 2 },
          },
        },
      });
    });
    afterAll(() => quick.close());

    it("lifts the block when the window has passed", async () => {
      const ida = await buildUser(quick.container, { username: "ida" });
      const client = quick.client({ "x-forwarded-for": "10.0.0.1" });
      for (let i = 0; i < 3; i++) await client.post("/api/login", { username: "ida", password: "guess" });
      // However long the failures took, the window that began with the last of them has passed.
      await new Promise((r) => setTimeout(r, 2_100));
      await signIn(client, ida);
    });
  });

  // Windows long enough that a busy machine cannot let a count expire mid-test.
  describe("an account under attack from many addresses", () => {
    const slow = {} as { t: TestApp; from: (ip: string) => ReturnType<TestApp["client"]> };
    beforeAll(async () => {
      slow.t = await startTestApp({
        config: {
          TRUST_PROXY: ["loopback"],
          loginLimits: {
            perUserAndIp: { failures: 3, windowSeconds: 600 },
            perIp: { failures: 50, windowSeconds: 600 },
            perUser: { failures: 10, windowSeconds: 600 },
          },
        },
      });
      slow.from = (ip) => slow.t.client({ "x-forwarded-for": ip });
    });
    afterAll(() => slow.t.close());

    it("many addresses guessing one account never lock its owner out; each guessing address is turned away", async () => {
      const gina = await buildUser(slow.t.container, { username: "gina" });
      // 10 failures (the per-account limit here) from 5 addresses, 2 each: no address is over its own limit.
      for (let i = 0; i < 10; i++)
        expect((await slow.from(`10.1.0.${i % 5}`).post("/api/login", { username: "gina", password: "guess" })).status).toBe(401);
      // An address that guessed wrong is now refused, even with the right password.
      expect((await slow.from("10.1.0.1").post("/api/login", { username: "gina", password: gina.password })).status).toBe(429);
      // A new guessing address gets one try, then it is refused too.
      expect((await slow.from("10.1.0.99").post("/api/login", { username: "gina", password: "guess" })).status).toBe(401);
      expect((await slow.from("10.1.0.99").post("/api/login", { username: "gina", password: "guess" })).status).toBe(429);
      // The owner, from an address without failures, signs in.
      await signIn(slow.from("10.1.0.200"), gina);
    });

    it("a burst of parallel guesses from one address gets no more password checks than its limit", async () => {
      await buildUser(slow.t.container, { username: "hank" });
      const results = await Promise.all(
        Array.from({ length: 20 }, () => slow.from("10.3.0.1").post("/api/login", { username: "hank", password: "guess" })),
      );
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 401)).toHaveLength(3); // perUserAndIp: 3
      expect(statuses.filter((s) => s === 429)).toHaveLength(17);
    });

    it("guesses at a name that does not exist yet do not lock out whoever takes it", async () => {
      for (let i = 0; i < 12; i++) await slow.from(`10.2.0.${i % 6}`).post("/api/login", { username: "future-user", password: "guess" });
      const newcomer = await buildUser(slow.t.container, { username: "future-user" });
      await signIn(slow.from("10.2.0.100"), newcomer);
    });
  });

  describe("cross-site requests (CSRF)", () => {
    it("refuses a cookie-authenticated write whose Origin is another site", async () => {
      const client = t.client();
      await signIn(client, frank);
      const res = await client.post("/api/logout", undefined, { origin: "https://evil.example" });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("csrf_rejected");
      expect((await client.get("/api/session")).status).toBe(200);
    });

    it("refuses a write marked Sec-Fetch-Site: cross-site", async () => {
      const res = await t.client().post("/api/login", { username: "frank", password: frank.password }, { "sec-fetch-site": "cross-site" });
      expect(res.status).toBe(403);
    });

    it("refuses a same-site but cross-origin write", async () => {
      const res = await t.client().post("/api/logout", undefined, { "sec-fetch-site": "same-site" });
      expect(res.status).toBe(403);
    });

    it("accepts a same-origin write", async () => {
      const client = t.client();
      const res = await client.post(
        "/api/login",
        { username: "frank", password: frank.password },
        { origin: t.baseUrl, "sec-fetch-site": "same-origin" },
      );
      expect(res.status).toBe(200);
    });

    it("accepts a configured trusted origin", async () => {
      const res = await t.client().post("/api/login", { username: "frank", password: frank.password }, { origin: "http://localhost:3000" });
      expect(res.status).toBe(200);
    });

    it("reads are not affected", async () => {
      const res = await t.client().get("/api/session", { origin: "https://evil.example", "sec-fetch-site": "cross-site" });
      expect(res.status).toBe(401);
    });
  });

  describe("logs", () => {
    it("never contain a password or a session cookie", async () => {
      const client = t.client();
      const secret = "correct-horse-battery-staple";
      await client.post("/api/login", { username: "frank", password: secret });
      await signIn(client, frank);
      const cookie = client.cookie("bk_session")!;
      await client.get("/api/session?access_token=should-not-be-logged");
      const all = t.logLines.join("\n");
      expect(all).not.toContain(secret);
      expect(all).not.toContain(frank.password);
      expect(all).not.toContain(cookie);
      expect(all).not.toContain("should-not-be-logged");
      expect(all).toContain("/api/session?access_token=…");
    });
  });
});
