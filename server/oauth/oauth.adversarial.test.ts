/**
 * Adversarial tests of the authorization server, part 1: redirect URIs, PKCE, codes, refresh
 * rotation, audiences, expiry, client lifecycle and the bearer guard. Part 2
 * (oauth.adversarial-endpoints.test.ts) attacks the endpoints' input handling.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import type { OAuthClientDto } from "../../contract/oauth";
import type { Sandbox } from "../../sandbox/server";
import { createFakeClock, type FakeClock } from "../test/fake-clock";
import { answerConsent, formPost, pkce } from "../test/oauth";
import {
  APP_REDIRECT,
  LOOPBACK_REDIRECT,
  authorizeDirect,
  authorizeUrl,
  callProtected,
  createClient,
  credentialsOf,
  expectOAuthError,
  obtainCode,
  obtainTokens,
  redeem,
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

describe("redirect URIs at /oauth/authorize (exact match; loopback may differ in port only)", () => {
  let client: OAuthClientDto;
  beforeAll(async () => {
    client = await createClient(rig);
  });

  const refused: [string, string][] = [
    ["a trailing slash", "https://app.example.com/cb/"],
    ["another case in the path", "https://app.example.com/CB"],
    ["another case in the host", "https://APP.example.com/cb"],
    ["an extra query", "https://app.example.com/cb?next=https://evil.example"],
    ["a fragment", "https://app.example.com/cb#frag"],
    ["an empty fragment", "https://app.example.com/cb#"],
    ["userinfo making evil the host", "https://app.example.com@evil.example/cb"],
    ["userinfo before the right host", "https://evil@app.example.com/cb"],
    ["a percent-encoded path", "https://app.example.com/%63b"],
    ["a dot segment", "https://app.example.com/x/../cb"],
    ["another port on the non-loopback host", "https://app.example.com:8443/cb"],
    ["the default port written out", "https://app.example.com:443/cb"],
    ["http instead of https", "http://app.example.com/cb"],
    ["another host", "https://evil.example/cb"],
    ["a loopback URI with another path", "http://127.0.0.1:9999/cb2"],
    ["a loopback URI with a trailing slash", "http://127.0.0.1:9999/cb/"],
    ["a loopback URI with an extra query", "http://127.0.0.1:9999/cb?x=1"],
    ["a loopback URI with a fragment", "http://127.0.0.1:9999/cb#frag"],
    ["a loopback URI with userinfo", "http://evil@127.0.0.1:9999/cb"],
    ["a loopback URI with a dot segment", "http://127.0.0.1:9999/x/../cb"],
    ["localhost for a 127.0.0.1 registration", "http://localhost:8765/cb"],
    ["https for an http loopback registration", "https://127.0.0.1:8765/cb"],
  ];
  for (const [what, redirectUri] of refused) {
    it(`refuses ${what} (${redirectUri}) with a direct 400, no redirect`, async () => {
      const res = await authorizeDirect(authorizeUrl(rig.baseUrl, client.clientId, { redirectUri, challenge: pkce().challenge }));
      expect(res.location).toBeNull();
      expectOAuthError(res, 400, "invalid_request");
    });
  }

  it("refuses an unknown client_id with a direct 400 (invalid_client), no redirect", async () => {
    const res = await authorizeDirect(authorizeUrl(rig.baseUrl, "bk_nobody", { challenge: pkce().challenge }));
    expect(res.location).toBeNull();
    expectOAuthError(res, 400, "invalid_client");
  });

  it("accepts the registered URI exactly", async () => {
    const res = await authorizeDirect(
      authorizeUrl(rig.baseUrl, client.clientId, { redirectUri: APP_REDIRECT, challenge: pkce().challenge }),
    );
    expect(res.status).toBe(302);
    expect(res.location).toMatch(/^\/oauth-consent\/[\w-]+$/);
  });

  it("accepts the loopback URI on another port (RFC 8252 §7.3), and the code comes back to that port", async () => {
    const redirectUri = "http://127.0.0.1:9999/cb";
    const { code } = await obtainCode(rig, client, { redirectUri });
    expect(code).toMatch(/^bk_ac_/);
    const res = await authorizeDirect(
      authorizeUrl(rig.baseUrl, client.clientId, { redirectUri: LOOPBACK_REDIRECT.replace("8765", "1"), challenge: pkce().challenge }),
    );
    expect(res.status).toBe(302);
  });

  it("a desktop AI client's own scheme (cursor://, vscode://, RFC 8252 §7.1): registered, the code comes back to it, and it is redeemed", async () => {
    const cursor = "cursor://anysphere.cursor-retrieval/oauth/callback";
    const desktop = await createClient(rig, {
      name: "Cursor",
      clientType: "public",
      redirectUris: [cursor, "vscode://vscode.github-authentication/did-authenticate"],
    });
    const { code, verifier } = await obtainCode(rig, desktop, { redirectUri: cursor });
    const res = await redeem(rig, desktop, code, verifier, { redirect_uri: cursor });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // Another app's scheme is not this one's.
    const other = await authorizeDirect(
      authorizeUrl(rig.baseUrl, desktop.clientId, { redirectUri: "cursor://evil.example/oauth/callback", challenge: pkce().challenge }),
    );
    expect(other.location).toBeNull();
    expectOAuthError(other, 400, "invalid_request");
  });

  it("refuses a redirect_uri given twice (good, then evil) with a direct 400", async () => {
    const url = authorizeUrl(rig.baseUrl, client.clientId, { challenge: pkce().challenge });
    url.searchParams.append("redirect_uri", "https://evil.example/cb");
    const res = await authorizeDirect(url);
    expect(res.location).toBeNull();
    expectOAuthError(res, 400, "invalid_request");
  });

  it("refuses POST /oauth/authorize with a bad redirect URI too", async () => {
    const url = authorizeUrl(rig.baseUrl, client.clientId, { redirectUri: "https://app.example.com/cb#x", challenge: pkce().challenge });
    const res = await fetch(`${rig.baseUrl}/oauth/authorize`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: url.searchParams,
    });
    expect(res.headers.get("location")).toBeNull();
    expectOAuthError({ status: res.status, headers: res.headers, body: await res.json() }, 400, "invalid_request");
  });
});

describe("PKCE (S256 required)", () => {
  let client: OAuthClientDto;
  beforeAll(async () => {
    client = await createClient(rig);
  });

  /** Errors after the client and redirect URI are known go back to the client's redirect URI. */
  async function redirectedError(url: URL): Promise<URLSearchParams> {
    const res = await authorizeDirect(url);
    expect(res.status).toBe(302);
    const location = new URL(res.location!, rig.baseUrl);
    expect(`${location.origin}${location.pathname}`).toBe(APP_REDIRECT);
    // RFC 9207 §2: iss in every authorization response, errors included (the metadata says so).
    expect(location.searchParams.get("iss")).toBe(rig.baseUrl);
    return location.searchParams;
  }

  it("refuses an authorization request without code_challenge", async () => {
    const params = await redirectedError(authorizeUrl(rig.baseUrl, client.clientId, {}));
    expect(params.get("error")).toBe("invalid_request");
    expect(params.get("state")).toBe("st-123");
  });

  it("refuses code_challenge_method=plain", async () => {
    const { verifier } = pkce();
    const params = await redirectedError(authorizeUrl(rig.baseUrl, client.clientId, { challenge: verifier, method: "plain" }));
    expect(params.get("error")).toBe("invalid_request");
  });

  it("refuses a request without code_challenge_method (which would mean plain)", async () => {
    const params = await redirectedError(
      authorizeUrl(rig.baseUrl, client.clientId, { challenge: pkce().challenge, omit: ["code_challenge_method"] }),
    );
    expect(params.get("error")).toBe("invalid_request");
  });

  it("refuses response_type=token (no implicit flow): an error, and no token in the redirect", async () => {
    const url = authorizeUrl(rig.baseUrl, client.clientId, { challenge: pkce().challenge });
    url.searchParams.set("response_type", "token");
    const res = await authorizeDirect(url);
    expect(res.status).toBe(302);
    const location = new URL(res.location!);
    expect(location.searchParams.get("error")).toBeTruthy();
    expect(location.hash).toBe("");
    expect(location.searchParams.get("access_token")).toBeNull();
  });

  it("a scope beyond the client's at /oauth/authorize is invalid_scope, redirected with state and iss", async () => {
    const readOnly = await createClient(rig, { scopes: ["read"] });
    const params = await redirectedError(
      authorizeUrl(rig.baseUrl, readOnly.clientId, { challenge: pkce().challenge, scope: "read write" }),
    );
    expect(params.get("error")).toBe("invalid_scope");
    expect(params.get("state")).toBe("st-123");
  });

  it("a wrong code_verifier at the token endpoint is invalid_grant", async () => {
    const { code } = await obtainCode(rig, client);
    const res = await redeem(rig, client, code, pkce().verifier);
    expectOAuthError(res, 400, "invalid_grant");
  });

  it("a missing code_verifier is invalid_request", async () => {
    const { code } = await obtainCode(rig, client);
    const res = await tokenRequest(rig, { grant_type: "authorization_code", code, redirect_uri: APP_REDIRECT, ...credentialsOf(client) });
    expectOAuthError(res, 400, "invalid_request");
  });

  it("the code still works with the right verifier after a wrong one was tried", async () => {
    const { code, verifier } = await obtainCode(rig, client);
    expectOAuthError(await redeem(rig, client, code, "x".repeat(43)), 400, "invalid_grant");
    expect((await redeem(rig, client, code, verifier)).status).toBe(200);
  });
});

