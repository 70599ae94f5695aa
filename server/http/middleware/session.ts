import type { RequestHandler } from "express";
import type { AuthService } from "../../modules/auth/auth.service";
import { clearSessionCookie, readSessionToken } from "../session-cookie";

/** Attaches `req.session` when the cookie names a live session; clears a cookie that no longer does. */
export function loadSession(auth: AuthService): RequestHandler {
  return async (req, res, next) => {
    const token = readSessionToken(req);
    if (!token) return next();
    try {
      const resolved = await auth.resolve(token);
      if (resolved) req.session = resolved;
      else clearSessionCookie(req, res);
      next();
    } catch (err) {
      next(err);
    }
  };
}
