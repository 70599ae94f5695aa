import { randomUUID } from "node:crypto";
import { validate } from "@readme/openapi-parser";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessLabel, discoverApiRoutes } from "../test/authz-matrix";
import { signedInAs } from "../test/factories";
import { basicAuth, formPost } from "../test/oauth";
import type { TestClient, TestResponse } from "../test/http-client";
import { startTestApp, type TestApp } from "../test/test-app";
import { openApiPath } from "./openapi/openapi-document";

// @pglite-only: the document and the routes do not depend on the database engine.

interface Operation {
  security: Record<string, string[]>[];
  "x-permission"?: string;
  parameters?: { in: string; name: string; required?: boolean }[];
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}
interface Document {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
}

/** The guard a documented operation names, in the authorization matrix's words. */
const documentedAccess = (op: Operation): string => {
  if (op.security.length === 0) return "public";
  const [scheme, scopes] = Object.entries(op.security[0]!)[0]!;
  if (scheme === "oauth2") return `bearer:${scopes.join(" ")}`;
  return op["x-permission"] ?? "session";
};

/** GET /api/openapi.json: generated from the route table and contract/ (server/http/openapi/). */
describe("the OpenAPI document of /api", () => {
  let t: TestApp;
  let admin: TestClient;
  let viewer: TestClient;
  let doc: Document;

  beforeAll(async () => {
    t = await startTestApp();
    admin = (await signedInAs(t, ["admin"])).client;
    viewer = (await signedInAs(t, ["viewer"])).client;
    doc = (await viewer.get<Document>("/api/openapi.json")).body;
  });
  afterAll(() => t.close());

  it("is for signed-in users: anonymous callers get 401, a viewer gets it", async () => {
    const anonymous = await t.client().get("/api/openapi.json");
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe("unauthenticated");
    const res = await viewer.get("/api/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("is a valid OpenAPI 3.1 document", async () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info).toMatchObject({ title: expect.any(String), version: "0.0.0-test" });
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(["oauth2", "session"]);
    expect(doc.components.schemas).toHaveProperty("ErrorBody");
    // A deep copy: the parser resolves references in place.
    const result = await validate(structuredClone(doc) as never);
    expect(result).toMatchObject({ valid: true, specification: "OpenAPI" });
    expect(result.warnings).toEqual([]);
  });

  it("documents every live /api route, and every documented route exists", () => {
    const live = discoverApiRoutes(t.app).filter((r) => r.path.startsWith("/api/"));
    const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(live.length).toBeGreaterThan(50);
    expect(documented.sort()).toEqual(live.map((r) => `${r.method} ${openApiPath(r.path)}`).sort());
  });

  it("names for each route the guard the route really uses", () => {
    for (const route of discoverApiRoutes(t.app).filter((r) => r.path.startsWith("/api/"))) {
      const op = doc.paths[openApiPath(route.path)]?.[route.method.toLowerCase()];
      expect(`${route.key} → ${op ? documentedAccess(op) : "undocumented"}`).toBe(`${route.key} → ${accessLabel(route.access)}`);
    }
  });

  it("gives every operation its path parameters, its error body and a unique id", () => {
    const ids = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths)) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const [method, op] of Object.entries(item)) {
        expect(op.parameters?.filter((p) => p.in === "path" && p.required).map((p) => p.name) ?? [], `${method} ${path}`).toEqual(names);
        const errorBody = path === "/api/mcp/protocol" ? "JsonRpcError" : "ErrorBody";
        expect(op.responses.default?.content?.["application/json"]?.schema, `${method} ${path}`).toEqual({
          $ref: `#/components/schemas/${errorBody}`,
        });
        const id = (op as { operationId?: string }).operationId!;
        expect(ids.has(id), id).toBe(false);
        ids.add(id);
      }
    }
  });

  /**
   * What the routes really answer matches the document: the status is documented, the media type
   * is one the document names, and a JSON body validates against the documented schema (objects
   * closed: a field the document does not state fails).
   */
  describe("the live answers match it", () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    const ids: Record<string, string> = {};

    const conforms = (method: string, path: string, res: TestResponse) => {
      const op = doc.paths[path]?.[method.toLowerCase()];
      expect(op, `${method} ${path} is documented`).toBeDefined();
      const status = String(res.status);
      // A status the document does not name is only acceptable as a 5xx, under `default`.
      const key = op!.responses[status] ? status : res.status >= 500 ? "default" : undefined;
      expect(key, `${method} ${path} documents ${status}`).toBeDefined();
      const response = op!.responses[key!]!;
      const type = res.headers.get("content-type")?.split(";")[0]?.trim();
      if (!type) {
        expect(response.content, `${method} ${path} ${status} has no body`).toBeUndefined();
        return;
      }
      expect(Object.keys(response.content ?? {}), `${method} ${path} ${status}`).toContain(type);
      if (type !== "application/json") return;
      const pointer = ["paths", path, method.toLowerCase(), "responses", key!, "content", type, "schema"]
        .map((s) => s.replace(/~/g, "~0").replace(/\//g, "~1"))
        .join("/");
      const check = ajv.getSchema(`openapi.json#/${pointer}`)!;
      const valid = check(res.body);
      expect(valid ? [] : check.errors, `${method} ${path} ${status}: ${res.text.slice(0, 300)}`).toEqual([]);
    };

    beforeAll(async () => {
      ajv.addSchema(doc, "openapi.json");
      const user = await admin.post("/api/users", { username: "openapi-user", email: "openapi@example.test", password: "openapi-pass" });
      conforms("POST", "/api/users", user);
      ids.user = user.body.id;
      const role = await admin.post("/api/roles", { name: "openapi-role", permissions: ["stats.read"] });
      conforms("POST", "/api/roles", role);
      const client = await admin.post("/api/admin/oauth-clients", {
        name: "OpenAPI",
        redirectUris: ["https://app.example.com/cb"],
        scopes: ["read"],
      });
      conforms("POST", "/api/admin/oauth-clients", client);
      ids.client = client.body.clientId;
      ids.secret = client.body.clientSecret;
      const provider = await admin.post("/api/ai-providers", {
        name: "OpenAPI",
        provider: "openai",
        model: "gpt-4o",
        apiKey: "sk-openapi-0001",
      });
      conforms("POST", "/api/ai-providers", provider);
      conforms(
        "PUT",
        "/api/admin/oauth-clients/{clientId}/policy",
        await admin.put(`/api/admin/oauth-clients/${ids.client}/policy`, { jiraProjects: ["bk"] }),
      );
      conforms("POST", "/api/users", await admin.post("/api/users", { username: "x" }));
      ids.log = ((await admin.get<{ id: string }[]>("/api/admin/logs")).body[0]?.id ?? randomUUID()) as string;
    });

    /** A real id where one was made above; otherwise one that does not exist (its 404 is documented too). */
    const fill = (path: string) =>
      path
        .replace("/api/users/{id}", `/api/users/${ids.user}`)
        .replace("{clientId}", ids.client!)
        .replace("/api/admin/logs/{id}", `/api/admin/logs/${ids.log}`)
        .replace("{path}", "rest/api/3/myself")
        .replace(/\{\w+\}/g, randomUUID());

    it("for every GET, as an administrator", async () => {
      const gets = Object.entries(doc.paths).filter(([, item]) => item.get);
      let answered = 0;
      for (const [path] of gets) {
        const res = await admin.get(fill(path));
        conforms("GET", path, res);
        if (res.status === 200) answered++;
      }
      // Most answer with data (the bearer routes refuse a cookie; the made-up ids are 404s): not a run of refusals.
      expect(answered).toBeGreaterThan(30);
    });

    it("for the bearer routes, with an access token", async () => {
      const token = (
        await formPost(
          `${t.baseUrl}/oauth/token`,
          { grant_type: "client_credentials", scope: "read" },
          { authorization: basicAuth(ids.client!, ids.secret!) },
        )
      ).body.access_token as string;
      const bearer = { authorization: `Bearer ${token}` };
      // The client's policy (set above) limits it to a Jira project: the raw proxy refuses it.
      const refused = await t.client().get("/api/atlassian/jira/rest/api/3/myself", bearer);
      expect(refused.status).toBe(403);
      conforms("GET", "/api/atlassian/jira/{path}", refused);
      const rpc = async (body: string, status: number, headers: Record<string, string> = {}) => {
        const res = await t.client().request("POST", "/api/mcp/protocol", {
          body,
          headers: {
            ...bearer,
            accept: "application/json, text/event-stream",
            "content-type": "application/json",
            "mcp-protocol-version": "2025-06-18",
            ...headers,
          },
        });
        expect(res.status, res.text.slice(0, 200)).toBe(status);
        conforms("POST", "/api/mcp/protocol", res);
      };
      await rpc(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }), 200);
      await rpc("{not json", 400);
      await rpc("x", 415, { "content-type": "text/plain" });
    });

    it("for refusals: anonymous, a viewer's write, a cross-site write, bad input, an unknown id", async () => {
      const refusals: [string, string, TestResponse, number][] = [
        ["GET", "/api/users", await t.client().get("/api/users"), 401],
        ["POST", "/api/roles", await viewer.post("/api/roles", { name: "nope" }), 403],
        ["POST", "/api/roles", await admin.post("/api/roles", { name: "nope" }, { origin: "https://evil.example" }), 403],
        ["GET", "/api/admin/audit", await admin.get("/api/admin/audit?limit=0"), 400],
        ["DELETE", "/api/users/{id}", await admin.request("DELETE", `/api/users/${randomUUID()}`), 404],
      ];
      for (const [method, path, res, status] of refusals) {
        expect(res.status, `${method} ${path}`).toBe(status);
        conforms(method, path, res);
      }
    });
  });
});
