import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "../../../contract/limits";
import { SESSION_COOKIE } from "../session-cookie";
import { buildUser, signIn, type BuiltUser } from "../../test/factories";
import { createFakeClock } from "../../test/fake-clock";
import { startTestApp, type TestApp } from "../../test/test-app";

describe("sign-in with bad input", () => {
  let t: TestApp;
  let carol: BuiltUser;

  beforeAll(async () => {
    t = await startTestApp();
    carol = await buildUser(t.container, { username: "carol" });
    await buildUser(t.container, { username: "dave", password: "dave-password", isActive: false });
  });
  afterAll(() => t.close());

  const login = (body: unknown) => t.client().post("/api/login", body);

  it("wrong password: 401 Invalid credentials", async () => {
    const res = await login({ username: "carol", password: "nope" });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: { code: "invalid_credentials", message: "Invalid credentials" }, requestId: expect.any(String) });
  });

  it("unknown user: the same answer as a wrong password", async () => {
    const res = await login({ username: "nobody", password: "whatever" });
    expect(res.status).toBe(401);
    expect(res.body.error).toEqual({ code: "invalid_credentials", message: "Invalid credentials" });
  });

  it("inactive user with the right password: 403 saying the account is deactivated", async () => {
    const res = await login({ username: "dave", password: "dave-password" });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("account_inactive");
    expect(res.body.error.message).toMatch(/deactivated/);
  });

  it("inactive user with a wrong password learns nothing more than anyone else", async () => {
    const res = await login({ username: "dave", password: "wrong" });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("invalid_credentials");
  });

  it("missing fields: 400 with a message per field", async () => {
    const res = await login({});
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("validation_failed");
    expect(res.body.error.fields).toEqual({ username: "Username is required", password: "Password is required" });
  });

  it("empty strings count as missing", async () => {
    const res = await login({ username: "  ", password: "" });
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toEqual({ username: "Username is required", password: "Password is required" });
  });

  it("wrong types: 400, not 500", async () => {
    const res = await login({ username: 42, password: ["x"] });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.fields)).toEqual(["username", "password"]);
  });

  it("a 10 KB username: 400 with a field message", async () => {
    const res = await login({ username: "u".repeat(10_000), password: "x" });
    expect(res.status).toBe(400);
    expect(res.body.error.fields.username).toMatch(/at most/);
  });

  it("a very long password is refused before argon2 sees it", async () => {
    const res = await login({ username: "carol", password: "p".repeat(LIMITS.passwordMax + 1) });
    expect(res.status).toBe(400);
    expect(res.body.error.fields.password).toMatch(/at most/);
  });

  it("a JSON array or null body: 400", async () => {
    expect((await login([])).status).toBe(400);
    expect((await t.client().request("POST", "/api/login", { body: "null", headers: { "content-type": "application/json" } })).status).toBe(
      400,
    );
  });

  it("malformed JSON: 400 invalid_json", async () => {
    const res = await t.client().request("POST", "/api/login", { body: '{"username":', headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_json");
  });

  it("a non-JSON body: 415", async () => {
    const res = await t
      .client()
      .request("POST", "/api/login", { body: "username=carol", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe("unsupported_media_type");
  });

  it("a body over the limit: 413 JSON", async () => {
    const res = await login({ username: "carol", password: "x".repeat(LIMITS.jsonBodyBytes + 10) });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe("payload_too_large");
  });

  it("a forged cookie: 401 and the cookie is cleared", async () => {
    const client = t.client();
    client.setCookie(SESSION_COOKIE, "A".repeat(43));
    const res = await client.get("/api/session");
    expect(res.status).toBe(401);
    expect(res.headers.getSetCookie().join()).toMatch(new RegExp(`${SESSION_COOKIE}=;.*Max-Age=0`, "i"));
  });

  it("a malformed cookie is ignored: 401, not 500", async () => {
    const res = await t.client({ cookie: `${SESSION_COOKIE}=%%%; other=1` }).get("/api/session");
    expect(res.status).toBe(401);
  });

  it("a session idle longer than the idle timeout is over", async () => {
    const clock = createFakeClock();
    const idle = await startTestApp({ clock, config: { SESSION_IDLE_MINUTES: 30, SESSION_MAX_HOURS: 24 } });
    try {
      const user = await buildUser(idle.container);
      const client = idle.client();
      await signIn(client, user);
      clock.advance(29 * 60_000);
      expect((await client.get("/api/session")).status).toBe(200);
      clock.advance(31 * 60_000);
      expect((await client.get("/api/session")).status).toBe(401);
    } finally {
      await idle.close();
    }
  });

  it("a session past its absolute lifetime is over, however active", async () => {
    const clock = createFakeClock();
    const bounded = await startTestApp({ clock, config: { SESSION_IDLE_MINUTES: 60, SESSION_MAX_HOURS: 2 } });
    try {
      const user = await buildUser(bounded.container);
      const client = bounded.client();
      await signIn(client, user);
      for (let i = 0; i < 3; i++) {
        clock.advance(35 * 60_000);
        expect((await client.get("/api/session")).status).toBe(200);
      }
      clock.advance(16 * 60_000); // 121 minutes after sign-in
      expect((await client.get("/api/session")).status).toBe(401);
    } finally {
      await bounded.close();
    }
  });

  it("a session whose user was deactivated is over", async () => {
    const erin = await buildUser(t.container);
    const client = t.client();
    await signIn(client, erin);
    await t.container.repos.usersRepo.setActive(erin.row.id, false);
    expect((await client.get("/api/session")).status).toBe(401);
  });

  it("carol can still sign in after all of that", async () => {
    await signIn(t.client(), carol);
  });
});
