/**
 * Adversarial tests of the authorization server, part 2: bad input at /oauth/token and
 * /oauth/revoke, dynamic registration, the rate limit, consent CSRF and framing headers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OAuthClientDto } from "../../contract/oauth";
import type { Sandbox } from "../../sandbox/server";
import { basicAuth, formPost, pkce } from "../test/oauth";
import {
  APP_REDIRECT,
  authorizeUrl,
  basicOf,
  callProtected,
  createClient,
  credentialsOf,
  expectOAuthError,
  obtainTokens,
  rigForFile,
  startRig,
  tokenRequest,
  type Rig,
} from "./oauth.adversarial.helpers";

let sandbox: Sandbox;
let rig: Rig;
rigForFile((s, r) => {
  sandbox = s;
  rig = r;
});

/** A raw POST to /oauth/token (or another path) with any body and content type. */
async function rawPost(path: string, body: string, headers: Record<string, string>) {
  const res = await fetch(`${rig.baseUrl}${path}`, { method: "POST", headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

describe("bad input at /oauth/token: RFC 6749 §5.2 errors, never a 500, HTML or a stack trace", () => {
  let confidential: OAuthClientDto;
  let publicClient: OAuthClientDto;
  let readOnly: OAuthClientDto;
  beforeAll(async () => {
    confidential = await createClient(rig);
    publicClient = await createClient(rig, { clientType: "public", name: "Public client" });
    readOnly = await createClient(rig, { scopes: ["read"], name: "Read-only client" });
  });

  it("a JSON body (credentials inside it) is not read: 401 invalid_client", async () => {
    const res = await rawPost("/oauth/token", JSON.stringify({ grant_type: "client_credentials", ...credentialsOf(confidential) }), {
      "content-type": "application/json",
    });
    expectOAuthError(res, 401, "invalid_client");
  });

  it("a JSON body with Basic credentials: 400 invalid_request (no grant_type can be read)", async () => {
    const res = await rawPost("/oauth/token", JSON.stringify({ grant_type: "client_credentials" }), {
      "content-type": "application/json",
      ...basicOf(confidential),
    });
    expectOAuthError(res, 400, "invalid_request");
  });

  it("an empty body: 401 invalid_client without credentials, 400 invalid_request with Basic", async () => {
    expectOAuthError(await rawPost("/oauth/token", "", { "content-type": "application/x-www-form-urlencoded" }), 401, "invalid_client");
    expectOAuthError(
      await rawPost("/oauth/token", "", { "content-type": "application/x-www-form-urlencoded", ...basicOf(confidential) }),
      400,
      "invalid_request",
    );
  });

  it("a form body sent as text/plain is not read: 401 invalid_client", async () => {
    const body = new URLSearchParams({ grant_type: "client_credentials", ...credentialsOf(confidential) }).toString();
    expectOAuthError(await rawPost("/oauth/token", body, { "content-type": "text/plain" }), 401, "invalid_client");
  });

  it("an unknown grant_type is unsupported_grant_type", async () => {
    expectOAuthError(
      await tokenRequest(rig, { grant_type: "password", username: "a", password: "b", ...credentialsOf(confidential) }),
      400,
      "unsupported_grant_type",
    );
    expectOAuthError(
      await tokenRequest(rig, { grant_type: "urn:ietf:params:oauth:grant-type:device_code", ...credentialsOf(confidential) }),
      400,
      "unsupported_grant_type",
    );
  });

  it("a missing grant_type is invalid_request", async () => {
    expectOAuthError(await tokenRequest(rig, { ...credentialsOf(confidential) }), 400, "invalid_request");
  });

  it("a grant_type given twice is invalid_request (RFC 6749 §3.2: no parameter more than once)", async () => {
    const body = `grant_type=client_credentials&grant_type=client_credentials&${new URLSearchParams(credentialsOf(confidential)).toString()}`;
    expectOAuthError(await rawPost("/oauth/token", body, { "content-type": "application/x-www-form-urlencoded" }), 400, "invalid_request");
  });

  it("authorization_code without code, refresh_token without refresh_token: invalid_request", async () => {
    expectOAuthError(
      await tokenRequest(rig, { grant_type: "authorization_code", code_verifier: pkce().verifier, ...credentialsOf(confidential) }),
      400,
      "invalid_request",
    );
    expectOAuthError(await tokenRequest(rig, { grant_type: "refresh_token", ...credentialsOf(confidential) }), 400, "invalid_request");
  });

  it("an unknown client is 401 invalid_client", async () => {
    expectOAuthError(
      await tokenRequest(rig, { grant_type: "client_credentials", client_id: "bk_nobody", client_secret: "bks_nothing" }),
      401,
      "invalid_client",
    );
    expectOAuthError(await tokenRequest(rig, { grant_type: "client_credentials", client_id: "x".repeat(5_000) }), 401, "invalid_client");
  });

  it("a wrong secret via Basic is 401 invalid_client with WWW-Authenticate: Basic", async () => {
    const res = await tokenRequest(
      rig,
      { grant_type: "client_credentials" },
      { authorization: basicAuth(confidential.clientId, `${confidential.clientSecret!}x`) },
    );
    expectOAuthError(res, 401, "invalid_client");
    expect(res.headers.get("www-authenticate")).toMatch(/^Basic /);
  });

  it("malformed Basic credentials are 401 invalid_client with WWW-Authenticate: Basic", async () => {
    for (const authorization of [
      "Basic",
      "Basic !!!",
      `Basic ${Buffer.from("no-colon").toString("base64")}`,
      `Basic ${Buffer.from(":secret").toString("base64")}`,
      `Basic ${Buffer.from("%E0%A4%A:x").toString("base64")}`,
    ]) {
      const res = await tokenRequest(rig, { grant_type: "client_credentials" }, { authorization });
      expectOAuthError(res, 401, "invalid_client");
      expect(res.headers.get("www-authenticate") ?? "", authorization).toMatch(/^Basic /);
    }
  });

  it("a wrong secret via client_secret_post is 401 invalid_client", async () => {
    expectOAuthError(
      await tokenRequest(rig, { grant_type: "client_credentials", client_id: confidential.clientId, client_secret: "bks_wrong" }),
      401,
      "invalid_client",
    );
  });

  it("a confidential client without its secret is 401 invalid_client", async () => {
    expectOAuthError(
      await tokenRequest(rig, { grant_type: "client_credentials", client_id: confidential.clientId }),
      401,
      "invalid_client",
    );
  });

  it("a public client presenting a secret is 401 invalid_client", async () => {
    expectOAuthError(
      await tokenRequest(rig, { grant_type: "client_credentials", client_id: publicClient.clientId, client_secret: "made-up" }),
      401,
      "invalid_client",
    );
  });

  it("both Basic and client_secret in the body is 400 invalid_request", async () => {
    expectOAuthError(
      await tokenRequest(rig, { grant_type: "client_credentials", client_secret: confidential.clientSecret! }, basicOf(confidential)),
      400,
      "invalid_request",
    );
  });

  it("Basic for one client and client_id of another in the body is 400 invalid_request", async () => {
    expectOAuthError(
      await tokenRequest(rig, { grant_type: "client_credentials", client_id: readOnly.clientId }, basicOf(confidential)),
      400,
      "invalid_request",
    );
  });

  it("a 100 KB body is refused with an OAuth error (413), not a 500", async () => {
    const res = await tokenRequest(rig, {
      grant_type: "client_credentials",
      ...credentialsOf(confidential),
      padding: "a".repeat(100 * 1024),
    });
    expectOAuthError(res, 413, "invalid_request");
  });

  it("an unsupported charset is refused with an OAuth error, not a 500", async () => {
    const res = await rawPost("/oauth/token", "grant_type=client_credentials", {
      "content-type": "application/x-www-form-urlencoded; charset=utf-16",
    });
    expectOAuthError(res, 415, "invalid_request");
  });

  it("a GET to /oauth/token is neither a 500 nor HTML", async () => {
    const res = await fetch(`${rig.baseUrl}/oauth/token`);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
  });

  it("client_credentials for a public client is unauthorized_client", async () => {
    expectOAuthError(
      await tokenRequest(rig, { grant_type: "client_credentials", client_id: publicClient.clientId }),
      400,
      "unauthorized_client",
    );
  });

  it("client_credentials for a confidential client: 200 via Basic and via post, no refresh_token, the token works", async () => {
    for (const [fields, headers] of [
      [{ grant_type: "client_credentials" }, basicOf(confidential)],
      [{ grant_type: "client_credentials", ...credentialsOf(confidential) }, {}],
    ] as const) {
      const res = await tokenRequest(rig, { ...fields }, { ...headers });
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.body).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "read write" });
      expect(res.body).not.toHaveProperty("refresh_token");
      expect((await callProtected(rig, (res.body as { access_token: string }).access_token)).status).toBe(200);
    }
  });

  it("a scope beyond the client's is invalid_scope", async () => {
    expectOAuthError(
      await tokenRequest(rig, { grant_type: "client_credentials", scope: "read write", ...credentialsOf(readOnly) }),
      400,
      "invalid_scope",
    );
    expectOAuthError(
      await tokenRequest(rig, { grant_type: "client_credentials", scope: "admin", ...credentialsOf(confidential) }),
      400,
      "invalid_scope",
    );
  });

  it("client_credentials with a resource on another origin, or a malformed one, is invalid_target", async () => {
    expectOAuthError(
      await tokenRequest(rig, { grant_type: "client_credentials", resource: "https://evil.example/", ...credentialsOf(confidential) }),
      400,
      "invalid_target",
    );
    expectOAuthError(
      await tokenRequest(rig, { grant_type: "client_credentials", resource: "not a url", ...credentialsOf(confidential) }),
      400,
      "invalid_target",
    );
  });
});

