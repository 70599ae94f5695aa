import type { OAuthTokenVerifier } from "@modelcontextprotocol/sdk/server/auth/provider.js";
import type { IncomingMessage } from "node:http";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { RequestHandler } from "express";
import { memoryLimits, type Limits } from "../../lib/limits";
import { RateLimiterRes } from "rate-limiter-flexible";
import {
  InsufficientScopeError,
  InvalidRequestError,
  InvalidTokenError,
  OAuthError,
  ServerError,
} from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { AppError, retryAfter } from "../../lib/app-error";
import { sendOAuthError } from "../../oauth/oauth-error";
import type { OAuthScope } from "../../../contract/oauth";
import { PROTECTED_RESOURCE_METADATA_PATH } from "../../oauth/oauth.routes";
import type { Guard } from "./access";

/** Whether `url` is the resource a token was issued for, or under it (RFC 8707 audience). */
export function withinResource(url: URL, resource: URL | undefined): boolean {
  if (!resource || url.origin !== resource.origin) return false;
  const base = resource.pathname.replace(/\/+$/, "");
  return base === "" || url.pathname === base || url.pathname.startsWith(`${base}/`);
}

/** Where a resource's protected resource metadata is (RFC 9728 §3.1: under the resource's path). */
export const resourceMetadataUrlOf = (issuer: string, resourcePath = ""): string =>
  `${new URL(issuer).origin}${PROTECTED_RESOURCE_METADATA_PATH}${resourcePath}`;

/**
 * A Bearer challenge (RFC 6750 §3) naming the scope the request needs (MCP 2025-11-25 "Scope
 * challenge handling") and where the resource's metadata is (RFC 9728 §5.1).
 */
export const bearerChallenge = (o: { resourceMetadataUrl: string; scope: string; error: string; description: string }): string =>
  `Bearer error="${o.error}", error_description="${o.description}", scope="${o.scope}", resource_metadata="${o.resourceMetadataUrl}"`;

/** Bad tokens from one address before it is turned away for a while (token guessing). */
const INVALID_TOKEN_LIMIT = { attempts: 20, windowSeconds: 60 };
/** How long an instance trusts what it read of an address's bad tokens. */
const BAD_TOKEN_READ_MS = 1_000;

/** What a bearer check decided: the token's AuthInfo, or the refusal to answer. */
export type BearerVerdict =
  | { ok: true; auth: AuthInfo }
  /** An address turned away for its bad tokens: a rate limit in the surface's own error form, not a challenge. */
  | { ok: false; throttled: AppError }
  /** An RFC 6750 refusal: the OAuth error body, with its Bearer challenge on 401 and 403. */
  | { ok: false; status: number; error: OAuthError; challenge?: string };

/**
 * docs/decisions.md#bearer-tokens-and-scopes: an OAuth access token of ours in the Authorization header, with `scope`, for this
 * resource. 401 with `WWW-Authenticate: Bearer resource_metadata="..."` (RFC 9728 §5.1) when it
 * is missing or bad, 403 insufficient_scope when it lacks the scope. A token in the URL is
 * refused outright (OAuth 2.1 §5.2: it would end up in logs and Referer headers).
 * An address that presented INVALID_TOKEN_LIMIT bad tokens within its window gets 429.
 *
 * `check` decides on a plain node request (the MCP pipeline calls it before Express); the guard
 * itself is the same check as Express middleware, for the bearer routes under /api.
 */