describe("authorization codes", () => {
  let client: OAuthClientDto;
  beforeAll(async () => {
    client = await createClient(rig);
  });

  it("a code redeemed twice: the second is invalid_grant and the first redemption's tokens stop working", async () => {
    const { code, verifier } = await obtainCode(rig, client);
    const first = await redeem(rig, client, code, verifier);
    expect(first.status).toBe(200);
    const { access_token, refresh_token } = first.body as { access_token: string; refresh_token: string };
    expect((await callProtected(rig, access_token)).status).toBe(200);

    expectOAuthError(await redeem(rig, client, code, verifier), 400, "invalid_grant");

    const after = await callProtected(rig, access_token);
    expect(after.status).toBe(401);
    expect(after.challenge).toContain('error="invalid_token"');
    expectOAuthError(
      await tokenRequest(rig, { grant_type: "refresh_token", refresh_token, ...credentialsOf(client) }),
      400,
      "invalid_grant",
    );
  });

  it("a code redeemed twice in parallel: at most one succeeds, and what it issued stops working", async () => {
    const { code, verifier } = await obtainCode(rig, client);
    const results = await Promise.all([redeem(rig, client, code, verifier), redeem(rig, client, code, verifier)]);
    const ok = results.filter((r) => r.status === 200);
    expect(ok.length).toBeLessThanOrEqual(1);
    for (const r of results.filter((x) => x.status !== 200)) expectOAuthError(r, 400, "invalid_grant");
    for (const r of ok) expect((await callProtected(rig, (r.body as { access_token: string }).access_token)).status).toBe(401);
  });

  it("a confidential client's code redeemed without its secret is 401 invalid_client", async () => {
    const { code, verifier } = await obtainCode(rig, client);
    expectOAuthError(
      await tokenRequest(rig, {
        grant_type: "authorization_code",
        code,
        code_verifier: verifier,
        redirect_uri: APP_REDIRECT,
        client_id: client.clientId,
      }),
      401,
      "invalid_client",
    );
    expect((await redeem(rig, client, code, verifier)).status).toBe(200);
  });

  it("a code redeemed by another client (with that client's valid credentials) is invalid_grant", async () => {
    const other = await createClient(rig, { name: "Other client" });
    const { code, verifier } = await obtainCode(rig, client);
    expectOAuthError(await redeem(rig, other, code, verifier), 400, "invalid_grant");
    // The rightful client can still redeem it.
    expect((await redeem(rig, client, code, verifier)).status).toBe(200);
  });

  it("a code redeemed with another redirect_uri is invalid_grant", async () => {
    const { code, verifier } = await obtainCode(rig, client);
    expectOAuthError(await redeem(rig, client, code, verifier, { redirect_uri: LOOPBACK_REDIRECT }), 400, "invalid_grant");
  });

  it("OAuth 2.1 §4.1.3: when the authorization request named redirect_uri, the token request must repeat it", async () => {
    const { code, verifier } = await obtainCode(rig, client);
    expectOAuthError(
      await tokenRequest(rig, { grant_type: "authorization_code", code, code_verifier: verifier, ...credentialsOf(client) }),
      400,
      "invalid_grant",
    );
  });

  it("a client with one registered redirect URI may leave it out at both steps", async () => {
    const single = await createClient(rig, { name: "Single URI", redirectUris: [APP_REDIRECT] });
    const { verifier, challenge } = pkce();
    const back = await answerConsent(
      rig.baseUrl,
      authorizeUrl(rig.baseUrl, single.clientId, { challenge, omit: ["redirect_uri"] }),
      rig.user,
    );
    expect(`${back.origin}${back.pathname}`).toBe(APP_REDIRECT);
    const res = await tokenRequest(rig, {
      grant_type: "authorization_code",
      code: back.searchParams.get("code")!,
      code_verifier: verifier,
      ...credentialsOf(single),
    });
    expect(res.status).toBe(200);
  });

  it("a made-up code is invalid_grant", async () => {
    expectOAuthError(await redeem(rig, client, `bk_ac_${randomBytes(32).toString("base64url")}`, pkce().verifier), 400, "invalid_grant");
  });

  it("a consent request is answered once: a second decision is 404", async () => {
    const res = await fetch(authorizeUrl(rig.baseUrl, client.clientId, { challenge: pkce().challenge }), { redirect: "manual" });
    const id = /\/oauth-consent\/([\w-]+)$/.exec(res.headers.get("location")!)![1]!;
    expect((await rig.user.post(`/api/oauth/requests/${id}/decision`, { approve: true }, { origin: rig.baseUrl })).status).toBe(200);
    expect((await rig.user.post(`/api/oauth/requests/${id}/decision`, { approve: true }, { origin: rig.baseUrl })).status).toBe(404);
  });
});

