import type { RequestHandler } from "express";
import { AppError } from "../../lib/app-error";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * CSRF defence for cookie-authenticated writes (OWASP CSRF Cheat Sheet, "Fetch Metadata" and
 * "Verifying Origin"): a browser marks every request with Sec-Fetch-Site and/or Origin, so a
 * write is refused when either says it came from another site. Requests with neither come from
 * non-browser clients, which cannot be tricked into sending a victim's cookie. SameSite=Lax on
 * the session cookie is the second layer.
 */
export function csrfGuard(options: { trustedOrigins: readonly string[] }): RequestHandler {
  const trusted = new Set(options.trustedOrigins.map((o) => o.toLowerCase()));
  return (req, _res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();

    const site = req.get("sec-fetch-site");
    if (site && site !== "same-origin" && site !== "none") {
      return next(new AppError("csrf_rejected", "Cross-site request refused"));
    }
    const origin = req.get("origin");
    if (origin) {
      const own = `${req.protocol}://${req.get("host")}`.toLowerCase();
      const o = origin.toLowerCase();
      if (o !== own && !trusted.has(o)) return next(new AppError("csrf_rejected", "Cross-site request refused"));
    }
    next();
  };
}
