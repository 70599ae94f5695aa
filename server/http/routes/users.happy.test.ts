import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildUser, signedInAs, signIn } from "../../test/factories";
import type { TestClient } from "../../test/http-client";
import { startTestApp, type TestApp } from "../../test/test-app";

describe("users API", () => {
  let t: TestApp;
  let admin: TestClient;

  beforeAll(async () => {
    t = await startTestApp();
    admin = (await signedInAs(t, ["admin"], { username: "root" })).client;
  });
  afterAll(() => t.close());

  const newUser = (over: Record<string, unknown> = {}) => ({
    email: "grace@example.com",
    username: "grace",
    password: "hopper-1906",
    firstName: "Grace",
    lastName: "Hopper",
    isActive: true,
    ...over,
  });

  it("creates a user and returns it without any password", async () => {
    const res = await admin.post("/api/users", newUser());
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      username: "grace",
      email: "grace@example.com",
      firstName: "Grace",
      lastName: "Hopper",
      isActive: true,
      roles: [],
      lastLoginAt: null,
    });
    expect(res.text).not.toMatch(/password|hopper-1906|argon2/i);
    // and the new user can sign in
    await signIn(t.client(), { row: res.body, password: "hopper-1906" });
  });

  it("new users are active by default; names are optional", async () => {
    const res = await admin.post("/api/users", { email: "min@example.com", username: "minimal", password: "secret1" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ isActive: true, firstName: null, lastName: null });
  });

  it("lists users with their roles, never a password hash", async () => {
    const res = await admin.get("/api/users");
    expect(res.status).toBe(200);
    const root = res.body.find((u: { username: string }) => u.username === "root");
    expect(root.roles.map((r: { name: string }) => r.name)).toEqual(["admin"]);
    expect(res.text).not.toMatch(/argon2|passwordHash/);
  });

  it("updates fields, and toggles isActive alone", async () => {
    const { row } = await buildUser(t.container, { username: "henry" });
    const res = await admin.request("PUT", `/api/users/${row.id}`, {
      json: { email: "henry@example.com", username: "henry2", firstName: "Henry", lastName: "Ford", isActive: true },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ username: "henry2", email: "henry@example.com", firstName: "Henry" });

    const off = await admin.request("PUT", `/api/users/${row.id}`, { json: { isActive: false } });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ isActive: false, username: "henry2" });
  });

  it("an empty password in an update is omitted: the old one still works", async () => {
    const ivy = await buildUser(t.container);
    const res = await admin.request("PUT", `/api/users/${ivy.row.id}`, { json: { firstName: "Ivy", password: "" } });
    expect(res.status).toBe(200);
    await signIn(t.client(), ivy);
  });

  it("a new password works and ends the user's sessions", async () => {
    const jack = await buildUser(t.container);
    const jackClient = t.client();
    await signIn(jackClient, jack);
    const res = await admin.request("PUT", `/api/users/${jack.row.id}`, { json: { password: "brand-new-pw" } });
    expect(res.status).toBe(200);
    expect((await jackClient.get("/api/session")).status).toBe(401);
    await signIn(t.client(), { ...jack, password: "brand-new-pw" });
    expect((await t.client().post("/api/login", { username: jack.row.username, password: jack.password })).status).toBe(401);
  });

  it("changing one's own password keeps the current session and ends the others", async () => {
    const { user: kate, client: here } = await signedInAs(t, ["admin"]);
    const elsewhere = t.client();
    await signIn(elsewhere, kate);
    const res = await here.request("PUT", `/api/users/${kate.row.id}`, { json: { password: "kates-new-pw" } });
    expect(res.status).toBe(200);
    expect((await here.get("/api/session")).status).toBe(200);
    expect((await elsewhere.get("/api/session")).status).toBe(401);
  });

  it("deactivating a user ends their open session at once", async () => {
    const leo = await buildUser(t.container);
    const leoClient = t.client();
    await signIn(leoClient, leo);
    await admin.request("PUT", `/api/users/${leo.row.id}`, { json: { isActive: false } });
    expect((await leoClient.get("/api/session")).status).toBe(401);
    expect((await t.client().post("/api/login", { username: leo.row.username, password: leo.password })).status).toBe(403);
  });

  it("deleting a user ends their session and removes them", async () => {
    const mia = await buildUser(t.container);
    const miaClient = t.client();
    await signIn(miaClient, mia);
    expect((await admin.request("DELETE", `/api/users/${mia.row.id}`)).status).toBe(204);
    expect((await miaClient.get("/api/session")).status).toBe(401);
    expect((await admin.get(`/api/users/${mia.row.id}`)).status).toBe(404);
  });

  it("assigns roles, and the user's permissions follow on their next request", async () => {
    const { user: ned, client: nedClient } = await signedInAs(t, []);
    expect((await nedClient.get("/api/users")).status).toBe(403);
    const roles = (await admin.get("/api/roles")).body as { id: string; name: string }[];
    const viewer = roles.find((r) => r.name === "viewer")!;
    const put = await admin.request("PUT", `/api/users/${ned.row.id}/roles`, { json: { roleIds: [viewer.id] } });
    expect(put.status).toBe(200);
    expect(put.body.map((r: { name: string }) => r.name)).toEqual(["viewer"]);
    expect((await admin.get(`/api/users/${ned.row.id}/roles`)).body.map((r: { name: string }) => r.name)).toEqual(["viewer"]);
    expect((await nedClient.get("/api/users")).status).toBe(200);
    const session = await nedClient.get("/api/session");
    expect(session.body.user.roles).toEqual(["viewer"]);
    expect(session.body.user.permissions).toContain("users.read");
    expect(session.body.user.permissions).not.toContain("users.write");
  });

  it("lists the built-in roles with their permissions", async () => {
    const res = await admin.get("/api/roles");
    expect(res.status).toBe(200);
    const byName = Object.fromEntries(res.body.map((r: { name: string }) => [r.name, r]));
    expect(byName.admin).toMatchObject({ isBuiltin: true, isActive: true });
    expect(byName.admin.permissions.length).toBeGreaterThan(10);
    expect(byName.viewer.permissions.map((p: { resource: string; action: string }) => `${p.resource}.${p.action}`)).not.toContain(
      "users.write",
    );
    expect(byName.operator.permissions.map((p: { resource: string; action: string }) => `${p.resource}.${p.action}`)).toEqual(
      expect.arrayContaining(["config.write", "oauth-clients.write", "ai-providers.write"]),
    );
  });
});
