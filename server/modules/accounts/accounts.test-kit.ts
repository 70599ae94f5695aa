/**
 * What the tests of acting as the person share (issue 27): the identity settings put on the
 * sandbox's OAuth app, a person's link made the way a browser makes it (authorize → the sandbox's
 * consent, here a code minted for that person → our callback with the session), and the sandbox's
 * record of token requests. Test code only.
 */
import type { Integration } from "../../../contract/accounts";
import type { Sandbox } from "../../../sandbox/server";
import type { TestClient } from "../../test/http-client";

/** The sandbox stands in for Atlassian's and Bitbucket's authorization servers and Atlassian's API gateway. */
export const sandboxOAuth = (sandbox: { url: string }) => ({
  ATLASSIAN_AUTH_URL: sandbox.url,
  ATLASSIAN_API_URL: sandbox.url,
  BITBUCKET_AUTH_URL: sandbox.url,
});

export interface SandboxAccounts {
  atlassianApp: { clientId: string; clientSecret: string };
  bitbucketConsumer: { key: string; secret: string };
  people: { accountId: string; displayName: string; email: string; apiToken: string; nickname: string }[];
}

export const sandboxAccounts = async (sandbox: Sandbox): Promise<SandboxAccounts> =>
  (await (await fetch(`${sandbox.url}/__sandbox/accounts`)).json()) as SandboxAccounts;

/** Puts `integration` in per-person mode with the sandbox's OAuth app (and `extra` over it); fails the set-up unless saved. */
export async function perPerson(admin: TestClient, sandbox: Sandbox, integration: Integration, extra: Record<string, unknown> = {}) {
  const accounts = await sandboxAccounts(sandbox);
  const app =
    integration === "atlassian"
      ? { oauthClientId: accounts.atlassianApp.clientId, oauthClientSecret: accounts.atlassianApp.clientSecret }
      : { oauthClientId: accounts.bitbucketConsumer.key, oauthClientSecret: accounts.bitbucketConsumer.secret };
  const res = await admin.put(`/api/admin/identity/${integration}`, { mode: "per-person", ...app, ...extra });
  if (res.status !== 200) throw new Error(`identity of ${integration}: ${res.status} ${res.text}`);
  return accounts;
}

/** Starts a link as `person` (a signed-in console client): the authorize address the server answered. */
export async function startLink(person: TestClient, integration: Integration, returnTo?: string): Promise<URL> {
  const res = await person.post<{ authorizeUrl: string }>(`/api/account/links/${integration}/authorize`, returnTo ? { returnTo } : {});
  if (res.status !== 200) throw new Error(`authorize ${integration}: ${res.status} ${res.text}`);
  return new URL(res.body.authorizeUrl);
}

/** A code as if `accountId` had consented at the sandbox to the request `authorize` describes. */
export async function consentAt(
  sandbox: Sandbox,
  integration: Integration,
  authorize: URL,
  accountId: string,
  cloudId?: string,
): Promise<string> {
  const res = await fetch(`${sandbox.url}/__sandbox/oauth/codes`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      service: integration,
      accountId,
      redirectUri: authorize.searchParams.get("redirect_uri"),
      scope: authorize.searchParams.get("scope") ?? "",
      codeChallenge: authorize.searchParams.get("code_challenge"),
      ...(cloudId ? { cloudId } : {}),
    }),
  });
  if (res.status !== 200 && res.status !== 201) throw new Error(`sandbox code: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { code: string }).code;
}

/** Our callback as the browser reaches it (with `person`'s session): where it sends the browser. */
export async function callback(person: TestClient, integration: Integration, query: Record<string, string>): Promise<string> {
  const res = await person.get(`/api/account/links/${integration}/callback?${new URLSearchParams(query)}`);
  if (res.status !== 303) throw new Error(`callback: ${res.status} ${res.text}`);
  return res.headers.get("location") ?? "";
}

/** The whole link of `person` to the sandbox person `accountId`; fails unless it was linked. */
export async function link(person: TestClient, sandbox: Sandbox, integration: Integration, accountId: string): Promise<void> {
  const authorize = await startLink(person, integration);
  const code = await consentAt(sandbox, integration, authorize, accountId);
  const back = await callback(person, integration, { code, state: authorize.searchParams.get("state")! });
  if (!back.includes("linked=1")) throw new Error(`not linked: ${back}`);
}

export interface TokenRequestRecord {
  service: Integration;
  grantType: string;
  outcome: string;
  accountId: string | null;
}

/** Every token request the sandbox's authorization servers received, oldest first. */
export const oauthLog = async (sandbox: Sandbox): Promise<TokenRequestRecord[]> =>
  (await (await fetch(`${sandbox.url}/__sandbox/oauth/log`)).json()) as TokenRequestRecord[];

export const sandboxPost = (sandbox: Sandbox, path: string, body: unknown) =>
  fetch(`${sandbox.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
