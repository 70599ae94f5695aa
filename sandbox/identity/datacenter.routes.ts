import { DC_CONTEXT } from "../core/datacenter";
import type { Service } from "../core/errors";
import type { Reply, Router, SandboxRequest } from "../core/http";
import { authorizeErrorPage, consentPage, redirectTo, validRedirectUri } from "./consent";
import type { IdentityContext } from "./context";
import { formValue, oauthError, pickParams, queryValue, tokenReply, type ParamReader } from "./oauth-http";
import { dataCenterOAuthService, type ChallengeMethod } from "./oauth-store";

/**
 * Each Data Center server's own OAuth 2.0 provider (Jira 8.22+, Confluence 7.12+, Bitbucket 7.20+),
 * for an app registered as an incoming application link: the consent page at
 * `{context}/rest/oauth2/latest/authorize` and the token endpoint at `{context}/rest/oauth2/latest/token`
 * (parameters in the form body or, as Atlassian's DC docs show them, the query string). The tokens
 * open that server's API paths only (auth.ts); the rules (no rotation leeway, redirect_uri on the
 * refresh grant) are in oauth-store.ts.
 */

const APP_NAME = "Bridgekeeper";
const PRODUCT: Record<Service, string> = { jira: "Jira", confluence: "Confluence", bitbucket: "Bitbucket" };
const SERVICES = Object.keys(DC_CONTEXT) as Service[];

const ATLASSIAN_SCOPES = ["READ", "WRITE", "ADMIN", "SYSTEM_ADMIN"];
/** The scopes each server knows. */
export const DC_SCOPES: Readonly<Record<Service, readonly string[]>> = {
  jira: ATLASSIAN_SCOPES,
  confluence: ATLASSIAN_SCOPES,
  bitbucket: ["PUBLIC_REPOS", "ACCOUNT_WRITE", "REPO_READ", "REPO_WRITE", "REPO_ADMIN", "PROJECT_ADMIN", "ADMIN", "SYSTEM_ADMIN"],
};
/** The application link's scope, taken when a request names none. */
export const DC_DEFAULT_SCOPE: Readonly<Record<Service, string>> = { jira: "WRITE", confluence: "WRITE", bitbucket: "REPO_WRITE" };

/** The scope asked for (space-separated, each one the server knows), the link's when none; null when one is unknown. */
export function dataCenterScope(service: Service, raw: string | null | undefined): string | null {
  const scopes = (raw ?? "").trim().split(/\s+/).filter(Boolean);
  if (scopes.length === 0) return DC_DEFAULT_SCOPE[service];
  return scopes.every((s) => DC_SCOPES[service].includes(s)) ? scopes.join(" ") : null;
}

/** The provider's paths under a server's context path. */
export const dataCenterOAuthPath = (service: Service, endpoint: "authorize" | "token") =>
  `${DC_CONTEXT[service]}/rest/oauth2/latest/${endpoint}`;

/** The parameters of an authorization request, validated (or the reason it is refused). */
interface AuthorizeRequest {
  clientId: string;
  redirectUri: string;
  scope: string;
  state: string | undefined;
  codeChallenge: string | null;
  codeChallengeMethod: ChallengeMethod;
  /** Posted back by the consent form. */
  hidden: Record<string, string>;
}

const PARAMS = ["client_id", "redirect_uri", "response_type", "scope", "state", "code_challenge", "code_challenge_method"];

function parseAuthorize(ctx: IdentityContext, service: Service, get: ParamReader): AuthorizeRequest | string {
  const client = ctx.accounts.dataCenter.oauthClients[service];
  if (get("client_id") !== client.clientId) return "Invalid client_id: no application link is registered with it.";
  if (get("response_type") !== "code") return "The response_type parameter must be code.";
  const redirectUri = validRedirectUri(get("redirect_uri"));
  if (!redirectUri) return "The redirect_uri parameter must be an absolute http or https URL without a fragment.";
  const scope = dataCenterScope(service, get("scope"));
  if (!scope) return `Invalid scope: ${PRODUCT[service]} knows ${DC_SCOPES[service].join(", ")}.`;
  const codeChallenge = get("code_challenge") || null;
  const method = get("code_challenge_method");
  if (codeChallenge && method !== "S256" && method !== "plain") return "The code_challenge_method parameter must be S256 or plain.";
  return {
    clientId: client.clientId,
    redirectUri,
    scope,
    state: get("state"),
    codeChallenge,
    codeChallengeMethod: method === "plain" ? "plain" : "S256",
    hidden: pickParams(get, PARAMS),
  };
}

