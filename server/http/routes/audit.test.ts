import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildUser, signedInAs } from "../../test/factories";
import type { TestClient } from "../../test/http-client";
import { startTestApp, type TestApp } from "../../test/test-app";

interface AuditEvent {
  action: string;
  outcome: string;
  actorUsername: string | null;
  targetId: string | null;
  ipAddress: string | null;
  details: Record<string, any> | null;
}

describe("audit trail", () => {
  let t: TestApp;
  let admin: TestClient;
  const events = async (query = "") => (await admin.get(`/api/admin/audit${query}`)).body.events as AuditEvent[];

  beforeAll(async () => {
    t = await startTestApp();
    admin = (await signedInAs(t, ["admin"], { username: "auditor" })).client;
  });
  afterAll(() => t.close());

  it("records sign-in attempts, successful and failed, with IP and the username of a real account only", async () => {
    await t.client().post("/api/login", { username: "auditor", password: "wrong" });
    await t.client().post("/api/login", { username: "ghost", password: "wrong" });
    const logins = await events("?action=auth.login");
    expect(logins).toContainEqual(
      expect.objectContaining({
        action: "auth.login",
        outcome: "failure",
        actorUsername: "auditor",
        ipAddress: expect.any(String),
        details: { reason: "wrong_password" },
      }),
    );
    // A name that matches no account is never stored in clear (it may be a password typed in the wrong field).
    expect(logins).toContainEqual(
      expect.objectContaining({
        outcome: "failure",
        actorUsername: null,
        details: { reason: "unknown_user", usernameDigest: expect.stringMatching(/^[0-9a-f]{16}$/) },
      }),
    );
    expect(JSON.stringify(logins)).not.toContain("ghost");
    expect(t.logLines.join("\n")).not.toContain("ghost");
    expect(logins).toContainEqual(expect.objectContaining({ outcome: "success", actorUsername: "auditor" }));
  });

  it("records user changes with who, before and after, and never a password", async () => {
    const created = await admin.post("/api/users", {
      email: "vera@example.com",
      username: "vera",
      password: "vera-secret-pw",
      isActive: true,
    });
    await admin.request("PUT", `/api/users/${created.body.id}`, { json: { firstName: "Vera", password: "another-secret-pw" } });
    await admin.request("PUT", `/api/users/${created.body.id}`, { json: { isActive: false } });
    const trail = await events(`?targetId=${created.body.id}`);
    expect(trail.map((e) => e.action)).toEqual(["user.status_changed", "user.updated", "user.created"]);
    expect(trail.every((e) => e.actorUsername === "auditor")).toBe(true);
    expect(trail[1]!.details).toMatchObject({ before: { firstName: null }, after: { firstName: "Vera" }, passwordChanged: true });
    const raw = JSON.stringify(await events());
    expect(raw).not.toContain("vera-secret-pw");
    expect(raw).not.toContain("another-secret-pw");
    expect(raw).not.toContain("argon2");
  });

  it("records role assignments and role edits", async () => {
    const { row } = await buildUser(t.container);
    const roles = (await admin.get("/api/roles")).body as { id: string; name: string }[];
    await admin.request("PUT", `/api/users/${row.id}/roles`, { json: { roleIds: [roles.find((r) => r.name === "viewer")!.id] } });
    const [assigned] = await events(`?action=user.roles_changed&targetId=${row.id}`);
    expect(assigned!.details).toEqual({ before: [], after: ["viewer"] });

    const role = await admin.post("/api/roles", { name: "scribes", permissions: ["logs.read"] });
    await admin.request("DELETE", `/api/roles/${role.body.id}`);
    const roleTrail = await events(`?targetId=${role.body.id}`);
    expect(roleTrail.map((e) => e.action)).toEqual(["role.deleted", "role.created"]);
  });

  it("a refused change leaves no event", async () => {
    const { user: me } = await signedInAs(t, ["admin"]);
    const before = (await events(`?targetId=${me.row.id}`)).length;
    await admin.request("PUT", `/api/users/${me.row.id}/roles`, { json: { roleIds: ["00000000-0000-4000-8000-000000000000"] } });
    expect((await events(`?targetId=${me.row.id}`)).length).toBe(before);
  });

  it("pages with a cursor, without skipping or repeating events", async () => {
    const all = (await admin.get("/api/admin/audit?limit=500")).body.events as { id: string }[];
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { events: { id: string }[]; nextCursor: string | null } } = await admin.get(
        `/api/admin/audit?limit=3${cursor ? `&cursor=${cursor}` : ""}`,
      );
      seen.push(...page.body.events.map((e) => e.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.map((e) => e.id));
  });

  it("a forged cursor, an edited one, another filter's, or an old unsealed one: 400 naming the cursor", async () => {
    const first: { body: { nextCursor: string | null } } = await admin.get("/api/admin/audit?limit=1");
    const cursor = first.body.nextCursor!;
    const [body, tag] = cursor.split(".");
    const edited = `${body!.slice(0, -1)}${body!.endsWith("A") ? "B" : "A"}.${tag}`;
    const unsealed = Buffer.from(`${new Date().toISOString()}|00000000-0000-4000-8000-000000000000`).toString("base64url");
    expect((await admin.get(`/api/admin/audit?limit=1&cursor=${cursor}`)).status).toBe(200);
    for (const query of ["cursor=not-a-cursor", `cursor=${edited}`, `action=user.created&cursor=${cursor}`, `cursor=${unsealed}`]) {
      const res = await admin.get(`/api/admin/audit?limit=1&${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.fields.cursor, query).toBeDefined();
    }
  });

  it("bad filters: 400 with field messages", async () => {
    const res = await admin.get("/api/admin/audit?limit=0&actorId=nope&from=yesterday");
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.fields).sort()).toEqual(["actorId", "from", "limit"]);
  });

  it("is for administrators only", async () => {
    const { client: operator } = await signedInAs(t, ["operator"]);
    expect((await operator.get("/api/admin/audit")).status).toBe(403);
  });
});
