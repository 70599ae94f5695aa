import type { CredentialKind, Integration } from "../../../contract/accounts";
import type { LinkSecret } from "../../db/schema";
import { SERVICE_NAMES, UpstreamError, type UpstreamService } from "../../upstream/errors";
import { basicAuthorization as basic, type UpstreamHttp, type UpstreamTarget } from "../../upstream/http";
import { serviceUrl, type Site } from "../integrations/sites";

/**
 * The services' authorization servers as Bridgekeeper uses them to link a person's account
 * (issue 27): Atlassian's OAuth 2.0 (3LO) with its API gateway, and Bitbucket's OAuth consumer
 * flow. Every address is configurable (ATLASSIAN_AUTH_URL, ATLASSIAN_API_URL, BITBUCKET_AUTH_URL,
 * BITBUCKET_API_URL), so the sandbox stands in for them in tests and the demo.
 */
export interface ProviderEndpoints {
  atlassianAuthUrl: string;
  atlassianApiUrl: string;
  bitbucketAuthUrl: string;
  bitbucketApiUrl: string;
}

export interface OAuthApp {
  clientId: string;
  clientSecret: string;
}

export interface GrantedTokens {
  accessToken: string;
  refreshToken: string | null;
  /** Seconds the access token lives. */
  expiresIn: number;
  scopes: string[];
}

/** A token endpoint's answer: the tokens, or OAuth's error code (`invalid_grant`: the grant is gone, link again). */
export type TokenAnswer = { ok: true; tokens: GrantedTokens } | { ok: false; error: string; description: string | null };

export interface LinkedAccount {
  accountId: string;
  displayName: string;
  email: string | null;
}

/**
 * The Atlassian scopes each service's tools need: Jira's classic scopes with Jira Software's for
 * boards and sprints, Confluence's granular ones for its REST v2 and its CQL search, who the
 * person is (`read:me`), and `offline_access` for a refresh token.
 */
export const ATLASSIAN_SCOPES: Record<"jira" | "confluence" | "always", readonly string[]> = {
  always: ["read:me", "offline_access"],
  jira: [
    "read:jira-work",
    "write:jira-work",
    "read:jira-user",
    "read:board-scope:jira-software",
    "read:sprint:jira-software",
    "write:sprint:jira-software",
  ],
  confluence: [
    "read:page:confluence",
    "write:page:confluence",
    "read:space:confluence",
    "read:comment:confluence",
    "write:comment:confluence",
    "read:attachment:confluence",
    "read:label:confluence",
    "read:hierarchical-content:confluence",
    "read:confluence-content.all",
    "search:confluence",
  ],
};

const DELETE_SCOPES = ["delete:page:confluence"];

/** The scopes a link asks for: every tool's, and deleting pages only while destructive tools are on. */
export const atlassianScopes = (destructive: boolean): string[] => [
  ...ATLASSIAN_SCOPES.jira,
  ...ATLASSIAN_SCOPES.confluence,
  ...(destructive ? DELETE_SCOPES : []),
  ...ATLASSIAN_SCOPES.always,
];

/**
 * What each Data Center server's incoming application link is asked for (issue 28 item 7): writing,
 * since the tools change issues, pages and pull requests. The link's own permission must be at
 * least this (README, Data Center); a person's grant never does more than the person may.
 */
export const DATA_CENTER_SCOPES: Record<UpstreamService, string> = { jira: "WRITE", confluence: "WRITE", bitbucket: "REPO_WRITE" };

/** Data Center's OAuth 2.0 provider, on each server: `{base}/rest/oauth2/latest/{authorize,token}`. */
const dataCenterOAuthUrl = (baseUrl: string, endpoint: "authorize" | "token") =>
  `${baseUrl.replace(/\/+$/, "")}/rest/oauth2/latest/${endpoint}`;

const text = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);
/** The service an integration's failures are named by. */
export const SERVICE_OF: Record<Integration, UpstreamService> = { atlassian: "jira", bitbucket: "bitbucket" };

function tokenAnswer(status: number, json: unknown): TokenAnswer {
  const body = (json ?? {}) as Record<string, unknown>;
  const accessToken = text(body.access_token);
  if (status >= 200 && status < 300 && accessToken) {
    const scopes = text(body.scope) ?? text(body.scopes) ?? "";
    return {
      ok: true,
      tokens: {
        accessToken,
        refreshToken: text(body.refresh_token),
        expiresIn: typeof body.expires_in === "number" && body.expires_in > 0 ? body.expires_in : 3600,
        scopes: scopes.split(/[\s,]+/).filter(Boolean),
      },
    };
  }
  return { ok: false, error: text(body.error) ?? `http_${status}`, description: text(body.error_description) };
}