// With the grace window for parallel refreshes off: reuse detection as RFC 9700 §4.14.2 has it.
// (The window itself: oauth.hardening.test.ts.)
describe("refresh token rotation and reuse detection", () => {
  let client: OAuthClientDto;
  let strict: Rig;
  beforeAll(async () => {
    strict = await startRig(sandbox.url, { config: { OAUTH_REFRESH_GRACE_SECONDS: 0 } });
    client = await createClient(strict);
  });
  afterAll(() => strict?.t.close());
  const refresh = (token: string, extra: Record<string, string> = {}, as = client) =>
    tokenRequest(strict, { grant_type: "refresh_token", refresh_token: token, ...credentialsOf(as), ...extra });

  it("two parallel refreshes with one refresh token: at most one succeeds; replaying it then revokes the whole family", async () => {
    const tokens = await obtainTokens(strict, client);
    const results = await Promise.all([refresh(tokens.refresh_token!), refresh(tokens.refresh_token!)]);
    const ok = results.filter((r) => r.status === 200);
    expect(ok.length).toBeLessThanOrEqual(1);
    for (const r of results.filter((x) => x.status !== 200)) expectOAuthError(r, 400, "invalid_grant");

    expectOAuthError(await refresh(tokens.refresh_token!), 400, "invalid_grant");

    const family = [tokens.access_token, ...ok.map((r) => (r.body as { access_token: string }).access_token)];
    for (const access of family) expect((await callProtected(strict, access)).status).toBe(401);
    for (const r of ok) expectOAuthError(await refresh((r.body as { refresh_token: string }).refresh_token), 400, "invalid_grant");
  });

  it("a rotated refresh token replayed after a successful rotation revokes the new tokens too", async () => {
    const tokens = await obtainTokens(strict, client);
    const rotated = await refresh(tokens.refresh_token!);
    expect(rotated.status).toBe(200);
    const next = rotated.body as { access_token: string; refresh_token: string };
    expect((await callProtected(strict, next.access_token)).status).toBe(200);

    expectOAuthError(await refresh(tokens.refresh_token!), 400, "invalid_grant");
    expect((await callProtected(strict, next.access_token)).status).toBe(401);
    expect((await callProtected(strict, tokens.access_token)).status).toBe(401);
    expectOAuthError(await refresh(next.refresh_token), 400, "invalid_grant");
  });

  it("another client cannot use the refresh token (invalid_grant)", async () => {
    const other = await createClient(strict, { name: "Thief" });
    const tokens = await obtainTokens(strict, client);
    expectOAuthError(await refresh(tokens.refresh_token!, {}, other), 400, "invalid_grant");
  });

  it("a refresh asking for more scope than granted is invalid_scope", async () => {
    const tokens = await obtainTokens(strict, client, { scope: "read" });
    expect(tokens.scope).toBe("read");
    expectOAuthError(await refresh(tokens.refresh_token!, { scope: "read write" }), 400, "invalid_scope");
  });

  it("an access token is not a refresh token, and a refresh token is not an access token", async () => {
    const tokens = await obtainTokens(strict, client);
    expectOAuthError(await refresh(tokens.access_token), 400, "invalid_grant");
    expect((await callProtected(strict, tokens.refresh_token!)).status).toBe(401);
  });
});