describe("/oauth/revoke", () => {
  let client: OAuthClientDto;
  let other: OAuthClientDto;
  beforeAll(async () => {
    client = await createClient(rig);
    other = await createClient(rig, { name: "Other" });
  });
  const revoke = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
    formPost(`${rig.baseUrl}/oauth/revoke`, fields, headers);

  it("an unknown token is 200 (RFC 7009 §2.2)", async () => {
    const res = await revoke({ token: "bk_at_not-a-token", ...credentialsOf(client) });
    expect(res.status).toBe(200);
  });

  it("another client's token: 200, but the token keeps working", async () => {
    const tokens = await obtainTokens(rig, client);
    expect((await revoke({ token: tokens.access_token, ...credentialsOf(other) })).status).toBe(200);
    expect((await revoke({ token: tokens.refresh_token!, token_type_hint: "refresh_token" }, basicOf(other))).status).toBe(200);
    expect((await callProtected(rig, tokens.access_token)).status).toBe(200);
    expect(
      (await tokenRequest(rig, { grant_type: "refresh_token", refresh_token: tokens.refresh_token!, ...credentialsOf(client) })).status,
    ).toBe(200);
  });

  it("without client authentication: 401 invalid_client; without a token: 400 invalid_request", async () => {
    expectOAuthError(await revoke({ token: "anything" }), 401, "invalid_client");
    expectOAuthError(await revoke({ ...credentialsOf(client) }), 400, "invalid_request");
  });
});