export function dataCenterOAuthRoutes(router: Router, ctx: IdentityContext): void {
  for (const service of SERVICES) serverRoutes(router, ctx, service);
}

function serverRoutes(router: Router, ctx: IdentityContext, service: Service): void {
  const oauthService = dataCenterOAuthService(service);
  const authorizePath = dataCenterOAuthPath(service, "authorize");

  const consent = (request: AuthorizeRequest, problem?: string) =>
    consentPage({
      title: `Allow ${APP_NAME} to access your ${PRODUCT[service]} account?`,
      action: authorizePath,
      hidden: request.hidden,
      scopes: request.scope.split(" "),
      accounts: ctx.dataCenterConsentAccounts(),
      acceptLabel: "Allow",
      cancelLabel: "Deny",
      problem,
    });

  router.get(authorizePath, (req) => {
    const request = parseAuthorize(ctx, service, queryValue(req));
    return typeof request === "string" ? authorizeErrorPage(request) : consent(request);
  });

  router.post(authorizePath, (req) => {
    const get = formValue(req);
    const request = parseAuthorize(ctx, service, get);
    if (typeof request === "string") return authorizeErrorPage(request);
    if (get("decision") !== "accept") return redirectTo(request.redirectUri, { error: "access_denied", state: request.state });
    const accountId = get("account") ?? "";
    if (!ctx.auth.byAccount(accountId)) return consent(request, "Choose who you are.");
    const code = ctx.oauth.issueCode({
      service: oauthService,
      clientId: request.clientId,
      accountId,
      redirectUri: request.redirectUri,
      scope: request.scope,
      codeChallenge: request.codeChallenge,
      codeChallengeMethod: request.codeChallengeMethod,
      cloudId: null,
    });
    return redirectTo(request.redirectUri, { code, state: request.state });
  });

  router.post(dataCenterOAuthPath(service, "token"), (req: SandboxRequest) => {
    const body = formValue(req);
    const query = queryValue(req);
    const get: ParamReader = (name) => body(name) ?? query(name);
    const grantType = get("grant_type") ?? "";
    const done = (outcome: string, accountId: string | null, reply: Reply) => {
      ctx.oauth.log({ service: oauthService, grantType, outcome, accountId });
      return reply;
    };
    const client = ctx.accounts.dataCenter.oauthClients[service];
    if (get("client_id") !== client.clientId || get("client_secret") !== client.clientSecret)
      return done(
        "invalid_client",
        null,
        oauthError(401, "invalid_client", "Client authentication failed: unknown client or wrong secret."),
      );
    if (!grantType) return done("invalid_request", null, oauthError(400, "invalid_request", "The grant_type parameter is required."));
    if (grantType !== "authorization_code" && grantType !== "refresh_token")
      return done("unsupported_grant_type", null, oauthError(400, "unsupported_grant_type", `Unsupported grant type: ${grantType}`));
    const required = grantType === "authorization_code" ? ["code", "redirect_uri"] : ["refresh_token"];
    const missing = required.find((name) => !get(name));
    if (missing) return done("invalid_request", null, oauthError(400, "invalid_request", `The ${missing} parameter is required.`));
    const result =
      grantType === "authorization_code"
        ? ctx.oauth.exchangeCode(oauthService, client.clientId, get("code")!, get("redirect_uri"), get("code_verifier"))
        : ctx.oauth.refresh(oauthService, client.clientId, get("refresh_token")!, get("redirect_uri"));
    if ("error" in result) return done(result.error, result.accountId, oauthError(400, result.error, result.description));
    return done(
      "ok",
      result.family.accountId,
      tokenReply({
        access_token: result.accessToken,
        token_type: "bearer",
        expires_in: result.expiresIn,
        refresh_token: result.refreshToken,
        scope: result.family.scope,
      }),
    );
  });
}
