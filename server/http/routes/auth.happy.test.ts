import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_COOKIE } from "../session-cookie";
import { buildUser, signIn, type BuiltUser } from "../../test/factories";
import { startTestApp, type TestApp } from "../../test/test-app";

describe("sign-in, session and sign-out", () => {
  let t: TestApp;
  let alice: BuiltUser;

  beforeAll(async () => {
    t = await startTestApp();
    alice = await buildUser(t.container, { username: "alice", firstName: "Alice", lastName: "Liddell" });
  });
  afterAll(() => t.close());

  it("signs in with the right password and returns the user without secrets", async () => {
    const client = t.client();
    const res = await client.post("/api/login", { username: "alice", password: alice.password });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: alice.row.id, username: "alice", firstName: "Alice", isActive: true });
    expect(res.body.user.lastLoginAt).toEqual(expect.any(String));
    expect(res.text).not.toContain("argon2");
    expect(res.text).not.toMatch(/password/i);
  });

  it("sets an HttpOnly, SameSite=Lax session cookie (no Secure over plain HTTP)", async () => {
    const res = await fetch(`${t.baseUrl}/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "alice", password: alice.password }),
    });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/i);
  });

  it("over HTTPS behind a trusted proxy the cookie is Secure and __Host- prefixed, and only that one is read", async () => {
    const proxied = await startTestApp({ config: { TRUST_PROXY: ["loopback"] } });
    try {
      const bob = await buildUser(proxied.container);
      const res = await fetch(`${proxied.baseUrl}/api/login`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-proto": "https" },
        body: JSON.stringify({ username: bob.row.username, password: bob.password }),
      });
      const cookie = res.headers.getSetCookie().join();
      expect(cookie).toMatch(/^__Host-bk_session=[\w-]{43}; Path=\/;.*Secure/);
      expect(cookie).not.toMatch(/Domain=/i);
      const token = /^__Host-bk_session=([\w-]{43})/.exec(cookie)![1]!;
      const session = (name: string) =>
        fetch(`${proxied.baseUrl}/api/session`, { headers: { cookie: `${name}=${token}`, "x-forwarded-proto": "https" } });
      expect((await session("__Host-bk_session")).status).toBe(200);
      expect((await session("bk_session")).status).toBe(401);
    } finally {
      await proxied.close();
    }
  });

  it("accepts the username in any case", async () => {
    const res = await t.client().post("/api/login", { username: "ALICE", password: alice.password });
    expect(res.status).toBe(200);
  });

  it("GET /api/session returns the signed-in user, and 401 without a session", async () => {
    const client = t.client();
    expect((await client.get("/api/session")).status).toBe(401);
    await signIn(client, alice);
    const res = await client.get("/api/session");
    expect(res.status).toBe(200);
    expect(res.body.user.username).toBe("alice");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("issues a new session id at every sign-in and ends the one the browser came with", async () => {
    const client = t.client();
    await signIn(client, alice);
    const first = client.cookie(SESSION_COOKIE)!;
    await signIn(client, alice);
    const second = client.cookie(SESSION_COOKIE)!;
    expect(second).not.toBe(first);

    const replay = t.client();
    replay.setCookie(SESSION_COOKIE, first);
    expect((await replay.get("/api/session")).status).toBe(401);
  });

  it("logout ends the session on the server, not only in the browser", async () => {
    const client = t.client();
    await signIn(client, alice);
    const token = client.cookie(SESSION_COOKIE)!;
    const res = await client.post("/api/logout");
    expect(res.status).toBe(204);
    expect(client.cookie(SESSION_COOKIE)).toBeUndefined();

    const replay = t.client();
    replay.setCookie(SESSION_COOKIE, token);
    expect((await replay.get("/api/session")).status).toBe(401);
  });

  it("logout without a session is harmless", async () => {
    expect((await t.client().post("/api/logout")).status).toBe(204);
  });

  it("stores only a hash of the session token", async () => {
    const client = t.client();
    await signIn(client, alice);
    const token = client.cookie(SESSION_COOKIE)!;
    const stored = await t.container.repos.sessionsRepo.findWithUser(token);
    expect(stored).toBeUndefined();
  });
});
