import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildUser, signedInAs } from "../../test/factories";
import type { TestClient } from "../../test/http-client";
import { startTestApp, type TestApp } from "../../test/test-app";

describe("users API with bad input", () => {
  let t: TestApp;
  let admin: TestClient;
  const valid = { email: "olga@example.com", username: "olga", password: "secret1", firstName: "Olga", lastName: "K", isActive: true };

  beforeAll(async () => {
    t = await startTestApp();
    admin = (await signedInAs(t, ["admin"])).client;
  });
  afterAll(() => t.close());

  it.each([
    ["an invalid email", { email: "not-an-email" }, "email", "Please enter a valid email address"],
    ["a missing email", { email: undefined }, "email", "Please enter a valid email address"],
    ["a short username", { username: "ab" }, "username", "Username must be at least 3 characters"],
    ["a short password", { password: "12345" }, "password", "Password must be at least 6 characters"],
    ["a username with spaces", { username: "two words" }, "username", "Username cannot contain spaces"],
    ["isActive that is not a boolean", { isActive: "yes" }, "isActive", expect.any(String)],
  ])("%s: 400 with the spec's field message", async (_name, override, field, message) => {
    const res = await admin.post("/api/users", { ...valid, ...override });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("validation_failed");
    expect(res.body.error.fields[field]).toEqual(message);
  });

  it("1 MB of text in a name field: refused whole (413), nothing stored", async () => {
    const res = await admin.post("/api/users", { ...valid, username: "bigname", firstName: "x".repeat(1024 * 1024) });
    expect(res.status).toBe(413);
    expect((await admin.get("/api/users")).body.some((u: { username: string }) => u.username === "bigname")).toBe(false);
  });

  it("a name over 100 characters: 400", async () => {
    const res = await admin.post("/api/users", { ...valid, username: "longname", firstName: "x".repeat(101) });
    expect(res.status).toBe(400);
    expect(res.body.error.fields.firstName).toBeDefined();
  });

  it("duplicate username or email (any case): 409 with a field message", async () => {
    expect((await admin.post("/api/users", valid)).status).toBe(201);
    const dupName = await admin.post("/api/users", { ...valid, email: "other@example.com", username: "OLGA" });
    expect(dupName.status).toBe(409);
    expect(dupName.body.error.fields).toEqual({ username: "Username is already taken" });
    const dupEmail = await admin.post("/api/users", { ...valid, username: "olga2", email: "OLGA@example.com" });
    expect(dupEmail.status).toBe(409);
    expect(dupEmail.body.error.fields).toEqual({ email: "Email is already in use" });
  });

  it("renaming onto another user's username: 409", async () => {
    const a = await buildUser(t.container, { username: "pat" });
    await buildUser(t.container, { username: "quinn" });
    const res = await admin.request("PUT", `/api/users/${a.row.id}`, { json: { username: "Quinn" } });
    expect(res.status).toBe(409);
  });

  it("a user id that does not exist: 404 on every user route", async () => {
    const id = randomUUID();
    expect((await admin.get(`/api/users/${id}`)).status).toBe(404);
    expect((await admin.request("PUT", `/api/users/${id}`, { json: { isActive: false } })).status).toBe(404);
    expect((await admin.request("DELETE", `/api/users/${id}`)).status).toBe(404);
    expect((await admin.get(`/api/users/${id}/roles`)).status).toBe(404);
    expect((await admin.request("PUT", `/api/users/${id}/roles`, { json: { roleIds: [] } })).status).toBe(404);
  });

  it("an id that is not even a UUID: 404, not a database error", async () => {
    const res = await admin.get("/api/users/1' OR '1'='1");
    expect(res.status).toBe(404);
  });

  it("unknown role ids: 400 naming them, and nothing changes", async () => {
    const { row } = await buildUser(t.container, { roles: ["viewer"] });
    const ghost = randomUUID();
    const res = await admin.request("PUT", `/api/users/${row.id}/roles`, { json: { roleIds: [ghost] } });
    expect(res.status).toBe(400);
    expect(res.body.error.fields.roleIds).toContain(ghost);
    expect((await admin.get(`/api/users/${row.id}/roles`)).body.map((r: { name: string }) => r.name)).toEqual(["viewer"]);
  });

  it("roleIds that are not a list of ids: 400", async () => {
    const { row } = await buildUser(t.container);
    expect((await admin.request("PUT", `/api/users/${row.id}/roles`, { json: { roleIds: "admin" } })).status).toBe(400);
    expect((await admin.request("PUT", `/api/users/${row.id}/roles`, { json: { roleIds: ["not-a-uuid"] } })).status).toBe(400);
  });

  it("an invalid update changes nothing", async () => {
    const { row } = await buildUser(t.container, { username: "rita" });
    const res = await admin.request("PUT", `/api/users/${row.id}`, { json: { username: "ri", email: "bad" } });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.fields).sort()).toEqual(["email", "username"]);
    expect((await admin.get(`/api/users/${row.id}`)).body.username).toBe("rita");
  });
});
