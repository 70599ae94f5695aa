import { auth, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../sandbox/server";
import { signedInAs } from "../test/factories";
import type { TestClient } from "../test/http-client";
import { answerConsent, formPost } from "../test/oauth";
import { startTestApp, type TestApp } from "../test/test-app";

/** An MCP client's side of OAuth, as the SDK's own `auth()` drives it: state kept in memory. */
class MemoryProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = "";
  authorizationUrl: URL | undefined;
  constructor(readonly redirectUrl: string) {}
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "SDK test client",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_basic",
      scope: "read write",
    };
  }
  clientInformation = () => this.info;
  saveClientInformation = (info: OAuthClientInformationMixed) => void (this.info = info);
  tokens = () => this.saved;
  saveTokens = (tokens: OAuthTokens) => void (this.saved = tokens);
  redirectToAuthorization = (url: URL) => void (this.authorizationUrl = url);
  saveCodeVerifier = (v: string) => void (this.verifier = v);
  codeVerifier = () => this.verifier;
}

describe("OAuth: the full flow with the MCP SDK's client", () => {
  let sandbox: Sandbox;
  let t: TestApp;
  let user: TestClient;

  beforeAll(async () => {
    sandbox = await startSandbox();
    t = await startTestApp({
      config: { OAUTH_DYNAMIC_REGISTRATION: true, RATE_LIMIT_OAUTH_REQUESTS: 1000, BITBUCKET_API_URL: `${sandbox.url}/2.0` },
    });
    const admin = (await signedInAs(t, ["admin"])).client;
    await admin.post("/api/admin/bitbucket-config", {
      workspace: "bridgekeeper",
      username: "demo",
      appPassword: "sandbox-app-password",
      isActive: true,
    });
    user = (await signedInAs(t, ["operator"], { username: "consenting_user" })).client;
  });
  afterAll(async () => {
    await t.close();
    await sandbox.close();
  });

  it("401 → discovery → registration → PKCE authorize with consent → token → call → refresh → revoke → 401", async () => {
    const protectedUrl = `${t.baseUrl}/api/bitbucket/user`;

    // 1. No token: 401 naming the protected resource metadata.
    const anonymous = await fetch(protectedUrl);
    expect(anonymous.status).toBe(401);
    const challenge = anonymous.headers.get("www-authenticate") ?? "";
    const resourceMetadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
    expect(resourceMetadataUrl).toBe(`${t.baseUrl}/.well-known/oauth-protected-resource`);

    // 2. The SDK discovers both metadata documents, registers itself (RFC 7591) and starts PKCE.
    const provider = new MemoryProvider("http://127.0.0.1:33418/callback");
    const serverUrl = `${t.baseUrl}/api/bitbucket`;
    expect(await auth(provider, { serverUrl, resourceMetadataUrl: new URL(resourceMetadataUrl!) })).toBe("REDIRECT");
    expect(provider.info?.client_id).toMatch(/^bk_/);
    const authorizationUrl = provider.authorizationUrl!;
    expect(authorizationUrl.pathname).toBe("/oauth/authorize");
    expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");

    // 3. The user signs in to the console and approves; the redirect carries code, state and iss (RFC 9207).
    const back = await answerConsent(t.baseUrl, authorizationUrl, user);
    expect(`${back.origin}${back.pathname}`).toBe("http://127.0.0.1:33418/callback");
    expect(back.searchParams.get("iss")).toBe(t.baseUrl);
    expect(back.searchParams.get("state")).toBe(authorizationUrl.searchParams.get("state"));
    const code = back.searchParams.get("code")!;

    // 4. Code for tokens.
    expect(await auth(provider, { serverUrl, resourceMetadataUrl: new URL(resourceMetadataUrl!), authorizationCode: code })).toBe(
      "AUTHORIZED",
    );
    const first = provider.saved!;
    expect(first).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "read write" });
    expect(first.refresh_token).toMatch(/^bk_rt_/);

    // 5. The protected call reaches Bitbucket (the sandbox) with the stored credentials.
    const call = await fetch(protectedUrl, { headers: { authorization: `Bearer ${first.access_token}` } });
    expect(call.status).toBe(200);
    expect(((await call.json()) as { username: string }).username).toBe("demo");

    // 6. Refresh: rotation gives a new pair; the new access token works.
    expect(await auth(provider, { serverUrl, resourceMetadataUrl: new URL(resourceMetadataUrl!) })).toBe("AUTHORIZED");
    const second = provider.saved!;
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await fetch(protectedUrl, { headers: { authorization: `Bearer ${second.access_token}` } })).status).toBe(200);

    // 7. Revoking the refresh token ends the whole authorization: both access tokens stop at once.
    const { client_id, client_secret } = provider.info as { client_id: string; client_secret: string };
    const revoked = await formPost(`${t.baseUrl}/oauth/revoke`, {
      token: second.refresh_token!,
      token_type_hint: "refresh_token",
      client_id,
      client_secret,
    });
    expect(revoked.status).toBe(200);
    for (const token of [first.access_token, second.access_token]) {
      const after = await fetch(protectedUrl, { headers: { authorization: `Bearer ${token}` } });
      expect(after.status).toBe(401);
      expect(after.headers.get("www-authenticate")).toContain('error="invalid_token"');
    }
  });

  it("publishes RFC 8414 and RFC 9728 metadata", async () => {
    const as = await (await fetch(`${t.baseUrl}/.well-known/oauth-authorization-server`)).json();
    expect(as).toMatchObject({
      issuer: t.baseUrl,
      authorization_endpoint: `${t.baseUrl}/oauth/authorize`,
      token_endpoint: `${t.baseUrl}/oauth/token`,
      revocation_endpoint: `${t.baseUrl}/oauth/revoke`,
      registration_endpoint: `${t.baseUrl}/oauth/register`,
      code_challenge_methods_supported: ["S256"],
      grant_types_supported: ["authorization_code", "refresh_token", "client_credentials"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
      authorization_response_iss_parameter_supported: true,
    });
    expect(await (await fetch(`${t.baseUrl}/.well-known/oauth-protected-resource`)).json()).toMatchObject({
      resource: `${t.baseUrl}/`,
      authorization_servers: [t.baseUrl],
      scopes_supported: ["read", "write"],
    });
    expect(await (await fetch(`${t.baseUrl}/.well-known/oauth-protected-resource/mcp`)).json()).toMatchObject({
      resource: `${t.baseUrl}/mcp`,
      authorization_servers: [t.baseUrl],
    });
  });
});
