import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILTIN_ROLES, type BuiltinRoleName } from "../../contract/permissions";
import { accessLabel, AUTHZ_MATRIX, discoverApiRoutes } from "../test/authz-matrix";
import { signedInAs } from "../test/factories";
import type { TestClient } from "../test/http-client";
import { startTestApp, type TestApp } from "../test/test-app";
import { rowDiff, tableSnapshot } from "../test/fuzz";

/**
 * The authorization matrix (docs/decisions.md#roles-and-permissions): every /api route, as
 * anonymous and as each built-in role. A route's path parameters get a random UUID and its body is
 * empty, so an allowed call ends in 2xx/400/404/409: what matters here is only whether it got past
 * the guard.
 */
describe("authorization matrix", () => {
  let t: TestApp;
  const clients = {} as Record<BuiltinRoleName, TestClient>;

  beforeAll(async () => {
    t = await startTestApp();
    for (const role of Object.keys(BUILTIN_ROLES) as BuiltinRoleName[]) {
      clients[role] = (await signedInAs(t, [role])).client;
    }
  });
  afterAll(() => t.close());

  it("declares every route the app has, with the guard the route really uses", () => {
    const routes = discoverApiRoutes(t.app);
    expect(routes.map((r) => r.key).sort()).toEqual(Object.keys(AUTHZ_MATRIX).sort());
    for (const route of routes) expect(`${route.key} → ${accessLabel(route.access)}`).toBe(`${route.key} → ${AUTHZ_MATRIX[route.key]}`);
  });

  const cases = Object.entries(AUTHZ_MATRIX).filter(([, rule]) => rule !== "public" && !rule.startsWith("bearer:"));
  const bearerCases = Object.entries(AUTHZ_MATRIX).filter(([, rule]) => rule.startsWith("bearer:"));
  const call = (client: TestClient, key: string) => {
    const [method, path] = key.split(" ") as [string, string];
    return client.request(method, path.replace(/:\w+/g, randomUUID()), method === "GET" ? {} : { json: {} });
  };

  // A test declared inside a hook never runs; these once were (eslint now refuses it).
  it.each(bearerCases)(
    "%s wants a bearer token: 401 with the protected resource metadata, for anonymous and cookie callers alike",
    async (key) => {
      for (const client of [t.client(), ...Object.values(clients)]) {
        const res = await call(client, key);
        expect(res.status).toBe(401);
        expect(res.headers.get("www-authenticate")).toMatch(
          /^Bearer .*scope="read".*resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource(\/[\w/]+)?"/,
        );
      }
    },
  );

  it.each(cases)("%s refuses anonymous callers with 401", async (key) => {
    const res = await call(t.client(), key);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("unauthenticated");
  });

  for (const role of Object.keys(BUILTIN_ROLES) as BuiltinRoleName[]) {
    it.each(cases)(`%s as ${role}`, async (key, rule) => {
      const allowed = rule === "session" || (BUILTIN_ROLES[role].permissions as string[]).includes(rule);
      const res = await call(clients[role], key);
      if (allowed) {
        expect([401, 403]).not.toContain(res.status);
        expect(res.status).toBeLessThan(500);
      } else {
        expect(res.status).toBe(403);
        expect(res.body.error.code).toBe("forbidden");
      }
    });
  }

  /**
   * "Refused, and nothing changed": every write a role may not make, aimed at real rows with a
   * plausible body (a new password for the admin, every permission for a role ...), leaves every
   * table as it was (the audit trail and sessions aside, which record the attempt).
   */
  describe("a refused write changes nothing", () => {
    const ids = {} as Record<"user" | "role" | "clientId" | "aiProvider", string>;
    beforeAll(async () => {
      const admin = clients.admin;
      ids.user = (
        await admin.post("/api/users", { username: "matrix-target", email: "matrix-target@example.test", password: "matrix-password" })
      ).body.id;
      ids.role = (await admin.post("/api/roles", { name: "matrix-role", permissions: ["stats.read"] })).body.id;
      ids.clientId = (
        await admin.post("/api/admin/oauth-clients", { name: "matrix", redirectUris: ["https://app.example.com/cb"], scopes: ["read"] })
      ).body.clientId;
      ids.aiProvider = (
        await admin.post("/api/ai-providers", { name: "matrix", provider: "openai", model: "gpt-4o", apiKey: "sk-matrix-key-0001" })
      ).body.id;
    });
    const bodies: Record<string, unknown> = {
      "POST /api/users": { username: "intruder", email: "intruder@example.test", password: "intruder-pass" },
      "PUT /api/users/:id": { password: "taken-over-1", isActive: false },
      "PUT /api/users/:id/roles": { roleIds: [] },
      "POST /api/roles": { name: "intruders", permissions: ["users.write"] },
      "PUT /api/roles/:id": { permissions: ["users.write", "roles.write"] },
      "POST /api/admin/atlassian-config": { instanceUrl: "https://evil.example", email: "e@example.test", apiToken: "stolen-token" },
      "POST /api/admin/bitbucket-config": { workspace: "evil", username: "e", appPassword: "stolen" },
      "POST /api/admin/oauth-clients": { name: "intruder", redirectUris: ["https://evil.example/cb"], scopes: ["read", "write"] },
      "PATCH /api/admin/oauth-clients/:clientId": { isActive: false },
      "PUT /api/admin/oauth-clients/:clientId/policy": { readOnly: true, jiraProjects: ["EVIL"] },
      "POST /api/ai-providers": { name: "intruder", provider: "openai", model: "gpt-4o", apiKey: "sk-intruder-key" },
      "PATCH /api/ai-providers/:id": { provider: "openai-compatible", baseUrl: "https://evil.example/v1", isActive: false },
    };
    const writes = cases.filter(([key]) => !key.startsWith("GET ") && !key.startsWith("POST /api/oauth/requests"));

    for (const role of ["viewer", "operator"] as const) {
      it(`as ${role}`, async () => {
        const refused = writes.filter(([, rule]) => rule !== "session" && !(BUILTIN_ROLES[role].permissions as string[]).includes(rule));
        expect(refused.length).toBeGreaterThan(0);
        const snapshot = await tableSnapshot(t.container.database, ["audit_events", "sessions", "request_logs", "request_log_minutes"]);
        const before = await snapshot();
        for (const [key] of refused) {
          const [method, path] = key.split(" ") as [string, string];
          const url = path
            .replace(":clientId", ids.clientId)
            .replace(/\/roles\/:id/, `/roles/${ids.role}`)
            .replace(/\/ai-providers\/:id/, `/ai-providers/${ids.aiProvider}`)
            .replace(":id", ids.user);
          const res = await clients[role].request(method, url, method === "DELETE" ? {} : { json: bodies[key] ?? {} });
          expect(res.status, key).toBe(403);
        }
        expect(rowDiff(before, await snapshot())).toEqual({ gone: [], added: [] });
      });
    }
  });
});