describe("consent: CSRF-protected, not frameable", () => {
  async function pendingRequest(client: OAuthClientDto): Promise<string> {
    const res = await fetch(authorizeUrl(rig.baseUrl, client.clientId, { challenge: pkce().challenge }), { redirect: "manual" });
    return /\/oauth-consent\/([\w-]+)$/.exec(res.headers.get("location")!)![1]!;
  }

  it("a cross-site decision (Origin or Sec-Fetch-Site) with a valid session cookie is 403, and the request stays pending", async () => {
    const client = await createClient(rig);
    const id = await pendingRequest(client);
    const evil = await rig.user.post(`/api/oauth/requests/${id}/decision`, { approve: true }, { origin: "https://evil.example" });
    expect(evil.status).toBe(403);
    expect(evil.body.error.code).toBe("csrf_rejected");
    const crossSite = await rig.user.post(`/api/oauth/requests/${id}/decision`, { approve: true }, { "sec-fetch-site": "cross-site" });
    expect(crossSite.status).toBe(403);
    const sameSite = await rig.user.post(
      `/api/oauth/requests/${id}/decision`,
      { approve: true },
      { "sec-fetch-site": "same-site", origin: rig.baseUrl },
    );
    expect(sameSite.status).toBe(403);

    const shown = await rig.user.get(`/api/oauth/requests/${id}`);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ id, clientId: client.clientId, redirectUri: APP_REDIRECT });

    const decided = await rig.user.post(
      `/api/oauth/requests/${id}/decision`,
      { approve: true },
      { origin: rig.baseUrl, "sec-fetch-site": "same-origin" },
    );
    expect(decided.status).toBe(200);
    expect(new URL(decided.body.redirectTo).searchParams.get("code")).toMatch(/^bk_ac_/);
  });

  it("without a session, the consent request can be neither read nor answered (401)", async () => {
    const client = await createClient(rig);
    const id = await pendingRequest(client);
    const anonymous = rig.t.client();
    expect((await anonymous.get(`/api/oauth/requests/${id}`)).status).toBe(401);
    expect((await anonymous.post(`/api/oauth/requests/${id}/decision`, { approve: true }, { origin: rig.baseUrl })).status).toBe(401);
    expect((await rig.user.get(`/api/oauth/requests/${id}`)).status).toBe(200);
  });

  it("a denial redirects with access_denied, state and iss", async () => {
    const client = await createClient(rig);
    const id = await pendingRequest(client);
    const denied = await rig.user.post(`/api/oauth/requests/${id}/decision`, { approve: false }, { origin: rig.baseUrl });
    const back = new URL(denied.body.redirectTo);
    expect(Object.fromEntries(back.searchParams)).toMatchObject({ error: "access_denied", state: "st-123", iss: rig.baseUrl });
    expect(back.searchParams.get("code")).toBeNull();
  });

  it("frame-ancestors 'none' and X-Frame-Options: DENY on the consent page and every other response", async () => {
    for (const path of [
      "/oauth-consent/x",
      "/api/mcp/health",
      "/oauth/authorize",
      "/.well-known/oauth-authorization-server",
      "/api/bitbucket/user",
    ]) {
      const res = await fetch(`${rig.baseUrl}${path}`, { redirect: "manual" });
      expect(res.headers.get("content-security-policy") ?? "", path).toContain("frame-ancestors 'none'");
      expect(res.headers.get("x-frame-options"), path).toBe("DENY");
    }
    const token = await fetch(`${rig.baseUrl}/oauth/token`, { method: "POST" });
    expect(token.headers.get("x-frame-options")).toBe("DENY");
  });
});

