import type { RequestHandler } from "express";
import type { OAuthScope } from "../../../contract/oauth";
import type { PermissionKey } from "../../../contract/permissions";
import { AppError } from "../../lib/app-error";

/**
 * Who may call a route. Every /api route starts with exactly one of these guards; each carries its
 * rule as data so the authorization-matrix test can read what a route demands and prove it.
 */
export type Access =
  | { kind: "public" }
  | { kind: "session" }
  | { kind: "permission"; permission: PermissionKey }
  /** An OAuth access token with this scope (docs/decisions.md#bearer-tokens-and-scopes), for MCP clients and the proxy paths. */
  | { kind: "bearer"; scope: OAuthScope };

export type Guard = RequestHandler & { access: Access };

const guard = (access: Access, handler: RequestHandler): Guard => Object.assign(handler, { access });

/** Anyone, signed in or not. */
export const publicAccess: Guard = guard({ kind: "public" }, (_req, _res, next) => next());

/** Any signed-in, active user (for example the chat, docs/decisions.md#roles-and-permissions). */
export const signedIn: Guard = guard({ kind: "session" }, (req, _res, next) => {
  if (!req.session) return next(new AppError("unauthenticated", "Sign in to continue"));
  next();
});

/** A signed-in user whose roles grant `permission` (docs/decisions.md#roles-and-permissions): 401 without a session, 403 without it. */
export const can = (permission: PermissionKey): Guard =>
  guard({ kind: "permission", permission }, (req, _res, next) => {
    if (!req.session) return next(new AppError("unauthenticated", "Sign in to continue"));
    if (!req.session.permissions.has(permission)) {
      return next(new AppError("forbidden", `You do not have the ${permission} permission`));
    }
    next();
  });
