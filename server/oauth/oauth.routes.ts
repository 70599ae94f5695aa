import { authorizationHandler } from "@modelcontextprotocol/sdk/server/auth/handlers/authorize.js";
import { metadataHandler } from "@modelcontextprotocol/sdk/server/auth/handlers/metadata.js";
import { revocationHandler } from "@modelcontextprotocol/sdk/server/auth/handlers/revoke.js";
import { tokenHandler } from "@modelcontextprotocol/sdk/server/auth/handlers/token.js";
import {
  InvalidRequestError,
  OAuthError,
  TooManyRequestsError,
  UnauthorizedClientError,
} from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { OAuthServerProvider } from "@modelcontextprotocol/sdk/server/auth/provider.js";
import type { OAuthMetadata, OAuthProtectedResourceMetadata } from "@modelcontextprotocol/sdk/shared/auth.js";
import express, { Router, type ErrorRequestHandler, type RequestHandler, type Response } from "express";
import { memoryLimits, type Limits } from "../lib/limits";
import { OAUTH_SCOPES } from "../../contract/oauth";
import { findUnsafeText } from "../../contract/text";
import type { OAuthClientsService } from "../modules/oauth/oauth-clients.service";
import type { OAuthClient, OAuthTokensService } from "../modules/oauth/oauth-tokens.service";
import { retryAfter } from "../lib/app-error";
import { authenticateClient } from "./client-auth";
import { sendOAuthError } from "./oauth-error";
import { registrationHandler } from "./registration";

export interface OAuthRoutesOptions {
  provider: OAuthServerProvider;
  clients: OAuthClientsService;
  tokens: OAuthTokensService;
  issuer: string;
  dynamicRegistration: boolean;
  /** Whether https client ids (Client ID Metadata Documents) are accepted. */
  metadataDocuments: boolean;
  /** docs/decisions.md#rate-limits: requests per window per IP on the OAuth endpoints. */
  rateLimit: { requests: number; windowMinutes: number };
  /** Where the limit counts (shared by instances on PostgreSQL or Redis); in memory when absent. */
  limits?: Limits;
}

export const PROTECTED_RESOURCE_METADATA_PATH = "/.well-known/oauth-protected-resource";

/** RFC 8414 metadata of this authorization server. */
export function authorizationServerMetadata(
  issuer: string,
  dynamicRegistration: boolean,
  metadataDocuments = false,
): OAuthMetadata & { client_id_metadata_document_supported?: boolean } {
  const authMethods = ["client_secret_basic", "client_secret_post", "none"];
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    ...(dynamicRegistration ? { registration_endpoint: `${issuer}/oauth/register` } : {}),
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token", "client_credentials"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: authMethods,
    revocation_endpoint_auth_methods_supported: authMethods,
    scopes_supported: [...OAUTH_SCOPES],
    authorization_response_iss_parameter_supported: true,
    ...(metadataDocuments ? { client_id_metadata_document_supported: true } : {}),
  };
}

/** docs/decisions.md#rate-limits: OAuth endpoints, N requests per window per IP; 429 with Retry-After. */
function oauthRateLimit(options: OAuthRoutesOptions["rateLimit"], store: Limits): RequestHandler {
  const limiter = store.create({ keyPrefix: "oauth", points: options.requests, duration: options.windowMinutes * 60 });
  return (req, res, next) => {
    limiter.consume(req.ip ?? "unknown").then(
      () => next(),
      (rejection: { msBeforeNext?: number }) => {
        res.set(retryAfter(rejection.msBeforeNext ?? 1000));
        sendOAuthError(res, 429, new TooManyRequestsError("Too many OAuth requests from this address; try again later"));
      },
    );
  };
}

const LOOPBACK_AUTHORITY = /^(http:\/\/(?:127\.0\.0\.1|\[::1\]|localhost))(?::\d{1,5})?(?=\/)/;

/**
 * OAuth 2.1 §2.3.1 / RFC 9700 §4.1.3: a redirect URI is compared with the registered ones as a
 * string; only a loopback one may differ, and only in its port (RFC 8252 §7.3). The SDK's own
 * check compares loopback URIs after URL parsing, which lets userinfo, a fragment or dot segments
 * through, so this stricter one runs first.
 */
export function redirectUriRegistered(requested: string, registered: readonly string[]): boolean {
  if (requested.includes("#")) return false;
  const withoutPort = (uri: string) => uri.replace(LOOPBACK_AUTHORITY, "$1");
  return registered.some(
    (r) =>
      r === requested || (LOOPBACK_AUTHORITY.test(r) && LOOPBACK_AUTHORITY.test(requested) && withoutPort(r) === withoutPort(requested)),
  );
}