describe("dynamic client registration (RFC 7591)", () => {
  const metadata = {
    client_name: "Dynamic",
    redirect_uris: ["http://127.0.0.1:9000/cb"],
    token_endpoint_auth_method: "none",
    grant_types: ["authorization_code", "refresh_token"],
  };
  const register = (base: string, body: unknown) => rawPostTo(`${base}/oauth/register`, JSON.stringify(body));
  async function rawPostTo(url: string, body: string) {
    const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
  }

  it("is disabled by default: 404 at /oauth/register and no registration_endpoint in the metadata", async () => {
    const res = await register(rig.baseUrl, metadata);
    expect(res.status).toBe(404);
    const as = (await (await fetch(`${rig.baseUrl}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(as).not.toHaveProperty("registration_endpoint");
  });

  describe("when enabled (OAUTH_DYNAMIC_REGISTRATION)", () => {
    let dyn: Rig;
    beforeAll(async () => {
      dyn = await startRig(sandbox.url, { config: { OAUTH_DYNAMIC_REGISTRATION: true } });
    });
    afterAll(() => dyn?.t.close());

    it("advertises registration_endpoint and registers a public client", async () => {
      const as = (await (await fetch(`${dyn.baseUrl}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
      expect(as.registration_endpoint).toBe(`${dyn.baseUrl}/oauth/register`);
      const res = await register(dyn.baseUrl, metadata);
      expect(res.status).toBe(201);
      expect(res.body.client_id).toMatch(/^bk_/);
      expect(res.body).not.toHaveProperty("client_secret");
    });

    it("a dynamically registered public client cannot get client_credentials even if it asked for them", async () => {
      const res = await register(dyn.baseUrl, { ...metadata, grant_types: ["client_credentials"] });
      expect(res.status).toBe(201);
      expectOAuthError(
        await tokenRequest(dyn, { grant_type: "client_credentials", client_id: String(res.body.client_id) }),
        400,
        "unauthorized_client",
      );
    });

    it("a dynamically registered confidential client cannot get client_credentials either: no token without a user's consent", async () => {
      const { token_endpoint_auth_method: _none, ...confidential } = metadata;
      const res = await register(dyn.baseUrl, { ...confidential, grant_types: ["client_credentials"] });
      expect(res.status).toBe(201);
      expect(res.body.client_secret).toEqual(expect.any(String));
      expect(res.body.grant_types).not.toContain("client_credentials");
      const token = await tokenRequest(dyn, {
        grant_type: "client_credentials",
        client_id: String(res.body.client_id),
        client_secret: String(res.body.client_secret),
      });
      expectOAuthError(token, 400, "unauthorized_client");
    });

    for (const [what, uri] of [
      ["plain http to a non-loopback host", "http://evil.example/cb"],
      ["a fragment", "https://app.example.com/cb#x"],
      ["userinfo", "https://user:pw@app.example.com/cb"],
      ["a file: URI", "file:///etc/passwd"],
    ] as const) {
      it(`refuses a redirect URI with ${what} (invalid_redirect_uri), as the console does`, async () => {
        const res = await register(dyn.baseUrl, { ...metadata, redirect_uris: [uri] });
        expectOAuthError(res, 400, "invalid_redirect_uri");
      });
    }

    it("refuses a javascript: redirect URI", async () => {
      const res = await register(dyn.baseUrl, { ...metadata, redirect_uris: ["javascript:alert(1)"] });
      expect(res.status).toBe(400);
      expect(["invalid_redirect_uri", "invalid_client_metadata"]).toContain(res.body.error);
    });

    it("malformed JSON is a 400, not a 500", async () => {
      const res = await fetch(`${dyn.baseUrl}/oauth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{not json",
      });
      expect(res.status).toBe(400);
      expect(res.headers.get("content-type")).toMatch(/application\/json/);
    });
  });
});

describe("the OAuth rate limit (RATE_LIMIT_OAUTH_REQUESTS)", () => {
  let limited: Rig;
  beforeAll(async () => {
    limited = await startRig(sandbox.url, { config: { RATE_LIMIT_OAUTH_REQUESTS: 3 } });
  });
  afterAll(() => limited?.t.close());

  it("the 4th token request from the same address is 429 with Retry-After", async () => {
    const fields = { grant_type: "client_credentials", client_id: "bk_nobody", client_secret: "x" };
    for (let i = 0; i < 3; i++) expect((await tokenRequest(limited, fields)).status).toBe(401);
    const res = await tokenRequest(limited, fields);
    expectOAuthError(res, 429, "too_many_requests");
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
