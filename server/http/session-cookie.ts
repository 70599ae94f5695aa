import { parse, serialize } from "cookie";
import type { Request, Response } from "express";

export const SESSION_COOKIE = "bk_session";
/**
 * Over HTTPS the cookie is `__Host-` prefixed (RFC 6265bis §4.1.3.2): the browser then only takes
 * it Secure, from this host, for path /, so a sibling subdomain cannot plant or shadow it.
 */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
const cookieName = (req: Request) => (req.secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE);

/** A cookie value we could have issued: 43 base64url characters (32 random bytes). */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export function readSessionToken(req: Request): string | undefined {
  const header = req.get("cookie");
  if (!header) return undefined;
  const value = parse(header)[cookieName(req)];
  return value && TOKEN_SHAPE.test(value) ? value : undefined;
}

/** HttpOnly (no script can read it), SameSite=Lax (no cross-site writes), Secure over HTTPS. */
export function setSessionCookie(req: Request, res: Response, token: string, expiresAt: Date): void {
  res.append(
    "Set-Cookie",
    serialize(cookieName(req), token, {
      httpOnly: true,
      sameSite: "lax",
      secure: req.secure,
      path: "/",
      expires: expiresAt,
    }),
  );
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.append("Set-Cookie", serialize(cookieName(req), "", { httpOnly: true, sameSite: "lax", secure: req.secure, path: "/", maxAge: 0 }));
}
