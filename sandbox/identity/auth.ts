import type { Service } from "../core/errors";
import { parseCredentials } from "../core/http";
import type { SandboxCredentials } from "../credentials";
import { personCaller, SERVICE_CALLER, type Caller } from "./caller";
import { dataCenterOAuthService, type OAuthStore } from "./oauth-store";

/**
 * Who a request acts as, from its Authorization header. Site paths (`/rest`, `/wiki`) take the
 * service account's Basic credentials or bearer tokens, or a person's `email:apiToken`; Bitbucket
 * (`/2.0`) also the app password and a Bitbucket OAuth access token. The API gateway
 * (`/ex/{product}/{cloudId}/…`) takes only a 3LO access token issued for that site. An exact
 * header seen before is one map lookup (the common case, and the service account's).
 */

/** Why a request was refused: unauthenticated (401), or a site the sandbox does not host (404). */
export type Refusal = { status: 401 | 404; message: string };

export const UNAUTHENTICATED = "Client must be authenticated to access this resource.";
const EXPIRED = "Access token expired.";

const basic = (user: string, secret: string) => `Basic ${Buffer.from(`${user}:${secret}`).toString("base64")}`;

export interface Authenticator {
  /** The caller on a site path, or why not. */
  site(service: Service, authorization: string | undefined): Caller | Refusal;
  /** The caller on the API gateway for `cloudId`, or why not. */
  gateway(cloudId: string, authorization: string | undefined): Caller | Refusal;
  /**
   * The caller on a Data Center path (dc/…): Basic `username:password` or a personal access token
   * (bearer), the service account's or a person's; on Bitbucket also the HTTP access token; or an
   * access token from that server's own OAuth 2.0 provider.
   */
  dataCenter(service: Service, authorization: string | undefined): Caller | Refusal;
  /** The caller an OAuth grant for this account acts as (a person, or the service account). */
  byAccount(accountId: string): Caller | undefined;
}

export const isRefusal = (x: Caller | Refusal): x is Refusal => "status" in x;

export function createAuthenticator(accounts: SandboxCredentials, oauth: OAuthStore): Authenticator {
  const people = accounts.people.map((p) => ({ person: p, caller: personCaller(p), email: p.email.toLowerCase() }));
  const byAccount = new Map<string, Caller>([[accounts.atlassian.accountId, SERVICE_CALLER]]);
  for (const p of people) byAccount.set(p.person.accountId, p.caller);

  // Exact headers, per service.
  const atlassian = new Map<string, Caller>();
  atlassian.set(basic(accounts.atlassian.email, accounts.atlassian.apiToken), SERVICE_CALLER);
  for (const t of accounts.bearerTokens) atlassian.set(`Bearer ${t}`, SERVICE_CALLER);
  for (const p of people) atlassian.set(basic(p.person.email, p.person.apiToken), p.caller);
  const bitbucket = new Map(atlassian);
  bitbucket.set(basic(accounts.bitbucket.username, accounts.bitbucket.appPassword), SERVICE_CALLER);
  const exact: Record<Service, Map<string, Caller>> = { jira: atlassian, confluence: atlassian, bitbucket };

  const serviceEmail = accounts.atlassian.email.toLowerCase();
  /** `email:apiToken` with the email in any case, as Atlassian accepts it. */
  const byEmail = (user: string, secret: string): Caller | undefined => {
    const email = user.toLowerCase();
    if (email === serviceEmail && secret === accounts.atlassian.apiToken) return SERVICE_CALLER;
    return people.find((p) => p.email === email && p.person.apiToken === secret)?.caller;
  };

  const refused: Refusal = { status: 401, message: UNAUTHENTICATED };

  // Data Center: usernames (case-insensitive, as DC's directories are) and tokens.
  const dc = accounts.dataCenter;
  const dcExact = new Map<string, Caller>([
    [basic(dc.username, dc.password), SERVICE_CALLER],
    [`Bearer ${dc.personalAccessToken}`, SERVICE_CALLER],
  ]);
  for (const p of people) {
    dcExact.set(basic(p.person.nickname, p.person.apiToken), p.caller);
    dcExact.set(`Bearer ${p.person.personalAccessToken}`, p.caller);
  }
  const dcBitbucket = new Map(dcExact).set(`Bearer ${dc.httpAccessToken}`, SERVICE_CALLER);
  const dcByUsername = (user: string, secret: string): Caller | undefined => {
    const name = user.toLowerCase();
    if (name === dc.username.toLowerCase() && secret === dc.password) return SERVICE_CALLER;
    return people.find((p) => p.person.nickname.toLowerCase() === name && p.person.apiToken === secret)?.caller;
  };

  return {
    site(service, authorization) {
      if (authorization === undefined) return refused;
      const hit = exact[service].get(authorization);
      if (hit) return hit;
      const credentials = parseCredentials(authorization);
      if (credentials.kind === "basic") return byEmail(credentials.user, credentials.secret) ?? refused;
      // A Bitbucket OAuth access token opens Bitbucket; a 3LO token opens no site path (only the gateway).
      if (credentials.kind === "bearer" && service === "bitbucket") {
        const family = oauth.access(credentials.token, "bitbucket");
        if (family === "expired") return { status: 401, message: EXPIRED };
        if (family) return byAccount.get(family.accountId) ?? refused;
      }
      return refused;
    },

    gateway(cloudId, authorization) {
      const credentials = parseCredentials(authorization);
      if (credentials.kind !== "bearer") return refused;
      const family = oauth.access(credentials.token, "atlassian");
      if (family === "expired") return { status: 401, message: EXPIRED };
      if (!family) return refused;
      if (cloudId !== accounts.cloudId) return { status: 404, message: `No site with cloud id ${cloudId} is served here.` };
      if (family.cloudId !== cloudId) return { status: 401, message: "The access token was not granted for this site." };
      return byAccount.get(family.accountId) ?? refused;
    },

    dataCenter(service, authorization) {
      if (authorization === undefined) return refused;
      const hit = (service === "bitbucket" ? dcBitbucket : dcExact).get(authorization);
      if (hit) return hit;
      const credentials = parseCredentials(authorization);
      if (credentials.kind === "basic") return dcByUsername(credentials.user, credentials.secret) ?? refused;
      // An access token from this server's own OAuth 2.0 provider (never another server's, nor a Cloud one).
      if (credentials.kind === "bearer") {
        const family = oauth.access(credentials.token, dataCenterOAuthService(service));
        if (family === "expired") return { status: 401, message: EXPIRED };
        if (family) return byAccount.get(family.accountId) ?? refused;
      }
      return refused;
    },

    byAccount: (accountId) => byAccount.get(accountId),
  };
}

/**
 * An API gateway path: `/ex/jira/{cloudId}/rest/…` or `/ex/confluence/{cloudId}/wiki/…`, as the
 * cloud id and the site path it stands for; null for any other path.
 */
export function gatewayPath(path: string): { cloudId: string; inner: string } | null {
  const m = /^\/ex\/(jira|confluence)\/([^/]+)(\/.*)$/.exec(path);
  if (!m) return null;
  const inner = m[3]!;
  if (!inner.startsWith(m[1] === "jira" ? "/rest/" : "/wiki/")) return null;
  return { cloudId: m[2]!, inner };
}