describe("audience (RFC 8707 resource)", () => {
  let client: OAuthClientDto;
  beforeAll(async () => {
    client = await createClient(rig);
  });

  it("a token for /api/atlassian is refused on /api/bitbucket/user (401 invalid_token)", async () => {
    const tokens = await obtainTokens(rig, client, { resource: `${rig.baseUrl}/api/atlassian` });
    const res = await callProtected(rig, tokens.access_token);
    expect(res.status).toBe(401);
    expect(res.challenge).toContain('error="invalid_token"');
    expect((res.body as { error: string }).error).toBe("invalid_token");
  });

  it("a token for a path prefix that is not a path segment (/api/bit) does not cover /api/bitbucket", async () => {
    const tokens = await obtainTokens(rig, client, { resource: `${rig.baseUrl}/api/bit` });
    expect((await callProtected(rig, tokens.access_token)).status).toBe(401);
  });

  it("a token for /api/bitbucket works there", async () => {
    const tokens = await obtainTokens(rig, client, { resource: `${rig.baseUrl}/api/bitbucket` });
    expect((await callProtected(rig, tokens.access_token)).status).toBe(200);
  });

  it("a resource on another origin is invalid_target at /oauth/authorize (redirected back to the client)", async () => {
    const res = await authorizeDirect(
      authorizeUrl(rig.baseUrl, client.clientId, { challenge: pkce().challenge, resource: "https://evil.example/api" }),
    );
    expect(res.status).toBe(302);
    const location = new URL(res.location!);
    expect(`${location.origin}${location.pathname}`).toBe(APP_REDIRECT);
    expect(location.searchParams.get("error")).toBe("invalid_target");
    expect(location.searchParams.get("state")).toBe("st-123");
    expect(location.searchParams.get("iss")).toBe(rig.baseUrl);
  });

  it("a resource on another port of this host is invalid_target", async () => {
    const other = new URL(rig.baseUrl);
    other.port = String(Number(other.port) === 65535 ? 1 : Number(other.port) + 1);
    const res = await authorizeDirect(
      authorizeUrl(rig.baseUrl, client.clientId, { challenge: pkce().challenge, resource: `${other.origin}/` }),
    );
    expect(new URL(res.location!).searchParams.get("error")).toBe("invalid_target");
  });

  it("a resource at the token endpoint that differs from the authorized one is invalid_target", async () => {
    const { code, verifier } = await obtainCode(rig, client, { resource: `${rig.baseUrl}/api/atlassian` });
    expectOAuthError(await redeem(rig, client, code, verifier, { resource: "https://evil.example/" }), 400, "invalid_target");
    expectOAuthError(await redeem(rig, client, code, verifier, { resource: `${rig.baseUrl}/api/bitbucket` }), 400, "invalid_target");
  });
});

