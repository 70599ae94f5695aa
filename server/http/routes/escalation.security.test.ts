import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildUser, signedInAs, signIn, type BuiltUser } from "../../test/factories";
import type { TestClient } from "../../test/http-client";
import { startTestApp, type TestApp } from "../../test/test-app";

/**
 * Issue 9, hole 2: a custom role holding roles.write could add any permission to itself and
 * assign itself admin; users.write could reset an administrator's password and sign in as them.
 * Each attempt is now 403 with a clear message, changes nothing, and is audited.
 */
describe("no permission escalation through roles and users", () => {
  let t: TestApp;
  let admin: TestClient;
  let adminUser: BuiltUser;
  let roleAdmin: TestClient;
  let userManager: TestClient;
  let userManagerUser: BuiltUser;
  const roleIds: Record<string, string> = {};

  const role = async (name: string, permissions: string[]) => {
    const res = await admin.post("/api/roles", { name, permissions });
    expect(res.status).toBe(201);
    roleIds[name] = res.body.id;
    return res.body.id as string;
  };
  const rolesByName = async () =>
    new Map(
      ((await admin.get("/api/roles")).body as { id: string; name: string; permissions: { resource: string; action: string }[] }[]).map(
        (r) => [r.name, r],
      ),
    );
  const denials = async (action: string) =>
    ((await admin.get(`/api/admin/audit?action=${action}`)).body.events as { outcome: string; details: { reason?: string } }[]).filter(
      (e) => e.outcome === "failure",
    );

  beforeAll(async () => {
    t = await startTestApp();
    ({ client: admin, user: adminUser } = await signedInAs(t, ["admin"]));
    await role("role-keeper", ["roles.read", "roles.write", "users.read"]);
    await role("user-keeper", ["users.read", "users.write", "roles.read"]);
    await role("audit-only", ["audit.read"]);
    await role("users-reader", ["users.read"]);
    ({ client: roleAdmin } = await signedInAs(t, ["role-keeper"]));
    ({ client: userManager, user: userManagerUser } = await signedInAs(t, ["user-keeper"]));
  });
  afterAll(() => t.close());

  describe("roles.write", () => {
    it("cannot add a permission to the role it holds", async () => {
      const res = await roleAdmin.request("PUT", `/api/roles/${roleIds["role-keeper"]}`, {
        json: { permissions: ["roles.read", "roles.write", "users.read", "users.write"] },
      });
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({ code: "forbidden", message: "You cannot change the role role-keeper: you hold it" });
      expect((await rolesByName()).get("role-keeper")!.permissions).toHaveLength(3);
      expect((await denials("role.updated")).at(0)?.details.reason).toBe("insufficient_privileges");
    });

    it("cannot create a role with a permission it lacks", async () => {
      const res = await roleAdmin.post("/api/roles", { name: "sneaky", permissions: ["roles.read", "audit.read"] });
      expect(res.status).toBe(403);
      expect(res.body.error.message).toBe("You can only grant permissions you hold; you lack audit.read");
      expect((await rolesByName()).has("sneaky")).toBe(false);
      expect(await denials("role.created")).toHaveLength(1);
    });

    it("cannot change or delete another role carrying permissions it lacks", async () => {
      const change = await roleAdmin.request("PUT", `/api/roles/${roleIds["audit-only"]}`, { json: { description: "mine now" } });
      expect(change.status).toBe(403);
      expect((await roleAdmin.request("DELETE", `/api/roles/${roleIds["audit-only"]}`)).status).toBe(403);
      expect((await rolesByName()).get("audit-only")).toMatchObject({ description: null });
    });

    it("still manages roles within what it holds", async () => {
      const created = await roleAdmin.post("/api/roles", { name: "readers", permissions: ["users.read"] });
      expect(created.status).toBe(201);
      expect(
        (await roleAdmin.request("PUT", `/api/roles/${created.body.id}`, { json: { permissions: ["users.read", "roles.read"] } })).status,
      ).toBe(200);
      expect((await roleAdmin.request("DELETE", `/api/roles/${created.body.id}`)).status).toBe(204);
    });
  });

  describe("users.write", () => {
    it("cannot assign itself admin, nor a role carrying permissions it lacks", async () => {
      const self = userManagerUser.row.id;
      const toAdmin = await userManager.request("PUT", `/api/users/${self}/roles`, {
        json: { roleIds: [roleIds["user-keeper"], (await rolesByName()).get("admin")!.id] },
      });
      expect(toAdmin.status).toBe(403);
      expect(toAdmin.body.error.message).toBe("Only an administrator can assign the admin role");
      const toAudit = await userManager.request("PUT", `/api/users/${self}/roles`, {
        json: { roleIds: [roleIds["user-keeper"], roleIds["audit-only"]] },
      });
      expect(toAudit.status).toBe(403);
      expect(toAudit.body.error.message).toMatch(
        /^You cannot assign the role audit-only: it carries permissions you lack \(audit\.read\)$/,
      );
      expect((await admin.get(`/api/users/${self}/roles`)).body.map((r: { name: string }) => r.name)).toEqual(["user-keeper"]);
      expect(await denials("user.roles_changed")).toHaveLength(2);
    });

    it("cannot reset an administrator's password, deactivate, strip or delete them", async () => {
      const target = adminUser.row.id;
      const attempts = [
        userManager.request("PUT", `/api/users/${target}`, { json: { password: "taken-over-123" } }),
        userManager.request("PUT", `/api/users/${target}`, { json: { isActive: false } }),
        userManager.request("PUT", `/api/users/${target}/roles`, { json: { roleIds: [] } }),
        userManager.request("DELETE", `/api/users/${target}`),
      ];
      for (const res of await Promise.all(attempts)) {
        expect(res.status).toBe(403);
        expect(res.body.error.message).toMatch(/^You cannot change a user who holds permissions you lack \(/);
      }
      // The administrator is untouched: same password, still active, still admin.
      await signIn(t.client(), adminUser);
      expect((await admin.get(`/api/users/${target}/roles`)).body.map((r: { name: string }) => r.name)).toEqual(["admin"]);
      expect(
        (await denials("user.updated")).length + (await denials("user.status_changed")).length + (await denials("user.deleted")).length,
      ).toBe(3);
    });

    it("still manages users who hold no more than it does, with roles within its own", async () => {
      const plain = await buildUser(t.container);
      expect((await userManager.request("PUT", `/api/users/${plain.row.id}`, { json: { password: "a-new-password" } })).status).toBe(200);
      expect(
        (await userManager.request("PUT", `/api/users/${plain.row.id}/roles`, { json: { roleIds: [roleIds["users-reader"]] } })).status,
      ).toBe(200);
      expect(
        (
          await userManager.request("PUT", `/api/users/${plain.row.id}/roles`, {
            json: { roleIds: [(await rolesByName()).get("operator")!.id] },
          })
        ).status,
      ).toBe(403);
    });

    it("an administrator may do all of it", async () => {
      const plain = await buildUser(t.container);
      expect(
        (await admin.request("PUT", `/api/users/${plain.row.id}/roles`, { json: { roleIds: [(await rolesByName()).get("admin")!.id] } }))
          .status,
      ).toBe(200);
      expect(
        (await admin.request("PUT", `/api/roles/${roleIds["audit-only"]}`, { json: { permissions: ["audit.read", "users.read"] } })).status,
      ).toBe(200);
    });
  });
});