export function createProviders(http: UpstreamHttp, endpoints: ProviderEndpoints) {
  const atlassian = {
    authorizeUrl(input: { app: OAuthApp; redirectUri: string; state: string; challenge: string; scopes: string[] }): string {
      const url = new URL("/authorize", endpoints.atlassianAuthUrl);
      url.search = new URLSearchParams({
        audience: "api.atlassian.com",
        client_id: input.app.clientId,
        scope: input.scopes.join(" "),
        redirect_uri: input.redirectUri,
        state: input.state,
        response_type: "code",
        prompt: "consent",
        code_challenge: input.challenge,
        code_challenge_method: "S256",
      }).toString();
      return url.toString();
    },

    async token(body: Record<string, string>): Promise<TokenAnswer> {
      const res = await http.exchange("jira", {
        url: `${endpoints.atlassianAuthUrl}/oauth/token`,
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return tokenAnswer(res.status, res.json);
    },

    /** Which site the grant is for (accessible-resources) and who the person is (/me). */
    async identify(accessToken: string): Promise<{ sites: { cloudId: string; url: string }[]; account: LinkedAccount | null }> {
      const headers = { authorization: `Bearer ${accessToken}` };
      const [resources, me] = await Promise.all([
        http.exchange("jira", { method: "GET", url: `${endpoints.atlassianApiUrl}/oauth/token/accessible-resources`, headers }),
        http.exchange("jira", { method: "GET", url: `${endpoints.atlassianApiUrl}/me`, headers }),
      ]);
      const sites = Array.isArray(resources.json)
        ? (resources.json as Record<string, unknown>[]).flatMap((r) => {
            const cloudId = text(r.id);
            const url = text(r.url);
            return cloudId && url ? [{ cloudId, url: url.replace(/\/+$/, "") }] : [];
          })
        : [];
      const m = (me.status === 200 ? me.json : null) as Record<string, unknown> | null;
      const accountId = text(m?.account_id);
      const account = accountId ? { accountId, displayName: text(m?.name) ?? accountId, email: text(m?.email) } : null;
      return { sites, account };
    },
  };

  const bitbucket = {
    authorizeUrl(input: { app: OAuthApp; redirectUri: string; state: string; challenge: string }): string {
      const url = new URL("/site/oauth2/authorize", endpoints.bitbucketAuthUrl);
      url.search = new URLSearchParams({
        client_id: input.app.clientId,
        response_type: "code",
        state: input.state,
        redirect_uri: input.redirectUri,
        code_challenge: input.challenge,
        code_challenge_method: "S256",
      }).toString();
      return url.toString();
    },

    async token(app: OAuthApp, body: Record<string, string>): Promise<TokenAnswer> {
      const res = await http.exchange("bitbucket", {
        url: `${endpoints.bitbucketAuthUrl}/site/oauth2/access_token`,
        headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic(app.clientId, app.clientSecret) },
        body: new URLSearchParams(body).toString(),
      });
      return tokenAnswer(res.status, res.json);
    },

    /** Bitbucket's /user as the token's holder. */
    async identify(authorization: string): Promise<LinkedAccount | null> {
      const res = await http.exchange("bitbucket", { method: "GET", url: `${endpoints.bitbucketApiUrl}/user`, headers: { authorization } });
      if (res.status !== 200) return null;
      const u = (res.json ?? {}) as Record<string, unknown>;
      const accountId = text(u.account_id) ?? text(u.uuid);
      return accountId ? { accountId, displayName: text(u.display_name) ?? text(u.nickname) ?? accountId, email: null } : null;
    },
  };

  /**
   * Jira, Confluence and Bitbucket Data Center as OAuth 2.0 providers (incoming application links):
   * each server its own, the app's credentials in the form, PKCE, and `redirect_uri` on the refresh
   * grant as well (Data Center checks it there too).
   */
  const dataCenter = {
    authorizeUrl(input: {
      service: UpstreamService;
      baseUrl: string;
      app: OAuthApp;
      redirectUri: string;
      state: string;
      challenge: string;
    }): string {
      const url = new URL(dataCenterOAuthUrl(input.baseUrl, "authorize"));
      url.search = new URLSearchParams({
        client_id: input.app.clientId,
        redirect_uri: input.redirectUri,
        response_type: "code",
        scope: DATA_CENTER_SCOPES[input.service],
        state: input.state,
        code_challenge: input.challenge,
        code_challenge_method: "S256",
      }).toString();
      return url.toString();
    },

    async token(service: UpstreamService, baseUrl: string, app: OAuthApp, body: Record<string, string>): Promise<TokenAnswer> {
      const res = await http.exchange(service, {
        url: dataCenterOAuthUrl(baseUrl, "token"),
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ client_id: app.clientId, client_secret: app.clientSecret, ...body }).toString(),
      });
      return tokenAnswer(res.status, res.json);
    },

    exchangeCode(
      service: UpstreamService,
      baseUrl: string,
      app: OAuthApp,
      input: { code: string; redirectUri: string; verifier: string },
    ): Promise<TokenAnswer> {
      return dataCenter.token(service, baseUrl, app, {
        grant_type: "authorization_code",
        code: input.code,
        redirect_uri: input.redirectUri,
        code_verifier: input.verifier,
      });
    },

    /** A refresh: the answer's refresh token replaces the old one (Data Center rotates them). */
    refresh(service: UpstreamService, baseUrl: string, app: OAuthApp, refreshToken: string, redirectUri: string): Promise<TokenAnswer> {
      return dataCenter.token(service, baseUrl, app, {
        grant_type: "refresh_token",
        refresh_token: refreshToken,
        redirect_uri: redirectUri,
      });
    },
  };

  return {
    endpoints,
    atlassian,
    bitbucket,
    dataCenter,

    /** Exchanges an authorization code (with its PKCE verifier) for tokens. */
    exchangeCode(
      integration: Integration,
      app: OAuthApp,
      input: { code: string; redirectUri: string; verifier: string },
    ): Promise<TokenAnswer> {
      return integration === "atlassian"
        ? atlassian.token({
            grant_type: "authorization_code",
            client_id: app.clientId,
            client_secret: app.clientSecret,
            code: input.code,
            redirect_uri: input.redirectUri,
            code_verifier: input.verifier,
          })
        : bitbucket.token(app, {
            grant_type: "authorization_code",
            code: input.code,
            redirect_uri: input.redirectUri,
            code_verifier: input.verifier,
          });
    },

    /** A refresh (Atlassian rotates the refresh token: the answer's replaces it; Bitbucket's may stay). */
    refresh(integration: Integration, app: OAuthApp, refreshToken: string): Promise<TokenAnswer> {
      return integration === "atlassian"
        ? atlassian.token({
            grant_type: "refresh_token",
            client_id: app.clientId,
            client_secret: app.clientSecret,
            refresh_token: refreshToken,
          })
        : bitbucket.token(app, { grant_type: "refresh_token", refresh_token: refreshToken });
    },

    /**
     * Where a linked account's calls go and how they authenticate. Atlassian's 3LO tokens work only
     * through the API gateway (`/ex/jira/{cloudId}`, `/ex/confluence/{cloudId}/wiki`); a personal
     * API token goes to the site itself, as the shared account does.
     */
    target(link: { kind: string; cloudId: string | null }, secret: LinkSecret, service: UpstreamService, site: Site): UpstreamTarget {
      if ("grants" in secret) {
        // Data Center's OAuth: each server granted apart (Confluence's link may have been set up after this one).
        const grant = secret.grants[service];
        if (!grant)
          throw new UpstreamError(
            service,
            "identity",
            `Your linked account has no grant for ${SERVICE_NAMES[service]}: link your account again to allow it`,
          );
        return { baseUrl: serviceUrl(site, service), authorization: `Bearer ${grant.accessToken}`, deployment: site.deployment };
      }
      if ("personalAccessTokens" in secret) {
        // Data Center: each server its own token; a server the person gave none for is theirs to link.
        const token = secret.personalAccessTokens[service];
        if (!token)
          throw new UpstreamError(
            service,
            "identity",
            `Your linked account has no personal access token for ${SERVICE_NAMES[service]}: link your account again with one`,
          );
        return { baseUrl: serviceUrl(site, service), authorization: `Bearer ${token}`, deployment: site.deployment };
      }
      const authorization = "accessToken" in secret ? `Bearer ${secret.accessToken}` : basic(secret.email, secret.apiToken);
      if (service === "bitbucket") return { baseUrl: serviceUrl(site, "bitbucket"), authorization, deployment: site.deployment };
      if (link.kind === "atlassian-oauth") {
        if (!link.cloudId) throw new UpstreamError(service, "not_configured", "The linked Atlassian account has no site");
        return {
          baseUrl:
            service === "confluence"
              ? `${endpoints.atlassianApiUrl}/ex/confluence/${link.cloudId}/wiki`
              : `${endpoints.atlassianApiUrl}/ex/jira/${link.cloudId}`,
          authorization,
        };
      }
      return { baseUrl: serviceUrl(site, service), authorization, deployment: site.deployment };
    },
  };
}

export type Providers = ReturnType<typeof createProviders>;

/** The credential kind an integration's OAuth link or pasted token is stored as. */
export const kindOf = (integration: Integration, how: LinkHow): CredentialKind => `${integration}-${how}`;
export type LinkHow = "oauth" | "api-token" | "dc-token" | "dc-oauth";
