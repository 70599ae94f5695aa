import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILTIN_ROLES, type BuiltinRoleName } from "../../contract/permissions";
import { accessLabel, AUTHZ_MATRIX, discoverApiRoutes } from "../test/authz-matrix";
import { signedInAs } from "../test/factories";
import type { TestClient } from "../test/http-client";
import { startTestApp, type TestApp } from "../test/test-app";

/**
 * The authorization matrix (D3): every /api route, as anonymous and as each built-in role. A
 * route's path parameters get a random UUID and its body is empty, so an allowed call ends in
 * 2xx/400/404/409: what matters here is only whether it got past the guard.
 */
describe("authorization matrix", () => {
  let t: TestApp;
  const clients = {} as Record<BuiltinRoleName, TestClient>;

  beforeAll(async () => {
    t = await startTestApp();
    it.each(bearerCases)("%s wants a bearer token: 401 with the protected resource metadata, for anonymous and cookie callers alike", async (key) => {
    for (const client of [t.client(), ...Object.values(clients)]) {
      const res = await call(client, key);
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer .*resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource"/);
    }
  });

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
});
