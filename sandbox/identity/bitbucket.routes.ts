import { json, parseCredentials, type Reply, type Router } from "../core/http";
import { authorizeErrorPage, consentPage, redirectTo, validRedirectUri } from "./consent";
import type { IdentityContext } from "./context";
import { formValue, oauthError, pickParams } from "./oauth-http";

/**
 * The imitated Bitbucket OAuth consumer flow (bitbucket.org/site/oauth2/…): a consent page, and
 * the token endpoint (form-encoded, the consumer's key and secret by HTTP Basic or in the form).
 * Refresh tokens do not rotate; access tokens live two hours unless configured otherwise.
 */

const CONSUMER_NAME = "Bridgekeeper";
export const BITBUCKET_SCOPES = "account email repository repository:write pullrequest pullrequest:write";
const DENIED = "The user denied the request";

interface AuthorizeRequest {
  clientId: string;
  /** As given (null: the consumer's callback URL is used, and the token request must not name one). */
  redirectUri: string | null;
  target: string;
  state: string | undefined;
  codeChallenge: string | null;
  hidden: Record<string, string>;
}

const PARAMS = ["client_id", "response_type", "state", "redirect_uri", "scope", "code_challenge", "code_challenge_method"];

function parseAuthorize(ctx: IdentityContext, get: (name: string) => string | undefined): AuthorizeRequest | string {
  const consumer = ctx.accounts.bitbucketConsumer;
  if (get("client_id") !== consumer.key) return "Invalid client_id: no such OAuth consumer.";
  if (get("response_type") !== "code") return "The response_type parameter must be code.";
  const given = get("redirect_uri");
  const redirectUri = given === undefined ? null : validRedirectUri(given);
  if (given !== undefined && !redirectUri) return "The redirect_uri parameter must be an absolute http or https URL.";
  const target = redirectUri ?? validRedirectUri(consumer.callbackUrl);
  if (!target) return "The consumer has no callback URL: give a redirect_uri.";
  const codeChallenge = get("code_challenge") || null;
  if (codeChallenge && get("code_challenge_method") !== "S256") return "The code_challenge_method parameter must be S256.";
  const hidden = pickParams(get, PARAMS);
  return { clientId: consumer.key, redirectUri, target, state: get("state"), codeChallenge, hidden };
}

export function bitbucketOAuthRoutes(router: Router, ctx: IdentityContext): void {
  const consent = (request: AuthorizeRequest, problem?: string) =>
    consentPage({
      title: `${CONSUMER_NAME} is requesting access to your Bitbucket account`,
      action: "/site/oauth2/authorize",
      hidden: request.hidden,
      scopes: BITBUCKET_SCOPES.split(" "),
      accounts: ctx.consentAccounts(),
      acceptLabel: "Grant access",
      cancelLabel: "Deny",
      problem,
    });

  router.get("/site/oauth2/authorize", (req) => {
    const request = parseAuthorize(ctx, (name) => req.query.get(name) ?? undefined);
    return typeof request === "string" ? authorizeErrorPage(request) : consent(request);
  });

  router.post("/site/oauth2/authorize", (req) => {
    const get = formValue(req);
    const request = parseAuthorize(ctx, get);
    if (typeof request === "string") return authorizeErrorPage(request);
    if (get("decision") !== "accept")
      return redirectTo(request.target, { error: "access_denied", error_description: DENIED, state: request.state });
    const accountId = get("account") ?? "";
    if (!ctx.auth.byAccount(accountId)) return consent(request, "Choose who you are.");
    const code = ctx.oauth.issueCode({
      service: "bitbucket",
      clientId: request.clientId,
      accountId,
      redirectUri: request.redirectUri,
      scope: BITBUCKET_SCOPES,
      codeChallenge: request.codeChallenge,
      cloudId: null,
    });
    return redirectTo(request.target, { code, state: request.state });
  });

  router.post("/site/oauth2/access_token", (req) => {
    const get = formValue(req);
    const grantType = get("grant_type") ?? "";
    const done = (outcome: string, accountId: string | null, reply: Reply) => {
      ctx.oauth.log({ service: "bitbucket", grantType, outcome, accountId });
      return reply;
    };
    const consumer = ctx.accounts.bitbucketConsumer;
    const basic = parseCredentials(req.headers.authorization);
    const [key, secret] = basic.kind === "basic" ? [basic.user, basic.secret] : [get("client_id"), get("client_secret")];
    if (key !== consumer.key || secret !== consumer.secret)
      return done("invalid_client", null, oauthError(401, "invalid_client", "Invalid OAuth client credentials"));
    if (grantType !== "authorization_code" && grantType !== "refresh_token")
      return done(
        "unsupported_grant_type",
        null,
        oauthError(400, "unsupported_grant_type", grantType ? `Unsupported grant type: ${grantType}` : "Missing grant_type parameter"),
      );
    const value = grantType === "authorization_code" ? get("code") : get("refresh_token");
    if (!value)
      return done(
        "invalid_request",
        null,
        oauthError(400, "invalid_request", `Missing ${grantType === "authorization_code" ? "code" : "refresh_token"} parameter`),
      );
    const result =
      grantType === "authorization_code"
        ? ctx.oauth.exchangeCode("bitbucket", consumer.key, value, get("redirect_uri"), get("code_verifier"))
        : ctx.oauth.refresh("bitbucket", consumer.key, value);
    if ("error" in result) return done(result.error, result.accountId, oauthError(400, result.error, result.description));
    return done(
      "ok",
      result.family.accountId,
      json(
        {
          access_token: result.accessToken,
          token_type: "bearer",
          expires_in: result.expiresIn,
          refresh_token: result.refreshToken,
          scopes: result.family.scope,
          state: grantType,
        },
        200,
        { "cache-control": "no-store" },
      ),
    );
  });
}