describe("client lifecycle: deleted or deactivated clients' tokens stop at once", () => {
  it("a deleted client's access token is 401 at once (even if just verified and cached)", async () => {
    const client = await createClient(rig);
    const tokens = await obtainTokens(rig, client);
    expect((await callProtected(rig, tokens.access_token)).status).toBe(200);
    expect((await rig.admin.request("DELETE", `/api/admin/oauth-clients/${client.clientId}`)).status).toBe(204);
    expect((await callProtected(rig, tokens.access_token)).status).toBe(401);
    expectOAuthError(
      await tokenRequest(rig, { grant_type: "refresh_token", refresh_token: tokens.refresh_token!, ...credentialsOf(client) }),
      401,
      "invalid_client",
    );
  });

  it("a deactivated client's access token is 401 at once, and it gets no new tokens (invalid_client)", async () => {
    const client = await createClient(rig);
    const tokens = await obtainTokens(rig, client);
    expect((await callProtected(rig, tokens.access_token)).status).toBe(200);
    expect((await rig.admin.request("PATCH", `/api/admin/oauth-clients/${client.clientId}`, { json: { isActive: false } })).status).toBe(
      200,
    );
    expect((await callProtected(rig, tokens.access_token)).status).toBe(401);
    expectOAuthError(
      await tokenRequest(rig, { grant_type: "refresh_token", refresh_token: tokens.refresh_token!, ...credentialsOf(client) }),
      401,
      "invalid_client",
    );
    expectOAuthError(await tokenRequest(rig, { grant_type: "client_credentials", ...credentialsOf(client) }), 401, "invalid_client");
    const authorize = await authorizeDirect(authorizeUrl(rig.baseUrl, client.clientId, { challenge: pkce().challenge }));
    expect(authorize.location).toBeNull();
    expectOAuthError(authorize, 400, "invalid_client");
  });

  it("a code issued before deactivation cannot be redeemed", async () => {
    const client = await createClient(rig);
    const { code, verifier } = await obtainCode(rig, client);
    await rig.admin.request("PATCH", `/api/admin/oauth-clients/${client.clientId}`, { json: { isActive: false } });
    expectOAuthError(await redeem(rig, client, code, verifier), 401, "invalid_client");
  });

  it("a pending consent request of a client deactivated meanwhile cannot be approved", async () => {
    const client = await createClient(rig);
    const res = await fetch(authorizeUrl(rig.baseUrl, client.clientId, { challenge: pkce().challenge }), { redirect: "manual" });
    const id = /\/oauth-consent\/([\w-]+)$/.exec(res.headers.get("location")!)![1]!;
    await rig.admin.request("PATCH", `/api/admin/oauth-clients/${client.clientId}`, { json: { isActive: false } });
    expect((await rig.user.get(`/api/oauth/requests/${id}`)).status).toBe(404);
    expect((await rig.user.post(`/api/oauth/requests/${id}/decision`, { approve: true }, { origin: rig.baseUrl })).status).toBe(404);
  });
});