const authorizeParams = (req: express.Request) => ((req.method === "POST" ? req.body : req.query) ?? {}) as Record<string, unknown>;

/** A redirect URI that is not registered is answered directly with 400, never redirected to. */
function exactRedirectUri(clients: OAuthClientsService): RequestHandler {
  return async (req, res, next) => {
    try {
      const { client_id: clientId, redirect_uri: redirectUri } = authorizeParams(req);
      res.locals.redirectUriExplicit = redirectUri !== undefined;
      if (typeof clientId !== "string" || typeof redirectUri !== "string") return next(); // the SDK answers these
      const client = await clients.forOAuth(clientId);
      if (client && !redirectUriRegistered(redirectUri, client.redirect_uris))
        return sendOAuthError(res, 400, new InvalidRequestError("Unregistered redirect_uri"));
      next();
    } catch (err) {
      next(err);
    }
  };
}

/**
 * RFC 6749 §4.1.2.1: an error redirect repeats the request's state; RFC 9207 §2: every
 * authorization response, errors too, carries iss (our metadata advertises it). The SDK's error
 * redirects never carry iss, nor state when its own parsing of the request failed (say, without
 * code_challenge): they are completed here. Its only absolute redirects are errors; the way to the
 * consent page is relative.
 */
function completeErrorRedirects(issuer: string): RequestHandler {
  return (req, res, next) => {
    const { state } = authorizeParams(req);
    const redirect = res.redirect.bind(res) as (status: number, url: string) => void;
    res.redirect = ((status: number | string, url?: string) => {
      if (typeof status !== "number" || typeof url !== "string" || !URL.canParse(url)) return redirect(status as number, url as string);
      const target = new URL(url);
      if (target.searchParams.has("error")) {
        if (typeof state === "string" && !target.searchParams.has("state")) target.searchParams.set("state", state);
        target.searchParams.set("iss", issuer);
      }
      redirect(status, target.href);
    }) as Response["redirect"];
    next();
  };
}

/**
 * RFC 6749 §5.2: what the body parsers refuse (too large, an unknown charset, a broken body) is
 * answered as an OAuth error, invalid_request, with the parser's 4xx status.
 */
const oauthParserErrors: ErrorRequestHandler = (err: { status?: number; type?: string }, _req, res, next) => {
  const status = err?.status;
  if (typeof err?.type !== "string" || typeof status !== "number" || status < 400 || status >= 500) return next(err);
  sendOAuthError(res, status, new InvalidRequestError(status === 413 ? "Request body is too large" : "Malformed request body"));
};

/**
 * Browser-based MCP clients call the token, revocation and registration endpoints cross-origin:
 * they answer every origin (no cookies are involved), and a preflight is answered here, before
 * client authentication and the rate limit, so it neither fails nor spends the budget.
 */
const openCors: RequestHandler = (req, res, next) => {
  res.set("Access-Control-Allow-Origin", "*");
  if (req.method !== "OPTIONS") return next();
  res
    .set("Access-Control-Allow-Methods", "POST, OPTIONS")
    .set("Access-Control-Allow-Headers", "Authorization, Content-Type, MCP-Protocol-Version")
    .set("Access-Control-Max-Age", "86400")
    .status(204)
    .end();
};

/**
 * RFC 6749 §3.2: the token endpoint takes POST only (and the same holds for revocation and
 * registration; authorization takes GET and POST). Anything else is 405 with `Allow`, before
 * any other step can act on the request.
 */
const allowOnly =
  (...methods: string[]): RequestHandler =>
  (req, res, next) => {
    if (methods.includes(req.method) || req.method === "OPTIONS") return next();
    res.set("Allow", methods.join(", "));
    sendOAuthError(res, 405, new InvalidRequestError(`Use ${methods.join(" or ")} here`));
  };

const MAX_PARAM_LENGTH = 4096;

/** No real authorization parameter comes near this; echoing one (state) would swell the redirect past clients' header limits. */
const boundedAuthorizeParams: RequestHandler = (req, res, next) => {
  const long = Object.entries(authorizeParams(req)).find(([, v]) => typeof v === "string" && v.length > MAX_PARAM_LENGTH);
  if (!long) return next();
  sendOAuthError(res, 400, new InvalidRequestError(`The parameter ${long[0]} is longer than ${MAX_PARAM_LENGTH} characters`));
};

/**
 * A redirect is the status and Location, with no body: Express would otherwise write an HTML page
 * for browsers ("Found. Redirecting to ..."), and nothing here answers in HTML.
 */
const bareRedirects: RequestHandler = (_req, res, next) => {
  res.redirect = ((a: number | string, b?: string) => {
    const [status, url] = typeof a === "number" ? [a, b!] : [302, a];
    res.status(status).location(url).end();
  }) as Response["redirect"];
  next();
};

