/**
 * Shared pieces of the adversarial OAuth tests (oauth.adversarial*.test.ts): an app with the
 * Bitbucket sandbox behind it, clients made through the admin API, and the authorize → consent →
 * token steps done by hand so each test can break exactly one of them.
 */
import type { SecretBox } from "../lib/secret-box";
import { afterAll, beforeAll, expect } from "vitest";
import { startSandbox, type Sandbox } from "../../sandbox/server";
import type { OAuthClientCreate, OAuthClientDto } from "../../contract/oauth";
import type { AppConfig } from "../container";
import type { Clock } from "../lib/clock";
import { signedInAs } from "../test/factories";
import type { TestClient } from "../test/http-client";
import { answerConsent, basicAuth, formPost, pkce } from "../test/oauth";
import { startTestApp, type TestApp } from "../test/test-app";

export const APP_REDIRECT = "https://app.example.com/cb";
export const LOOPBACK_REDIRECT = "http://127.0.0.1:8765/cb";

export interface Rig {
  t: TestApp;
  baseUrl: string;
  admin: TestClient;
  user: TestClient;
}

/** The app (OAuth rate limit out of the way unless overridden), Bitbucket configured, an admin and a user signed in. */
export async function startRig(
  sandboxUrl: string,
  options: { config?: Partial<AppConfig>; clock?: Clock; secretBox?: SecretBox } = {},
): Promise<Rig> {
  const t = await startTestApp({
    config: { RATE_LIMIT_OAUTH_REQUESTS: 1000, BITBUCKET_API_URL: `${sandboxUrl}/2.0`, ...options.config },
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.secretBox ? { secretBox: options.secretBox } : {}),
  });
  const admin = (await signedInAs(t, ["admin"])).client;
  const saved = await admin.post("/api/admin/bitbucket-config", {
    workspace: "bridgekeeper",
    username: "demo",
    appPassword: "sandbox-app-password",
    isActive: true,
  });
  if (saved.status >= 300) throw new Error(`bitbucket config: ${saved.status} ${saved.text}`);
  // An operator: holds mcp.write, so a consent can hand on the write scope.
  const user = (await signedInAs(t, ["operator"])).client;
  return { t, baseUrl: t.baseUrl, admin, user };
}

/** A sandbox and a rig for the tests of one file, started before them and stopped after. */
export function rigForFile(use: (sandbox: Sandbox, rig: Rig) => void, options: Parameters<typeof startRig>[1] = {}): void {
  let sandbox: Sandbox | undefined;
  let rig: Rig | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox();
    rig = await startRig(sandbox.url, options);
    use(sandbox, rig);
  });
  afterAll(async () => {
    await rig?.t.close();
    await sandbox?.close();
  });
}

/** A client made on the console's API, as an admin. */
export async function createClient(rig: Rig, overrides: Partial<OAuthClientCreate> = {}): Promise<OAuthClientDto> {
  const res = await rig.admin.post<OAuthClientDto>("/api/admin/oauth-clients", {
    name: "Adversarial client",
    redirectUris: [APP_REDIRECT, LOOPBACK_REDIRECT],
    scopes: ["read", "write"],
    isActive: true,
    clientType: "confidential",
    ...overrides,
  });
  if (res.status !== 201) throw new Error(`create client: ${res.status} ${res.text}`);
  return res.body;
}

export interface AuthorizeParams {
  redirectUri?: string;
  challenge?: string;
  method?: string;
  scope?: string;
  resource?: string;
  state?: string;
}

/** /oauth/authorize?…: every parameter may be left out (undefined) to test its absence. */
export function authorizeUrl(baseUrl: string, clientId: string, params: AuthorizeParams & { omit?: string[] } = {}): URL {
  const url = new URL("/oauth/authorize", baseUrl);
  const fields: Record<string, string | undefined> = {
    response_type: "code",
    client_id: clientId,
    redirect_uri: params.redirectUri ?? APP_REDIRECT,
    code_challenge: params.challenge,
    code_challenge_method: params.method ?? "S256",
    scope: params.scope,
    resource: params.resource,
    state: params.state ?? "st-123",
  };
  for (const [k, v] of Object.entries(fields)) if (v !== undefined && !params.omit?.includes(k)) url.searchParams.set(k, v);
  return url;
}

/** authorize → consent (approved by `rig.user`) → the code on the redirect back. */
export async function obtainCode(
  rig: Rig,
  client: OAuthClientDto,
  params: AuthorizeParams = {},
): Promise<{ code: string; verifier: string; redirectUri: string }> {
  const { verifier, challenge } = pkce();
  const redirectUri = params.redirectUri ?? APP_REDIRECT;
  const back = await answerConsent(
    rig.baseUrl,
    authorizeUrl(rig.baseUrl, client.clientId, { challenge, ...params, redirectUri }),
    rig.user,
  );
  const code = back.searchParams.get("code");
  if (!code) throw new Error(`no code: ${back.toString()}`);
  return { code, verifier, redirectUri };
}

/** The client's own credentials as form fields (client_secret_post), or just its id when public. */
export const credentialsOf = (client: OAuthClientDto): Record<string, string> => ({
  client_id: client.clientId,
  ...(client.clientSecret ? { client_secret: client.clientSecret } : {}),
});

export const basicOf = (client: OAuthClientDto) => ({ authorization: basicAuth(client.clientId, client.clientSecret!) });

export function tokenRequest(rig: Rig, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return formPost(`${rig.baseUrl}/oauth/token`, fields, headers);
}

export async function redeem(rig: Rig, client: OAuthClientDto, code: string, verifier: string, extra: Record<string, string> = {}) {
  return tokenRequest(rig, {
    grant_type: "authorization_code",
    code,
    code_verifier: verifier,
    redirect_uri: APP_REDIRECT,
    ...credentialsOf(client),
    ...extra,
  });
}

export interface Tokens {
  access_token: string;
  refresh_token?: string;
  scope: string;
  expires_in: number;
}

/** A full authorization: code and tokens. */
export async function obtainTokens(
  rig: Rig,
  client: OAuthClientDto,
  params: AuthorizeParams = {},
  extra: Record<string, string> = {},
): Promise<Tokens> {
  const { code, verifier, redirectUri } = await obtainCode(rig, client, params);
  const res = await redeem(rig, client, code, verifier, { redirect_uri: redirectUri, ...extra });
  if (res.status !== 200) throw new Error(`token: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Tokens;
}

/** GET a protected proxy path with a bearer token. */
export async function callProtected(
  rig: Rig,
  token: string,
  path = "/api/bitbucket/user",
): Promise<{ status: number; challenge: string; body: unknown }> {
  const res = await fetch(`${rig.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, challenge: res.headers.get("www-authenticate") ?? "", body };
}

/** An RFC 6749 §5.2 error: JSON, `error` a string code, never a 500, an HTML page or a stack trace. */
export function expectOAuthError(res: { status: number; headers: Headers; body: unknown }, status: number, error: string): void {
  expect(res.headers.get("content-type") ?? "").toMatch(/application\/json/);
  expect(JSON.stringify(res.body)).not.toMatch(/<html|\n\s+at /i);
  expect({ status: res.status, error: (res.body as { error?: unknown }).error }).toEqual({ status, error });
}

/** The direct (non-redirect) 400 JSON answer of /oauth/authorize to a bad client or redirect URI. */
export async function authorizeDirect(url: URL): Promise<{ status: number; location: string | null; body: unknown; headers: Headers }> {
  const res = await fetch(url, { redirect: "manual" });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, location: res.headers.get("location"), body, headers: res.headers };
}
