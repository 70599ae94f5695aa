import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import type { OAuthTokenVerifier } from "@modelcontextprotocol/sdk/server/auth/provider.js";
import type { IncomingMessage } from "node:http";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { RequestHandler } from "express";
import { RateLimiterMemory } from "rate-limiter-flexible";
import { InvalidRequestError, InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
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
export const resourceMetadataUrlOf = (issuer: string, resourcePath = ""): string => `${new URL(issuer).origin}${PROTECTED_RESOURCE_METADATA_PATH}${resourcePath}`;

/**
 * A Bearer challenge (RFC 6750 §3) naming the scope the request needs (MCP 2025-11-25 "Scope
 * challenge handling") and where the resource's metadata is (RFC 9728 §5.1).
 */
export const bearerChallenge = (o: { resourceMetadataUrl: string; scope: string; error: string; description: string }): string =>
  `Bearer error="${o.error}", error_description="${o.description}", scope="${o.scope}", resource_metadata="${o.resourceMetadataUrl}"`;

/** Bad tokens from one address before it is turned away for a while (token guessing). */
const INVALID_TOKEN_LIMIT = { attempts: 20, windowSeconds: 60 };

/**
 * D9: an OAuth access token of ours in the Authorization header, with `scope`, for this
 * resource. 401 with `WWW-Authenticate: Bearer resource_metadata="..."` (RFC 9728 §5.1) when it
 * is missing or bad, 403 insufficient_scope when it lacks the scope. A token in the URL is
 * refused outright (OAuth 2.1 §5.2: it would end up in logs and Referer headers).
 * An address that presented INVALID_TOKEN_LIMIT bad tokens within its window gets 429.
 */
export function bearer(deps: { verifier: OAuthTokenVerifier; issuer: string; scope: OAuthScope; resourcePath?: string }): BearerGuard {
  const origin = new URL(deps.issuer).origin;
  const badTokens = new RateLimiterMemory({ keyPrefix: "bad-bearer", points: INVALID_TOKEN_LIMIT.attempts, duration: INVALID_TOKEN_LIMIT.windowSeconds });
  const resourceMetadataUrl = resourceMetadataUrlOf(deps.issuer, deps.resourcePath);
  const sdkGuard = requireBearerAuth({ verifier: deps.verifier, requiredScopes: [deps.scope], resourceMetadataUrl });
  // MCP 2025-11-25 "Scope challenge handling": the scope a request needs is named in every challenge.
  const challenge = (error: string, description: string) => bearerChallenge({ resourceMetadataUrl, scope: deps.scope, error, description });

  const handler: RequestHandler = async (req, res, next) => {
    const ip = req.ip ?? "unknown";
    // An address that keeps presenting bad tokens is answered without a look at the next one.
    const seen = await badTokens.get(ip);
    if (seen && seen.consumedPoints >= INVALID_TOKEN_LIMIT.attempts) {
      // A rate limit, not a challenge: the house body, with the request id.
      return next(new AppError("rate_limited", "Too many invalid access tokens from this address; try again later", { headers: retryAfter(seen.msBeforeNext) }));
    }
    // A presented token that is refused counts; asking without one (discovery) does not.
    if (req.headers.authorization) {
      res.once("finish", () => {
        if (res.statusCode === 401) badTokens.consume(ip).catch(() => undefined);
      });
    }
    if ("access_token" in req.query) {
      const description = "Send the access token in the Authorization header, never in the URL";
      return sendOAuthError(res, 401, new InvalidRequestError(description), challenge("invalid_request", description));
    }
    sdkGuard(req, res, (err?: unknown) => {
      if (err) return next(err);
      if (!withinResource(new URL(req.originalUrl, origin), req.auth?.resource)) {
        const description = "The access token was not issued for this resource";
        return sendOAuthError(res, 401, new InvalidTokenError(description), challenge("invalid_token", description));
      }
      next();
    });
  };
  /** The guard's ordinary case, for a request served before Express (front-door.ts). */
  async function admits(req: IncomingMessage, ip: string): Promise<AuthInfo | undefined> {
    const seen = await badTokens.get(ip);
    if (seen && seen.consumedPoints >= INVALID_TOKEN_LIMIT.attempts) return undefined;
    // The same reading of the header as the SDK's guard.
    const [type, token] = (req.headers.authorization ?? "").split(" ");
    if (type?.toLowerCase() !== "bearer" || !token) return undefined;
    const info = await deps.verifier.verifyAccessToken(token).catch(() => undefined);
    if (!info?.scopes.includes(deps.scope) || typeof info.expiresAt !== "number" || !(info.expiresAt >= Date.now() / 1000)) return undefined;
    if (!withinResource(new URL(req.url ?? "/", origin), info.resource)) return undefined;
    return info;
  }

  return Object.assign(handler, { access: { kind: "bearer" as const, scope: deps.scope }, admits });
}

/**
 * A bearer guard, and its ordinary case on its own: `admits` answers the token's AuthInfo when the
 * guard would let the request through at once (a well-formed header, a token that verifies for the
 * scope and this resource and has not expired, from an address that is not turned away), and
 * undefined for anything else, which the guard itself must then answer. It decides nothing the
 * guard would decide otherwise, and writes nothing.
 */
export type BearerGuard = Guard & { admits(req: IncomingMessage, ip: string): Promise<AuthInfo | undefined> };