describe("the bearer guard", () => {
  let client: OAuthClientDto;
  beforeAll(async () => {
    client = await createClient(rig);
  });

  it("a forged token (random bk_at_…) is 401 invalid_token", async () => {
    const res = await callProtected(rig, `bk_at_${randomBytes(32).toString("base64url")}`);
    expect(res.status).toBe(401);
    expect(res.challenge).toContain('error="invalid_token"');
    expect(res.challenge).toContain(`resource_metadata="${rig.baseUrl}/.well-known/oauth-protected-resource"`);
  });

  it("no token, an empty token, and another scheme are 401", async () => {
    expect((await fetch(`${rig.baseUrl}/api/bitbucket/user`)).status).toBe(401);
    expect((await fetch(`${rig.baseUrl}/api/bitbucket/user`, { headers: { authorization: "Bearer " } })).status).toBe(401);
    const tokens = await obtainTokens(rig, client);
    expect((await fetch(`${rig.baseUrl}/api/bitbucket/user`, { headers: { authorization: `Basic ${tokens.access_token}` } })).status).toBe(
      401,
    );
  });

  it("a session cookie does not stand in for a token", async () => {
    expect((await rig.admin.get("/api/bitbucket/user")).status).toBe(401);
  });

  it("a token in the query string is 401 invalid_request, even a valid one, even alongside the header", async () => {
    const tokens = await obtainTokens(rig, client);
    const inQuery = await fetch(`${rig.baseUrl}/api/bitbucket/user?access_token=${tokens.access_token}`);
    expect(inQuery.status).toBe(401);
    expect(((await inQuery.json()) as { error: string }).error).toBe("invalid_request");
    expect(inQuery.headers.get("www-authenticate")).toContain('error="invalid_request"');
    const both = await fetch(`${rig.baseUrl}/api/bitbucket/user?access_token=${tokens.access_token}`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(both.status).toBe(401);
  });

  it("a valid token with only the read scope works for a proxy GET", async () => {
    const readOnly = await createClient(rig, { scopes: ["read"] });
    const tokens = await obtainTokens(rig, readOnly);
    expect(tokens.scope).toBe("read");
    expect((await callProtected(rig, tokens.access_token)).status).toBe(200);
  });

  it.todo(
    "a token without the write scope is refused by write tools (403 insufficient_scope): needs the MCP tools, which do not exist yet",
  );

  it("a revoked access token stops at once, even if it was just verified (cached)", async () => {
    const tokens = await obtainTokens(rig, client);
    expect((await callProtected(rig, tokens.access_token)).status).toBe(200);
    expect((await formPost(`${rig.baseUrl}/oauth/revoke`, { token: tokens.access_token, ...credentialsOf(client) })).status).toBe(200);
    expect((await callProtected(rig, tokens.access_token)).status).toBe(401);
  });
});

describe("time: codes live 10 minutes, access tokens 1 hour (fake clock)", () => {
  let clock: FakeClock;
  let timed: Rig;
  let client: OAuthClientDto;
  beforeAll(async () => {
    // Started at the real time: the SDK's bearer middleware also compares expiry with Date.now().
    clock = createFakeClock(new Date());
    timed = await startRig(sandbox.url, { clock });
    client = await createClient(timed);
  });
  afterAll(() => timed?.t.close());

  it("a code redeemed after 10 minutes is invalid_grant", async () => {
    const { code, verifier } = await obtainCode(timed, client);
    clock.advance(10 * 60_000 + 1_000);
    expectOAuthError(await redeem(timed, client, code, verifier), 400, "invalid_grant");
  });

  it("a code redeemed within 10 minutes works", async () => {
    const { code, verifier } = await obtainCode(timed, client);
    clock.advance(9 * 60_000);
    expect((await redeem(timed, client, code, verifier)).status).toBe(200);
  });

  it("an access token works for 59 minutes and is 401 after an hour, cached or not", async () => {
    const tokens = await obtainTokens(timed, client);
    expect(tokens.expires_in).toBe(3600);
    expect((await callProtected(timed, tokens.access_token)).status).toBe(200);
    clock.advance(59 * 60_000);
    expect((await callProtected(timed, tokens.access_token)).status).toBe(200);
    clock.advance(60_000 + 1_000);
    const res = await callProtected(timed, tokens.access_token);
    expect(res.status).toBe(401);
    expect(res.challenge).toContain('error="invalid_token"');
  });
});
