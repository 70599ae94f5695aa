import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../../sandbox/server";
import { signedInAs } from "../../test/factories";
import { basicAuth, formPost } from "../../test/oauth";
import { startTestApp, type TestApp } from "../../test/test-app";

/**
 * The read-only pass-through (docs/decisions.md#read-only-proxy) with a bearer token
 * (#bearer-tokens-and-scopes), against the sandbox: what passes, how upstream failures come back,
 * the per-client API limit (#rate-limits), and paths that try to wander.
 */
describe("proxy paths", () => {
  let sandbox: Sandbox;
  let t: TestApp;
  let token: string;
  let makeToken: () => Promise<string>;

  beforeAll(async () => {
    sandbox = await startSandbox();
    t = await startTestApp({
      config: {
        BITBUCKET_API_URL: `${sandbox.url}/2.0`,
        RATE_LIMIT_OAUTH_REQUESTS: 1000,
        RATE_LIMIT_API_PER_MINUTE: 30,
        RATE_LIMIT_API_BURST: 5,
        upstream: { maxAttempts: 1, breaker: { consecutiveFailures: 3, halfOpenAfterMs: 60_000 } },
      },
    });
    const admin = (await signedInAs(t, ["admin"])).client;
    await admin.post("/api/admin/atlassian-config", {
      instanceUrl: sandbox.url,
      email: "demo@bridgekeeper.test",
      apiToken: "sandbox-api-token",
      isActive: true,
    });
    await admin.post("/api/admin/bitbucket-config", {
      workspace: "bridgekeeper",
      username: "demo",
      appPassword: "sandbox-app-password",
      isActive: true,
    });
    makeToken = async () => {
      const client = (
        await admin.post("/api/admin/oauth-clients", {
          name: "proxy",
          redirectUris: ["https://app.example.com/cb"],
          scopes: ["read"],
          isActive: true,
        })
      ).body;
      return (
        await formPost(
          `${t.baseUrl}/oauth/token`,
          { grant_type: "client_credentials" },
          { authorization: basicAuth(client.clientId, client.clientSecret) },
        )
      ).body.access_token;
    };
    token = await makeToken();
  });
  afterAll(async () => {
    await t.close();
    await sandbox.close();
  });
  const get = (path: string, bearer = token) => fetch(`${t.baseUrl}${path}`, { headers: { authorization: `Bearer ${bearer}` } });

  it("passes GETs through to Jira, Confluence and Bitbucket with the query, as JSON", async () => {
    const issue = await get("/api/atlassian/jira/rest/api/3/issue/BK-1?fields=summary");
    expect(issue.status).toBe(200);
    expect(issue.headers.get("content-type")).toMatch(/^application\/json/);
    expect(((await issue.json()) as { key: string }).key).toBe("BK-1");
    expect(((await (await get("/api/atlassian/confluence/api/v2/spaces?limit=2")).json()) as { results: unknown[] }).results).toHaveLength(
      2,
    );
    expect(((await (await get("/api/bitbucket/repositories/bridgekeeper?pagelen=1")).json()) as { size: number }).size).toBe(30);
    expect(sandbox.requests().some((r) => r.path === "/wiki/api/v2/spaces")).toBe(true);
  });

  it("an upstream 404 is a 404; text such as a diff comes back as plain text, never as HTML", async () => {
    expect((await get("/api/atlassian/jira/rest/api/3/issue/NOPE-1")).status).toBe(404);
    const prs = (await (await get("/api/bitbucket/repositories/bridgekeeper/api-gateway/pullrequests?state=OPEN")).json()) as {
      values: { id: number }[];
    };
    const diff = await get(`/api/bitbucket/repositories/bridgekeeper/api-gateway/pullrequests/${prs.values[0]!.id}/diff`);
    expect(diff.status).toBe(200);
    expect(diff.headers.get("content-type")).toMatch(/^text\/plain/);
  });

  /** A request with the path exactly as written (fetch would resolve the dot segments itself). */
  const rawGet = (path: string) =>
    new Promise<number>((resolve, reject) => {
      const url = new URL(t.baseUrl);
      request({ host: url.hostname, port: url.port, path, headers: { authorization: `Bearer ${token}` } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
        .on("error", reject)
        .end();
    });

  it.each([
    "/api/atlassian/jira/rest/../../wiki/rest/api/space",
    "/api/atlassian/jira/rest/%2e%2e/x",
    "/api/bitbucket/./user",
    "/api/atlassian/jira/../confluence/rest/api/space",
  ])("refuses dot segments: %s", async (path) => {
    expect(await rawGet(path)).toBe(400);
  });

  it("an upstream that keeps failing opens the circuit: 503 with Retry-After, without calling it", async () => {
    const fresh = await makeToken();
    sandbox.faults.add({ path: "/2.0/workspaces", status: 500 });
    for (let i = 0; i < 3; i++) expect((await get("/api/bitbucket/workspaces/bridgekeeper", fresh)).status).toBe(502);
    sandbox.clearRequests();
    const open = await get("/api/bitbucket/workspaces/bridgekeeper", fresh);
    expect(open.status).toBe(503);
    expect(open.headers.get("retry-after")).toBe("60");
    expect(sandbox.requests()).toHaveLength(0);
    sandbox.faults.clear();
  });

  it("each client gets its requests a minute plus a burst, then 429 with Retry-After", async () => {
    const fresh = await makeToken();
    const statuses: number[] = [];
    // Jira: the Bitbucket circuit was opened on purpose above.
    for (let i = 0; i < 35; i++) statuses.push((await get("/api/atlassian/jira/rest/api/3/myself", fresh)).status);
    expect(statuses).toEqual(Array(35).fill(200));
    const limited = await get("/api/atlassian/jira/rest/api/3/myself", fresh);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // The house error body, with the request id (a rate limit is not a bearer challenge).
    const body = (await limited.json()) as { error: { code: string; message: string }; requestId: string };
    expect(body).toEqual({
      error: { code: "rate_limited", message: expect.stringMatching(/^More than 30 requests a minute/) },
      requestId: limited.headers.get("x-request-id"),
    });
    // another client is not affected
    expect((await get("/api/atlassian/jira/rest/api/3/myself", await makeToken())).status).toBe(200);
  });
});

describe("OAuth endpoints for browser-based clients", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ config: { RATE_LIMIT_OAUTH_REQUESTS: 2 } });
  });
  afterAll(() => t.close());

  it("a CORS preflight to /oauth/token and /oauth/revoke is answered before authentication and costs no rate budget", async () => {
    for (let i = 0; i < 5; i++) {
      for (const path of ["/oauth/token", "/oauth/revoke"]) {
        const res = await fetch(`${t.baseUrl}${path}`, {
          method: "OPTIONS",
          headers: {
            origin: "https://inspector.example",
            "access-control-request-method": "POST",
            "access-control-request-headers": "authorization,content-type",
          },
        });
        expect(res.status).toBe(204);
        expect(res.headers.get("access-control-allow-origin")).toBe("*");
        expect(res.headers.get("access-control-allow-headers")).toMatch(/Authorization/);
      }
    }
    const error = await formPost(
      `${t.baseUrl}/oauth/token`,
      { grant_type: "client_credentials", client_id: "bk_nobody", client_secret: "x" },
      { origin: "https://inspector.example" },
    );
    expect(error.status).toBe(401);
    expect(error.headers.get("access-control-allow-origin")).toBe("*");
  });
});
