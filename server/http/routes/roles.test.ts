import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInAs } from "../../test/factories";
import type { TestClient } from "../../test/http-client";
import { startTestApp, type TestApp } from "../../test/test-app";

describe("roles API", () => {
  let t: TestApp;
  let admin: TestClient;
  const builtinId = async (name: string) =>
    ((await admin.get("/api/roles")).body as { id: string; name: string }[]).find((r) => r.name === name)!.id;

  beforeAll(async () => {
    t = await startTestApp();
    admin = (await signedInAs(t, ["admin"])).client;
  });
  afterAll(() => t.close());

  it("lists the permission catalogue with descriptions", async () => {
    const res = await admin.get("/api/permissions");
    expect(res.status).toBe(200);
    expect(res.body).toContainEqual({
      id: expect.any(String),
      resource: "users",
      action: "write",
      description: expect.stringMatching(/users/i),
    });
  });

  it("creates, edits and deletes a custom role", async () => {
    const created = await admin.post("/api/roles", {
      name: "auditors",
      description: "Read the trail",
      permissions: ["audit.read", "logs.read"],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "auditors", isBuiltin: false, isActive: true });
    expect(created.body.permissions.map((p: { resource: string; action: string }) => `${p.resource}.${p.action}`).sort()).toEqual([
      "audit.read",
      "logs.read",
    ]);

    const edited = await admin.request("PUT", `/api/roles/${created.body.id}`, {
      json: { description: "Reads the audit trail", permissions: ["audit.read"], isActive: false },
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ description: "Reads the audit trail", isActive: false });
    expect(edited.body.permissions).toHaveLength(1);

    expect((await admin.request("DELETE", `/api/roles/${created.body.id}`)).status).toBe(204);
    expect((await admin.get("/api/roles")).body.some((r: { name: string }) => r.name === "auditors")).toBe(false);
  });

  it("a signed-in user's permissions follow their roles at once: a role switched off or edited takes effect on the next request", async () => {
    const readers = await admin.post("/api/roles", { name: "trail-readers", permissions: ["audit.read", "logs.read"] });
    const viewers = await admin.post("/api/roles", { name: "log-viewers", permissions: ["logs.read"] });
    const { user, client } = await signedInAs(t, []);
    const session = async () => (await client.get("/api/session")).body.user as { roles: string[]; permissions: string[] };
    expect(await session()).toMatchObject({ roles: [], permissions: [] });
    expect((await client.get("/api/admin/audit")).status).toBe(403);

    await admin.request("PUT", `/api/users/${user.row.id}/roles`, { json: { roleIds: [readers.body.id, viewers.body.id] } });
    expect(await session()).toMatchObject({ roles: ["log-viewers", "trail-readers"], permissions: ["audit.read", "logs.read"] });
    expect((await client.get("/api/admin/audit")).status).toBe(200);

    await admin.request("PUT", `/api/roles/${readers.body.id}`, { json: { isActive: false } });
    expect(await session()).toMatchObject({ roles: ["log-viewers"], permissions: ["logs.read"] });
    expect((await client.get("/api/admin/audit")).status).toBe(403);

    await admin.request("PUT", `/api/roles/${viewers.body.id}`, { json: { permissions: [] } });
    expect(await session()).toMatchObject({ roles: ["log-viewers"], permissions: [] });
  });

  it("deleting a role removes it from its users", async () => {
    const role = await admin.post("/api/roles", { name: "temporary", permissions: ["logs.read"] });
    const { user } = await signedInAs(t, []);
    await admin.request("PUT", `/api/users/${user.row.id}/roles`, { json: { roleIds: [role.body.id] } });
    await admin.request("DELETE", `/api/roles/${role.body.id}`);
    expect((await admin.get(`/api/users/${user.row.id}/roles`)).body).toEqual([]);
  });

  it("built-in roles cannot be edited or deleted: 409", async () => {
    for (const name of ["admin", "operator", "viewer"]) {
      const id = await builtinId(name);
      expect((await admin.request("PUT", `/api/roles/${id}`, { json: { permissions: [] } })).status).toBe(409);
      expect((await admin.request("DELETE", `/api/roles/${id}`)).status).toBe(409);
    }
  });

  it("a duplicate name (any case), a built-in's name included: 409 with a field message", async () => {
    await admin.post("/api/roles", { name: "support" });
    const dup = await admin.post("/api/roles", { name: "SUPPORT" });
    expect(dup.status).toBe(409);
    expect(dup.body.error.fields).toEqual({ name: "A role with this name already exists" });
    expect((await admin.post("/api/roles", { name: "Admin" })).status).toBe(409);
  });

  it("unknown permissions: 400 naming them, nothing created", async () => {
    const res = await admin.post("/api/roles", { name: "weird", permissions: ["users.read", "nuclear.launch"] });
    expect(res.status).toBe(400);
    expect(res.body.error.fields.permissions).toContain("nuclear.launch");
    expect((await admin.get("/api/roles")).body.some((r: { name: string }) => r.name === "weird")).toBe(false);
  });

  it("bad names and unknown ids", async () => {
    expect((await admin.post("/api/roles", {})).body.error.fields).toEqual({ name: "Name is required" });
    expect((await admin.post("/api/roles", { name: "<script>" })).status).toBe(400);
    expect((await admin.request("PUT", `/api/roles/${randomUUID()}`, { json: { name: "x" } })).status).toBe(404);
    expect((await admin.request("DELETE", `/api/roles/${randomUUID()}`)).status).toBe(404);
  });

  it("the built-in roles are restored at every start", async () => {
    await t.container.repos.rolesRepo.setPermissions(await builtinId("viewer"), []);
    await t.container.services.roles.syncBuiltins();
    const viewer = (await admin.get("/api/roles")).body.find((r: { name: string }) => r.name === "viewer");
    expect(viewer.permissions.length).toBeGreaterThan(5);
  });
});
