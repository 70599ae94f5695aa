import { parse, serialize } from "cookie";
import type { Request, Response } from "express";

export const SESSION_COOKIE = "bk_session";

/** A cookie value we could have issued: 43 base64url characters (32 random bytes). */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export function readSessionToken(req: Request): string | undefined {
  const header = req.get("cookie");
  if (!header) return undefined;
  const value = parse(header)[SESSION_COOKIE];
  return value && TOKEN_SHAPE.test(value) ? value : undefined;
}

/** HttpOnly (no script can read it), SameSite=Lax (no cross-site writes), Secure over HTTPS. */
export function setSessionCookie(req: Request, res: Response, token: string, expiresAt: Date): void {
  res.append(
    "Set-Cookie",
    serialize(SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: "lax",
      secure: req.secure,
      path: "/",
      expires: expiresAt,
    }),
  );
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.append(
    "Set-Cookie",
    serialize(SESSION_COOKIE, "", { httpOnly: true, sameSite: "lax", secure: req.secure, path: "/", maxAge: 0 }),
  );
}
