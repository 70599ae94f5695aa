import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEXT_MESSAGES } from "../../contract/text";
import { signedInAs } from "../test/factories";
import type { TestClient } from "../test/http-client";
import { basicAuth, formPost, pkce } from "../test/oauth";
import { startTestApp, type TestApp } from "../test/test-app";

const NUL = "\u0000";

/**
 * Issue 9, hole 6: a NUL byte (or any other C0 control) in a text field was a 500 with a stack in
 * the log on 19 routes. Every one now answers 400 (or OAuth invalid_request) and stores nothing.
 */
describe("control characters never reach the database", () => {
  let t: TestApp;
  let admin: TestClient;
  let userId: string;
  let roleId: string;
  let client: { clientId: string; clientSecret: string };

  beforeAll(async () => {
    t = await startTestApp({ config: { OAUTH_DYNAMIC_REGISTRATION: true, RATE_LIMIT_OAUTH_REQUESTS: 1000 } });
    admin = (await signedInAs(t, ["admin"])).client;
    userId = (await admin.post("/api/users", { username: "ctrl-user", email: "ctrl@example.test", password: "secret-pass" })).body.id;
    roleId = (await admin.post("/api/roles", { name: "ctrl-role", permissions: ["stats.read"] })).body.id;
    client = (
      await admin.post("/api/admin/oauth-clients", { name: "ctrl", redirectUris: ["https://app.example.com/cb"], scopes: ["read"] })
    ).body;
  });
  afterAll(() => t.close());

  const noErrorLogged = (from: number) => expect(t.logLines.slice(from).filter((l) => JSON.parse(l).level >= 50)).toEqual([]);

  const apiCases: [string, string, (c: string) => unknown][] = [
    ["POST", "/api/login", (c) => ({ username: `ad${c}min`, password: "x" })],
    ["POST", "/api/login", (c) => ({ username: "admin", password: `pass${c}word` })],
    ["POST", "/api/users", (c) => ({ username: `new${c}user`, email: "n@example.test", password: "secret-pass" })],
    ["POST", "/api/users", (c) => ({ username: "newuser2", email: "n2@example.test", password: "secret-pass", firstName: `A${c}` })],
    ["PUT", "/api/users/:user", (c) => ({ lastName: `B${c}` })],
    ["PUT", "/api/users/:user", (c) => ({ password: `new-pass${c}` })],
    ["POST", "/api/roles", (c) => ({ name: `role${c}`, permissions: [] })],
    ["POST", "/api/roles", (c) => ({ name: "role-desc", description: `d${c}`, permissions: [] })],
    ["POST", "/api/roles", (c) => ({ name: "role-perm", permissions: [`stats.read${c}`] })],
    ["PUT", "/api/roles/:role", (c) => ({ description: `x${c}` })],
    ["POST", "/api/admin/oauth-clients", (c) => ({ name: `c${c}`, redirectUris: ["https://a.example.com/cb"], scopes: ["read"] })],
    ["POST", "/api/admin/oauth-clients", (c) => ({ name: "c", redirectUris: [`https://a.example.com/cb${c}`], scopes: ["read"] })],
    [
      "POST",
      "/api/admin/atlassian-config",
      (c) => ({ instanceUrl: "https://acme.atlassian.net", email: `a${c}@example.test`, apiToken: "t" }),
    ],
    [
      "POST",
      "/api/admin/atlassian-config",
      (c) => ({ instanceUrl: "https://acme.atlassian.net", email: "a@example.test", apiToken: `t${c}` }),
    ],
    ["POST", "/api/admin/bitbucket-config", (c) => ({ workspace: `w${c}`, username: "u", appPassword: "p" })],
    ["POST", "/api/users", (c) => ({ [`extra${c}`]: 1, username: "keyed", email: "k@example.test", password: "secret-pass" })],
  ];

  it.each(["\u0000", "\u0001", "\u001b", "\u007f"])("JSON routes refuse %j with 400 naming the field, and log no error", async (c) => {
    for (const [method, path, body] of apiCases) {
      const from = t.logLines.length;
      const res = await admin.request(method, path.replace(":user", userId).replace(":role", roleId), { json: body(c) });
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.body.error.code).toBe("validation_failed");
      expect(Object.values(res.body.error.fields ?? {})).toContain(TEXT_MESSAGES.control);
      noErrorLogged(from);
    }
  });

  it("multi-line text keeps its line breaks and tabs; one-line fields refuse them", async () => {
    expect((await admin.request("PUT", `/api/roles/${roleId}`, { json: { description: "line one\n\tline two" } })).status).toBe(200);
    expect((await admin.request("PUT", `/api/users/${userId}`, { json: { firstName: "Ann\nBob" } })).status).toBe(400);
  });

  it("audit filters refuse control characters", async () => {
    const res = await admin.get(`/api/admin/audit?action=user.created${encodeURIComponent(NUL)}`);
    expect(res.status).toBe(400);
  });

  it("OAuth endpoints answer invalid_request for a control character, and never redirect it", async () => {
    const { challenge } = pkce();
    const from = t.logLines.length;
    const authorize = new URL(`${t.baseUrl}/oauth/authorize`);
    for (const [k, v] of Object.entries({
      response_type: "code",
      client_id: client.clientId,
      redirect_uri: "https://app.example.com/cb",
      code_challenge: challenge,
      code_challenge_method: "S256",
      state: `s${NUL}`,
    }))
      authorize.searchParams.set(k, v);
    const a = await fetch(authorize, { redirect: "manual" });
    expect(a.status).toBe(400);
    expect(await a.json()).toMatchObject({ error: "invalid_request" });

    const basic = { authorization: basicAuth(client.clientId, client.clientSecret) };
    const bad: Record<string, string>[] = [
      { grant_type: `client_credentials${NUL}` },
      { grant_type: "client_credentials", scope: `read${NUL}` },
      { grant_type: "refresh_token", refresh_token: `x${NUL}` },
    ];
    for (const fields of bad) {
      const res = await formPost(`${t.baseUrl}/oauth/token`, fields, basic);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("invalid_request");
    }
    expect(
      (
        await formPost(`${t.baseUrl}/oauth/token`, {
          grant_type: "client_credentials",
          client_id: `${client.clientId}${NUL}`,
          client_secret: client.clientSecret,
        })
      ).status,
    ).toBe(400);
    expect((await formPost(`${t.baseUrl}/oauth/revoke`, { token: `t${NUL}` }, basic)).status).toBe(400);

    const before = (await admin.get("/api/admin/oauth-clients")).body.length;
    for (const metadata of [
      { client_name: `n${NUL}`, redirect_uris: ["https://x.example.com/cb"] },
      { redirect_uris: [`https://x.example.com/cb${NUL}`] },
    ]) {
      const res = await fetch(`${t.baseUrl}/oauth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(metadata),
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: "invalid_request" });
    }
    expect((await admin.get("/api/admin/oauth-clients")).body.length).toBe(before);
    noErrorLogged(from);
  });

  it("usernames are NFKC-normalised and refuse bidirectional controls", async () => {
    const created = await admin.post("/api/users", { username: "ｆｕｌｌwidth", email: "fw@example.test", password: "secret-pass" });
    expect(created.status).toBe(201);
    expect(created.body.username).toBe("fullwidth");
    expect((await t.client().post("/api/login", { username: "ｆｕｌｌwidth", password: "secret-pass" })).status).toBe(200);
    const bidi = await admin.post("/api/users", { username: "admin\u202Egnp", email: "bidi@example.test", password: "secret-pass" });
    expect(bidi.status).toBe(400);
    expect(bidi.body.error.fields.username).toBe(TEXT_MESSAGES.bidi);
  });
});
