import { InsufficientScopeError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { RequestHandler } from "express";
import { bearerChallenge } from "../http/middleware/bearer";
import { sendOAuthError } from "../oauth/oauth-error";
import { toolByName } from "./tools/catalogue";

/**
 * Checks every MCP message route runs on the message itself, once its body is read: on `/mcp`,
 * `/api/mcp/protocol` and the legacy `/messages` alike, so no transport holds a client to less.
 */

/** The request's id rides with its caller (a copy: the verified AuthInfo is shared by requests), for the tool-call audit. */
export const stampRequest: RequestHandler = (req, _res, next) => {
  if (req.auth) req.auth = { ...req.auth, extra: { ...req.auth.extra, requestId: req.id } };
  next();
};

/**
 * A tools/call for a tool the token's scopes do not cover is refused at the HTTP level with a
 * scope challenge (MCP 2025-11-25 Authorization, "Runtime Insufficient Scope Errors": 403
 * insufficient_scope naming the scope), so the client can ask the user for more. The scopes are
 * the token's as they are now (the guard verified it for this request): a user demoted since the
 * session opened no longer holds `write`.
 */
export const toolScope =
  (resourceMetadataUrl: string): RequestHandler =>
  (req, res, next) => {
    const body = req.body as { method?: unknown; params?: { name?: unknown } } | null;
    if (body?.method !== "tools/call" || typeof body.params?.name !== "string") return next();
    const tool = toolByName(body.params.name);
    if (!tool || req.auth?.scopes.includes(tool.scope)) return next();
    const description = `The ${tool.name} tool needs the ${tool.scope} scope`;
    sendOAuthError(res, 403, new InsufficientScopeError(description), bearerChallenge({ resourceMetadataUrl, scope: [...new Set([...(req.auth?.scopes ?? []), tool.scope])].join(" "), error: "insufficient_scope", description }));
  };