/**
 * RFC 6749 §3.1, §5.2: a parameter holding a control character (U+0000 above all, which the
 * database cannot store), or a body nested past any real client metadata, is invalid_request,
 * answered directly: such a request is never redirected anywhere.
 */
const refuseUnsafeParams: RequestHandler = (req, res, next) => {
  const unsafe = findUnsafeText(req.query, 4) ?? findUnsafeText(req.body, 8);
  if (!unsafe) return next();
  const what = unsafe.problem === "control" ? "contains a control character" : "is nested too deeply";
  sendOAuthError(res, 400, new InvalidRequestError(`The parameter ${unsafe.path} ${what}`));
};

/** RFC 6749 §4.4, which the SDK's token handler leaves out: answered here for authenticated confidential clients. */
function clientCredentialsGrant(tokens: OAuthTokensService): RequestHandler {
  return async (req, res, next) => {
    if (req.body?.grant_type !== "client_credentials") return next();
    try {
      const client = res.locals.oauthClient as OAuthClient;
      if (!res.locals.clientAuthenticated)
        throw new UnauthorizedClientError("client_credentials needs a confidential client and its secret");
      const scope = typeof req.body.scope === "string" ? req.body.scope.split(" ") : undefined;
      const resource = typeof req.body.resource === "string" ? req.body.resource : undefined;
      res.set("Cache-Control", "no-store").json(await tokens.clientCredentials(client, scope, resource));
    } catch (err) {
      if (err instanceof OAuthError) return sendOAuthError(res, 400, err);
      next(err);
    }
  };
}

/**
 * The OAuth 2.1 authorization server (docs/decisions.md#oauth-authorization-server) at the app's root: /oauth/* and the well-known
 * metadata. Parsing, PKCE and RFC 6749 error bodies come from the MCP SDK's handlers.
 */
export function oauthRoutes(options: OAuthRoutesOptions): Router {
  const { provider, clients, tokens, issuer } = options;
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: "20kb" });
  const limit = oauthRateLimit(options.rateLimit, options.limits ?? memoryLimits());

  router.use(
    "/.well-known/oauth-authorization-server",
    metadataHandler(authorizationServerMetadata(issuer, options.dynamicRegistration, options.metadataDocuments)),
  );
  // RFC 9728 §3.1: metadata for a resource with a path lives at the path's suffix, and names it.
  router.get(`${PROTECTED_RESOURCE_METADATA_PATH}{/*suffix}`, (req, res) => {
    const suffix = (req.params as { suffix?: string[] }).suffix;
    const resource = suffix?.length ? `${new URL(issuer).origin}/${suffix.map(encodeURIComponent).join("/")}` : tokens.defaultResource;
    const metadata: OAuthProtectedResourceMetadata = {
      resource,
      authorization_servers: [issuer],
      scopes_supported: [...OAUTH_SCOPES],
      bearer_methods_supported: ["header"],
      resource_name: "Bridgekeeper",
    };
    res.set("Access-Control-Allow-Origin", "*").set("Cache-Control", "public, max-age=300").json(metadata);
  });

  router.use(
    "/oauth/authorize",
    allowOnly("GET", "POST"),
    limit,
    form,
    refuseUnsafeParams,
    boundedAuthorizeParams,
    exactRedirectUri(clients),
    bareRedirects,
    completeErrorRedirects(issuer),
    authorizationHandler({ provider, rateLimit: false }),
  );
  router.use(
    "/oauth/token",
    allowOnly("POST"),
    openCors,
    form,
    limit,
    refuseUnsafeParams,
    authenticateClient(clients),
    clientCredentialsGrant(tokens),
    tokenHandler({ provider, rateLimit: false }),
  );
  router.use(
    "/oauth/revoke",
    allowOnly("POST"),
    openCors,
    form,
    limit,
    refuseUnsafeParams,
    authenticateClient(clients),
    revocationHandler({ provider, rateLimit: false }),
  );
  if (options.dynamicRegistration) {
    // Real client metadata is small: 16 KB, and no deeper than refuseUnsafeParams allows.
    router.use("/oauth/register", allowOnly("POST"), openCors, limit);
    router.post("/oauth/register", express.json({ limit: "16kb" }), refuseUnsafeParams, registrationHandler({ clients }));
  } else {
    router.use("/oauth/register", allowOnly("POST"), (_req, res) => {
      sendOAuthError(res, 404, new InvalidRequestError("Dynamic client registration is disabled on this server"));
    });
  }
  router.use("/oauth", oauthParserErrors);
  return router;
}
