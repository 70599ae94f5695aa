import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import type { OAuthTokenVerifier } from "@modelcontextprotocol/sdk/server/auth/provider.js";
import type { RequestHandler } from "express";
import type { OAuthScope } from "../../../contract/oauth";
import { PROTECTED_RESOURCE_METADATA_PATH } from "../../oauth/oauth.routes";
import type { Guard } from "./access";

/** Whether `url` is the resource a token was issued for, or under it (RFC 8707 audience). */
export function withinResource(url: URL, resource: URL | undefined): boolean {
  if (!resource || url.origin !== resource.origin) return false;
  const base = resource.pathname.replace(/\/+$/, "");
  return base === "" || url.pathname === base || url.pathname.startsWith(`${base}/`);
}

/**
 * D9: an OAuth access token of ours in the Authorization header, with `scope`, for this
 * resource. 401 with `WWW-Authenticate: Bearer resource_metadata="..."` (RFC 9728 §5.1) when it
 * is missing or bad, 403 insufficient_scope when it lacks the scope. A token in the URL is
 * refused outright (OAuth 2.1 §5.2: it would end up in logs and Referer headers).
 */
export function bearer(deps: { verifier: OAuthTokenVerifier; issuer: string; scope: OAuthScope; resourcePath?: string }): Guard {
  const origin = new URL(deps.issuer).origin;
  const resourceMetadataUrl = `${origin}${PROTECTED_RESOURCE_METADATA_PATH}${deps.resourcePath ?? ""}`;
  const sdkGuard = requireBearerAuth({ verifier: deps.verifier, requiredScopes: [deps.scope], resourceMetadataUrl });
  const challenge = (error: string, description: string) => `Bearer error="${error}", error_description="${description}", resource_metadata="${resourceMetadataUrl}"`;

  const handler: RequestHandler = (req, res, next) => {
    if ("access_token" in req.query) {
      const description = "Send the access token in the Authorization header, never in the URL";
      res.set("WWW-Authenticate", challenge("invalid_request", description)).status(401).json({ error: "invalid_request", error_description: description });
      return;
    }
    sdkGuard(req, res, (err?: unknown) => {
      if (err) return next(err);
      if (!withinResource(new URL(req.originalUrl, origin), req.auth?.resource)) {
        const description = "The access token was not issued for this resource";
        res.set("WWW-Authenticate", challenge("invalid_token", description)).status(401).json({ error: "invalid_token", error_description: description });
        return;
      }
      next();
    });
  };
  return Object.assign(handler, { access: { kind: "bearer" as const, scope: deps.scope } });
}
