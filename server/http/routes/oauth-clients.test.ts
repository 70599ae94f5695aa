import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SECRET_MASK } from "../../../contract/oauth";
import { signedInAs } from "../../test/factories";
import type { TestClient } from "../../test/http-client";
import { answerConsent, basicAuth, formPost, pkce } from "../../test/oauth";
import { startTestApp, type TestApp } from "../../test/test-app";

/**
 * The OAuth Clients admin API (spec section 7; docs/decisions.md#oauth-client-secrets): happy path,
 * bad input, who may do what.
 */
describe("OAuth clients API", () => {
  let t: TestApp;
  let admin: TestClient;
  let operator: TestClient;
  let viewer: TestClient;
  const body = (overrides: Record<string, unknown> = {}) => ({
    name: "Claude Desktop",
    redirectUris: ["https://app.example.com/cb", "http://127.0.0.1:8765/cb"],
    scopes: ["read", "write"],
    isActive: true,
    ...overrides,
  });
  const clientCredentials = (clientId: string, secret: string) =>
    formPost(`${t.baseUrl}/oauth/token`, { grant_type: "client_credentials" }, { authorization: basicAuth(clientId, secret) });

  beforeAll(async () => {
    t = await startTestApp({ config: { RATE_LIMIT_OAUTH_REQUESTS: 1000 } });
    admin = (await signedInAs(t, ["admin"])).client;
    operator = (await signedInAs(t, ["operator"])).client;
    viewer = (await signedInAs(t, ["viewer"])).client;
  });
  afterAll(() => t.close());

  it("creates a confidential client whose secret is sealed at rest and works at the token endpoint", async () => {
    const res = await operator.post("/api/admin/oauth-clients", body());
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "Claude Desktop",
      clientType: "confidential",
      isActive: true,
      registeredVia: "console",
      scopes: ["read", "write"],
      activeGrants: 0,
    });
    expect(res.body.clientId).toMatch(/^bk_[\w-]{24}$/);
    expect(res.body.clientSecret).toMatch(/^bks_[\w-]{43}$/);
    expect(res.body.clientSecret).not.toBe(SECRET_MASK);

    const raw = JSON.stringify(await t.container.database.db.execute(sql`select * from oauth_clients`));
    expect(raw).not.toContain(res.body.clientSecret);

    const token = await clientCredentials(res.body.clientId, res.body.clientSecret);
    expect(token.status).toBe(200);
    const listed = (await admin.get("/api/admin/oauth-clients")).body.find((c: { clientId: string }) => c.clientId === res.body.clientId);
    expect(listed).toMatchObject({ clientSecret: res.body.clientSecret, activeGrants: 1 });
  });

  it("a public client has no secret", async () => {
    const res = await admin.post("/api/admin/oauth-clients", body({ name: "CLI", clientType: "public" }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ clientType: "public", clientSecret: null });
  });

  it("lists newest first; secrets only for those who may manage clients", async () => {
    await admin.post("/api/admin/oauth-clients", body({ name: "Newest" }));
    const asAdmin = (await admin.get("/api/admin/oauth-clients")).body;
    expect(asAdmin[0].name).toBe("Newest");
    expect(
      asAdmin
        .filter((c: { clientType: string }) => c.clientType === "confidential")
        .every((c: { clientSecret: string | null }) => typeof c.clientSecret === "string"),
    ).toBe(true);
    const asViewer = await viewer.get("/api/admin/oauth-clients");
    expect(asViewer.status).toBe(200);
    expect(asViewer.body.every((c: { clientSecret: string | null }) => c.clientSecret === null)).toBe(true);
    expect(asViewer.text).not.toMatch(/bks_/);
  });

  describe("bad input", () => {
    it.each([
      ["no name", { name: "  " }, { name: "Name is required" }],
      ["no redirect URI", { redirectUris: [] }, { redirectUris: "At least one redirect URI is required" }],
      ["no scope", { scopes: [] }, { scopes: "At least one scope is required" }],
      ["an unknown scope", { scopes: ["read", "admin"] }, { scopes: "Unknown scope: admin (known: read, write)" }],
      [
        "plain http off loopback",
        { redirectUris: ["http://app.example.com/cb"] },
        { redirectUris: '"http://app.example.com/cb" must use https (http only for localhost)' },
      ],
      [
        "a fragment",
        { redirectUris: ["https://app.example.com/cb#x"] },
        { redirectUris: '"https://app.example.com/cb#x" must not contain a fragment' },
      ],
      ["a relative URI", { redirectUris: ["/cb"] }, { redirectUris: '"/cb" is not an absolute URL' }],
      [
        "a javascript: URI",
        { redirectUris: ["javascript:alert(1)"] },
        {
          redirectUris:
            '"javascript:alert(1)" uses a forbidden scheme: https, http for localhost, or an app\'s own scheme such as com.example.app:/callback',
        },
      ],
      [
        "a blob: URI",
        { redirectUris: ["blob:https://app.example.com/x"] },
        {
          redirectUris:
            '"blob:https://app.example.com/x" uses a forbidden scheme: https, http for localhost, or an app\'s own scheme such as com.example.app:/callback',
        },
      ],
      [
        "a data: URI",
        { redirectUris: ["data:text/html,hi"] },
        {
          redirectUris:
            '"data:text/html,hi" uses a forbidden scheme: https, http for localhost, or an app\'s own scheme such as com.example.app:/callback',
        },
      ],
      [
        "a file: URI",
        { redirectUris: ["file:///etc/passwd"] },
        {
          redirectUris:
            '"file:///etc/passwd" uses a forbidden scheme: https, http for localhost, or an app\'s own scheme such as com.example.app:/callback',
        },
      ],
      ["a wrong type", { redirectUris: "https://app.example.com/cb" }, { redirectUris: "At least one redirect URI is required" }],
    ])("%s -> 400 with the field's message", async (_label, change, fields) => {
      const res = await admin.post("/api/admin/oauth-clients", body(change));
      expect(res.status).toBe(400);
      expect(res.body.error.fields).toEqual(fields);
    });

    it("a megabyte of name is refused before it is read", async () => {
      expect((await admin.post("/api/admin/oauth-clients", body({ name: "x".repeat(1024 * 1024) }))).status).toBe(413);
    });

    it("unknown clients are 404, a non-boolean isActive 400", async () => {
      expect((await admin.request("DELETE", "/api/admin/oauth-clients/bk_nope")).status).toBe(404);
      expect((await admin.request("DELETE", "/api/admin/oauth-clients/..%2f..%2fetc")).status).toBe(404);
      expect((await admin.request("PATCH", "/api/admin/oauth-clients/bk_nope", { json: { isActive: false } })).status).toBe(404);
      const created = (await admin.post("/api/admin/oauth-clients", body())).body;
      expect((await admin.request("PATCH", `/api/admin/oauth-clients/${created.clientId}`, { json: { isActive: "no" } })).status).toBe(400);
      const pub = (await admin.post("/api/admin/oauth-clients", body({ clientType: "public" }))).body;
      expect((await admin.post(`/api/admin/oauth-clients/${pub.clientId}/secret`)).status).toBe(409);
    });
  });

  it("deactivating stops its tokens and its token requests; activating lets it back in", async () => {
    const created = (await admin.post("/api/admin/oauth-clients", body())).body;
    const token = (await clientCredentials(created.clientId, created.clientSecret)).body.access_token;
    const call = () => fetch(`${t.baseUrl}/api/bitbucket/user`, { headers: { authorization: `Bearer ${token}` } });
    expect((await call()).status).toBe(503); // the token passes; Bitbucket is just not configured here
    expect(
      (await admin.request("PATCH", `/api/admin/oauth-clients/${created.clientId}`, { json: { isActive: false } })).body.isActive,
    ).toBe(false);
    expect((await call()).status).toBe(401);
    expect((await clientCredentials(created.clientId, created.clientSecret)).status).toBe(401);
    await admin.request("PATCH", `/api/admin/oauth-clients/${created.clientId}`, { json: { isActive: true } });
    expect((await call()).status).toBe(401); // its old tokens stay dead
    expect((await clientCredentials(created.clientId, created.clientSecret)).status).toBe(200);
  });

  it("a new secret replaces the old one at once and ends the tokens issued before it", async () => {
    const created = (await admin.post("/api/admin/oauth-clients", body())).body;
    const token = (await clientCredentials(created.clientId, created.clientSecret)).body.access_token;
    const renewed = (await admin.post(`/api/admin/oauth-clients/${created.clientId}/secret`)).body;
    expect(renewed.clientSecret).not.toBe(created.clientSecret);
    expect((await clientCredentials(created.clientId, created.clientSecret)).status).toBe(401);
    expect((await clientCredentials(created.clientId, renewed.clientSecret)).status).toBe(200);
    expect((await fetch(`${t.baseUrl}/api/bitbucket/user`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
  });

  it("deleting a client ends its tokens at once and is audited without the secret", async () => {
    const created = (await admin.post("/api/admin/oauth-clients", body())).body;
    const token = (await clientCredentials(created.clientId, created.clientSecret)).body.access_token;
    expect((await admin.request("DELETE", `/api/admin/oauth-clients/${created.clientId}`)).status).toBe(204);
    expect((await fetch(`${t.baseUrl}/api/bitbucket/user`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    const events = (await admin.get(`/api/admin/audit?targetId=${created.clientId}`)).body.events;
    expect(events.map((e: { action: string }) => e.action)).toEqual(["oauth_client.deleted", "oauth_client.created"]);
    expect(JSON.stringify(events)).not.toContain(created.clientSecret);
    expect(t.logLines.join("\n")).not.toContain(created.clientSecret);
  });

  it("a secret sealed under another key (SECRET_KEY changed) shows as unavailable and authenticates nothing; a new one repairs it", async () => {
    const created = (await admin.post("/api/admin/oauth-clients", body({ name: "Rekeyed" }))).body;
    await t.container.database.db.execute(
      sql`update oauth_clients set secret_sealed = 'v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AAAA' where client_id = ${created.clientId}`,
    );
    const listed = await admin.get("/api/admin/oauth-clients");
    expect(listed.status).toBe(200);
    expect(listed.body.find((c: { clientId: string }) => c.clientId === created.clientId).clientSecret).toBeNull();
    expect((await clientCredentials(created.clientId, created.clientSecret)).status).toBe(401);
    const renewed = (await admin.post(`/api/admin/oauth-clients/${created.clientId}/secret`)).body;
    expect((await clientCredentials(created.clientId, renewed.clientSecret)).status).toBe(200);
  });

  it("only those with oauth-clients.write change clients", async () => {
    expect((await viewer.post("/api/admin/oauth-clients", body())).status).toBe(403);
    const created = (await admin.post("/api/admin/oauth-clients", body())).body;
    expect((await viewer.request("DELETE", `/api/admin/oauth-clients/${created.clientId}`)).status).toBe(403);
    expect((await viewer.post(`/api/admin/oauth-clients/${created.clientId}/secret`)).status).toBe(403);
    expect((await t.client().get("/api/admin/oauth-clients")).status).toBe(401);
  });

  it("live grants (users' consents) are counted for the dashboard; client_credentials are not sessions", async () => {
    const before = await t.container.services.oauthTokens.liveGrants();
    const created = (await admin.post("/api/admin/oauth-clients", body())).body;
    await clientCredentials(created.clientId, created.clientSecret);
    expect(await t.container.services.oauthTokens.liveGrants()).toBe(before);
    const { verifier, challenge } = pkce();
    const url = new URL("/oauth/authorize", t.baseUrl);
    for (const [k, v] of Object.entries({
      response_type: "code",
      client_id: created.clientId,
      redirect_uri: "https://app.example.com/cb",
      code_challenge: challenge,
      code_challenge_method: "S256",
      state: "s",
    }))
      url.searchParams.set(k, v);
    const back = await answerConsent(t.baseUrl, url, admin);
    const token = await formPost(
      `${t.baseUrl}/oauth/token`,
      {
        grant_type: "authorization_code",
        code: back.searchParams.get("code")!,
        code_verifier: verifier,
        redirect_uri: "https://app.example.com/cb",
      },
      { authorization: basicAuth(created.clientId, created.clientSecret) },
    );
    expect(token.status).toBe(200);
    expect(await t.container.services.oauthTokens.liveGrants()).toBe(before + 1);
    await admin.request("PATCH", `/api/admin/oauth-clients/${created.clientId}`, { json: { isActive: false } });
    expect(await t.container.services.oauthTokens.liveGrants()).toBe(before);
  });
});
