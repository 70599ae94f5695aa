import { json, parseCredentials, type Reply, type Router, type SandboxRequest } from "../core/http";
import { authorizeErrorPage, consentPage, redirectTo, validRedirectUri } from "./consent";
import type { IdentityContext } from "./context";
import { formValue, oauthError, pickParams } from "./oauth-http";
import type { GrantError, TokenPair } from "./oauth-store";

/**
 * The imitated Atlassian authorization server (auth.atlassian.com) and identity API
 * (api.atlassian.com), on the sandbox's origin: the consent page at /authorize, the token
 * endpoint, the sites a grant opens, and who the grant is for.
 */

const APP_NAME = "Bridgekeeper";
const AUDIENCE = "api.atlassian.com";
const DENIED = "User did not authorize the request";
const SITE_NAME = "bridgekeeper-sandbox";
const SITE_AVATAR = "https://site-admin-avatar-cdn.prod.public.atl-paas.net/avatars/240/rocket.png";

/** The parameters of an authorization request, validated (or the reason it is refused). */
interface AuthorizeRequest {
  clientId: string;
  redirectUri: string;
  scope: string;
  state: string | undefined;
  codeChallenge: string | null;
  /** Posted back by the consent form. */
  hidden: Record<string, string>;
}

const PARAMS = [
  "audience",
  "client_id",
  "scope",
  "redirect_uri",
  "state",
  "response_type",
  "prompt",
  "code_challenge",
  "code_challenge_method",
];

function parseAuthorize(ctx: IdentityContext, get: (name: string) => string | undefined): AuthorizeRequest | string {
  if (get("client_id") !== ctx.accounts.atlassianApp.clientId) return "Invalid client_id: no such app is registered.";
  if (get("audience") !== AUDIENCE) return `The audience parameter must be ${AUDIENCE}.`;
  if (get("response_type") !== "code") return "The response_type parameter must be code.";
  const redirectUri = validRedirectUri(get("redirect_uri"));
  if (!redirectUri) return "The redirect_uri parameter must be an absolute http or https URL.";
  const scope = (get("scope") ?? "").trim();
  if (!scope) return "The scope parameter is required.";
  const codeChallenge = get("code_challenge") || null;
  if (codeChallenge && get("code_challenge_method") !== "S256") return "The code_challenge_method parameter must be S256.";
  const hidden = pickParams(get, PARAMS);
  return { clientId: ctx.accounts.atlassianApp.clientId, redirectUri, scope, state: get("state"), codeChallenge, hidden };
}

