import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildUser, signedInAs, signIn, type BuiltUser } from "../../test/factories";
import type { TestClient } from "../../test/http-client";
import { startTestApp, type TestApp } from "../../test/test-app";

describe("users API: the last administrator", () => {
  let t: TestApp;
  let only: BuiltUser;
  let onlyClient: TestClient;

  beforeEach(async () => {
    t = await startTestApp();
    ({ user: only, client: onlyClient } = await signedInAs(t, ["admin"], { username: "solo" }));
  });
  afterEach(() => t.close());

  const adminRoleId = async () =>
    ((await onlyClient.get("/api/roles")).body as { id: string; name: string }[]).find((r) => r.name === "admin")!.id;

  it("cannot be deactivated: 409, still active", async () => {
    const res = await onlyClient.request("PUT", `/api/users/${only.row.id}`, { json: { isActive: false } });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe("At least one active administrator is required");
    expect((await onlyClient.get("/api/session")).status).toBe(200);
  });

  it("cannot lose the admin role: 409, role kept", async () => {
    const res = await onlyClient.request("PUT", `/api/users/${only.row.id}/roles`, { json: { roleIds: [] } });
    expect(res.status).toBe(409);
    expect((await onlyClient.get(`/api/users/${only.row.id}/roles`)).body.map((r: { name: string }) => r.name)).toEqual(["admin"]);
  });

  it("cannot delete themselves", async () => {
    const self = await onlyClient.request("DELETE", `/api/users/${only.row.id}`);
    expect(self.status).toBe(409);
    expect(self.body.error.message).toBe("You cannot delete your own account");
  });

  it("with a second active admin, either may be deactivated, but not both", async () => {
    const second = await buildUser(t.container, { roles: ["admin"] });
    expect((await onlyClient.request("PUT", `/api/users/${second.row.id}`, { json: { isActive: false } })).status).toBe(200);
    const secondClient = t.client();
    expect((await secondClient.post("/api/login", { username: second.row.username, password: second.password })).status).toBe(403);
    expect((await onlyClient.request("PUT", `/api/users/${only.row.id}`, { json: { isActive: false } })).status).toBe(409);
  });

  it("an inactive admin does not count: deleting the last active one is refused", async () => {
    const other = await buildUser(t.container, { roles: ["admin"] });
    const otherClient = t.client();
    await signIn(otherClient, other);
    await buildUser(t.container, { roles: ["admin"], isActive: false });
    // `other` deletes `solo`: fine, `other` remains.
    expect((await otherClient.request("DELETE", `/api/users/${only.row.id}`)).status).toBe(204);
    // and `other` cannot strip its own admin role now.
    const res = await otherClient.request("PUT", `/api/users/${other.row.id}/roles`, { json: { roleIds: [] } });
    expect(res.status).toBe(409);
  });

  it("someone who may manage users but is no admin cannot delete or deactivate the last one (nor any administrator)", async () => {
    const role = await onlyClient.post("/api/roles", { name: "user-managers", permissions: ["users.read", "users.write"] });
    const manager = await buildUser(t.container);
    await onlyClient.request("PUT", `/api/users/${manager.row.id}/roles`, { json: { roleIds: [role.body.id] } });
    const managerClient = t.client();
    await signIn(managerClient, manager);
    const del = await managerClient.request("DELETE", `/api/users/${only.row.id}`);
    // Refused before the last-administrator rule is even reached: the target holds more than the manager.
    expect(del.status).toBe(403);
    expect(del.body.error.message).toMatch(/^You cannot change a user who holds permissions you lack/);
    expect((await managerClient.request("PUT", `/api/users/${only.row.id}`, { json: { isActive: false } })).status).toBe(403);
    expect(await t.container.repos.usersRepo.findById(only.row.id)).toMatchObject({ isActive: true });
  });

  it("assigning roles that include admin keeps the rule satisfied", async () => {
    const res = await onlyClient.request("PUT", `/api/users/${only.row.id}/roles`, { json: { roleIds: [await adminRoleId()] } });
    expect(res.status).toBe(200);
  });
});

describe("users API: who may do what", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it("a viewer can read users but every write is 403 and changes nothing", async () => {
    const { client: viewer } = await signedInAs(t, ["viewer"]);
    const target = await buildUser(t.container, { username: "target" });
    expect((await viewer.get("/api/users")).status).toBe(200);
    const attempts = [
      viewer.post("/api/users", { email: "x@example.com", username: "sneaky", password: "secret1" }),
      viewer.request("PUT", `/api/users/${target.row.id}`, { json: { isActive: false } }),
      viewer.request("DELETE", `/api/users/${target.row.id}`),
      viewer.request("PUT", `/api/users/${target.row.id}/roles`, { json: { roleIds: [] } }),
      viewer.post("/api/roles", { name: "sneaky" }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("forbidden");
    }
    expect((await t.container.repos.usersRepo.findById(target.row.id))?.isActive).toBe(true);
    expect(await t.container.repos.usersRepo.findByUsername("sneaky")).toBeUndefined();
  });

  it("an operator reads users but cannot manage them", async () => {
    const { client: operator } = await signedInAs(t, ["operator"]);
    expect((await operator.get("/api/users")).status).toBe(200);
    expect((await operator.post("/api/users", { email: "y@example.com", username: "opuser", password: "secret1" })).status).toBe(403);
  });

  it("a user with no role can only see their own session", async () => {
    const { client } = await signedInAs(t, []);
    expect((await client.get("/api/session")).status).toBe(200);
    expect((await client.get("/api/users")).status).toBe(403);
    expect((await client.get("/api/roles")).status).toBe(403);
  });

  it("a role that is made inactive stops granting its permissions", async () => {
    const { client: admin } = await signedInAs(t, ["admin"]);
    const role = await admin.post("/api/roles", { name: "readers", permissions: ["users.read"] });
    expect(role.status).toBe(201);
    const { user: uma, client: umaClient } = await signedInAs(t, []);
    await admin.request("PUT", `/api/users/${uma.row.id}/roles`, { json: { roleIds: [role.body.id] } });
    expect((await umaClient.get("/api/users")).status).toBe(200);
    await admin.request("PUT", `/api/roles/${role.body.id}`, { json: { isActive: false } });
    expect((await umaClient.get("/api/users")).status).toBe(403);
  });
});