export function bearer(deps: {
  verifier: OAuthTokenVerifier;
  issuer: string;
  scope: OAuthScope;
  resourcePath?: string;
  limits?: Limits;
}): BearerGuard {
  const origin = new URL(deps.issuer).origin;
  const badTokens = (deps.limits ?? memoryLimits()).create({
    keyPrefix: "bad-bearer",
    points: INVALID_TOKEN_LIMIT.attempts,
    duration: INVALID_TOKEN_LIMIT.windowSeconds,
  });
  /**
   * What this instance last read of an address's bad tokens, for a second: every request asks, and
   * on a shared store each ask was a round trip (a fifth of a tool call's time). This instance's
   * own refusals update it at once; another instance's reach it within the second.
   */
  const recent = new Map<string, { at: number; consumed: number; msBeforeNext: number }>();
  const remember = (ip: string, res: RateLimiterRes | null) => {
    if (recent.size >= 10_000) recent.clear();
    recent.set(ip, { at: Date.now(), consumed: res?.consumedPoints ?? 0, msBeforeNext: res?.msBeforeNext ?? 0 });
  };
  const badTokensOf = async (ip: string) => {
    const known = recent.get(ip);
    if (known && Date.now() - known.at < BAD_TOKEN_READ_MS) return known;
    remember(ip, await badTokens.get(ip));
    return recent.get(ip)!;
  };
  const resourceMetadataUrl = resourceMetadataUrlOf(deps.issuer, deps.resourcePath);
  // MCP 2025-11-25 "Scope challenge handling": the scope a request needs is named in every challenge.
  const challenge = (error: string, description: string) => bearerChallenge({ resourceMetadataUrl, scope: deps.scope, error, description });
  const refuse = (status: 401 | 403, error: OAuthError): BearerVerdict => ({
    ok: false,
    status,
    error,
    challenge: challenge(error.errorCode, error.message),
  });

  /** RFC 6750 §2.1 and §3.1, in the order and words of the MCP SDK's requireBearerAuth, which this replaces. */
  async function verify(req: IncomingMessage): Promise<BearerVerdict> {
    // The request's whole path: under an Express router `req.url` is relative to where it is mounted.
    const url = new URL((req as { originalUrl?: string }).originalUrl ?? req.url ?? "/", origin);
    if (url.searchParams.has("access_token"))
      return refuse(401, new InvalidRequestError("Send the access token in the Authorization header, never in the URL"));
    const header = req.headers.authorization;
    if (!header) return refuse(401, new InvalidTokenError("Missing Authorization header"));
    const [type, token] = header.split(" ");
    if (type?.toLowerCase() !== "bearer" || !token)
      return refuse(401, new InvalidTokenError("Invalid Authorization header format, expected 'Bearer TOKEN'"));
    let auth: AuthInfo;
    try {
      auth = await deps.verifier.verifyAccessToken(token);
    } catch (err) {
      if (err instanceof InvalidTokenError) return refuse(401, err);
      if (err instanceof InsufficientScopeError) return refuse(403, err);
      if (err instanceof OAuthError && !(err instanceof ServerError)) return { ok: false, status: 400, error: err };
      return { ok: false, status: 500, error: err instanceof ServerError ? err : new ServerError("Internal Server Error") };
    }
    if (!auth.scopes.includes(deps.scope)) return refuse(403, new InsufficientScopeError("Insufficient scope"));
    if (typeof auth.expiresAt !== "number" || Number.isNaN(auth.expiresAt))
      return refuse(401, new InvalidTokenError("Token has no expiration time"));
    if (auth.expiresAt < Date.now() / 1000) return refuse(401, new InvalidTokenError("Token has expired"));
    if (!withinResource(url, auth.resource)) return refuse(401, new InvalidTokenError("The access token was not issued for this resource"));
    return { ok: true, auth };
  }

  async function check(req: IncomingMessage, ip: string): Promise<BearerVerdict> {
    // An address that keeps presenting bad tokens is answered without a look at the next one.
    const seen = await badTokensOf(ip);
    if (seen.consumed >= INVALID_TOKEN_LIMIT.attempts) {
      return {
        ok: false,
        throttled: new AppError("rate_limited", "Too many invalid access tokens from this address; try again later", {
          headers: retryAfter(seen.msBeforeNext),
        }),
      };
    }
    const verdict = await verify(req);
    // A presented token that is refused counts; asking without one (discovery) does not.
    if (!verdict.ok && "status" in verdict && verdict.status === 401 && req.headers.authorization)
      badTokens.consume(ip).then(
        (res) => remember(ip, res),
        (res: unknown) => res instanceof RateLimiterRes && remember(ip, res),
      );
    return verdict;
  }

  const handler: RequestHandler = (req, res, next) => {
    check(req, req.ip ?? "unknown").then((verdict) => {
      if (verdict.ok) {
        req.auth = verdict.auth;
        return next();
      }
      if ("throttled" in verdict) return next(verdict.throttled);
      sendOAuthError(res, verdict.status, verdict.error, verdict.challenge);
    }, next);
  };
  return Object.assign(handler, { access: { kind: "bearer" as const, scope: deps.scope }, check });
}

/** A bearer guard: Express middleware for the /api bearer routes, and its `check` for a plain node request. */
export type BearerGuard = Guard & { check(req: IncomingMessage, ip: string): Promise<BearerVerdict> };