export function atlassianOAuthRoutes(router: Router, ctx: IdentityContext): void {
  const consent = (req: SandboxRequest, request: AuthorizeRequest, problem?: string) =>
    consentPage({
      title: `${APP_NAME} wants to access your Atlassian account`,
      action: "/authorize",
      hidden: request.hidden,
      scopes: request.scope.split(/\s+/),
      accounts: ctx.consentAccounts(),
      sites: [
        { cloudId: ctx.accounts.cloudId, label: req.origin },
        { cloudId: ctx.accounts.otherSite.cloudId, label: `${ctx.accounts.otherSite.url} (${ctx.accounts.otherSite.name})` },
      ],
      acceptLabel: "Accept",
      cancelLabel: "Cancel",
      problem,
    });

  router.get("/authorize", (req) => {
    const request = parseAuthorize(ctx, (name) => req.query.get(name) ?? undefined);
    return typeof request === "string" ? authorizeErrorPage(request) : consent(req, request);
  });

  router.post("/authorize", (req) => {
    const get = formValue(req);
    const request = parseAuthorize(ctx, get);
    if (typeof request === "string") return authorizeErrorPage(request);
    if (get("decision") !== "accept")
      return redirectTo(request.redirectUri, { error: "access_denied", error_description: DENIED, state: request.state });
    const accountId = get("account") ?? "";
    if (!ctx.auth.byAccount(accountId)) return consent(req, request, "Choose who you are.");
    const site = get("site") ?? ctx.accounts.cloudId;
    if (site !== ctx.accounts.cloudId && site !== ctx.accounts.otherSite.cloudId) return consent(req, request, "Choose a site.");
    const code = ctx.oauth.issueCode({
      service: "atlassian",
      clientId: request.clientId,
      accountId,
      redirectUri: request.redirectUri,
      scope: request.scope,
      codeChallenge: request.codeChallenge,
      cloudId: site,
    });
    return redirectTo(request.redirectUri, { code, state: request.state });
  });

  router.post("/oauth/token", (req) => {
    const get = formValue(req);
    const grantType = get("grant_type") ?? "";
    const done = (outcome: string, accountId: string | null, reply: Reply) => {
      ctx.oauth.log({ service: "atlassian", grantType, outcome, accountId });
      return reply;
    };
    if (grantType !== "authorization_code" && grantType !== "refresh_token")
      return done(
        "unsupported_grant_type",
        null,
        oauthError(400, "unsupported_grant_type", grantType ? `Unsupported grant type: ${grantType}` : "grant_type is required."),
      );
    const app = ctx.accounts.atlassianApp;
    if (get("client_id") !== app.clientId || get("client_secret") !== app.clientSecret)
      return done("access_denied", null, oauthError(401, "access_denied", "Unauthorized"));
    const secret = grantType === "authorization_code" ? get("code") : get("refresh_token");
    if (!secret)
      return done(
        "invalid_request",
        null,
        oauthError(400, "invalid_request", `${grantType === "authorization_code" ? "code" : "refresh_token"} is required.`),
      );
    const result: TokenPair | GrantError =
      grantType === "authorization_code"
        ? ctx.oauth.exchangeCode("atlassian", app.clientId, secret, get("redirect_uri"), get("code_verifier"))
        : ctx.oauth.refresh("atlassian", app.clientId, secret);
    if ("error" in result) return done(result.error, result.accountId, oauthError(403, result.error, result.description));
    return done(
      "ok",
      result.family.accountId,
      json(
        {
          access_token: result.accessToken,
          token_type: "Bearer",
          expires_in: result.expiresIn,
          refresh_token: result.refreshToken,
          scope: result.family.scope,
        },
        200,
        { "cache-control": "no-store" },
      ),
    );
  });

  /** The grant behind a Bearer 3LO access token, or the gateway's 401. */
  const granted = (req: SandboxRequest) => {
    const credentials = parseCredentials(req.headers.authorization);
    const family = credentials.kind === "bearer" ? ctx.oauth.access(credentials.token, "atlassian") : null;
    return family && family !== "expired" ? family : null;
  };
  const unauthorized = () => json({ code: 401, message: "Unauthorized" }, 401, { "www-authenticate": 'Bearer realm="api.atlassian.com"' });

  router.get("/oauth/token/accessible-resources", (req) => {
    const family = granted(req);
    if (!family) return unauthorized();
    const other = ctx.accounts.otherSite;
    const own = family.cloudId === ctx.accounts.cloudId;
    return json([
      {
        id: own ? ctx.accounts.cloudId : other.cloudId,
        url: own ? req.origin : other.url,
        name: own ? SITE_NAME : other.name,
        scopes: family.scope.split(/\s+/).filter(Boolean),
        avatarUrl: SITE_AVATAR,
      },
    ]);
  });

  router.get("/me", (req) => {
    const family = granted(req);
    if (!family) return unauthorized();
    const who = ctx.profile(family.accountId)!;
    return json({
      account_type: "atlassian",
      account_id: who.accountId,
      email: who.email,
      email_verified: true,
      name: who.displayName,
      picture: `${req.origin}/secure/useravatar?size=large&ownerId=${encodeURIComponent(who.accountId)}`,
      account_status: "active",
      nickname: who.nickname,
      locale: "en-US",
      extended_profile: {},
    });
  });
}
