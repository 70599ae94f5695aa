import { Router } from "express";
import { LoginSchema, type SessionResponse } from "../../../contract/auth";
import type { AuthService } from "../../modules/auth/auth.service";
import { toSessionUser } from "../../modules/users/users.presenter";
import { publicAccess, signedIn } from "../middleware/access";
import { clearSessionCookie, readSessionToken, setSessionCookie } from "../session-cookie";
import { parseInput } from "../validate";

export function authRoutes(deps: { auth: AuthService }): Router {
  const router = Router();

  router.get("/session", signedIn, (req, res) => {
    const body: SessionResponse = { user: toSessionUser(req.session!.user, req.session!.grants) };
    res.set("Cache-Control", "no-store").json(body);
  });

  router.post("/login", publicAccess, async (req, res) => {
    const input = parseInput(LoginSchema, req.body);
    const client = { ip: req.ip ?? "unknown", userAgent: req.get("user-agent") ?? null };
    const { token, expiresAt, user, grants } = await deps.auth.login(input, client, readSessionToken(req));
    setSessionCookie(req, res, token, expiresAt);
    const body: SessionResponse = { user: toSessionUser(user, grants) };
    res.set("Cache-Control", "no-store").json(body);
  });

  router.post("/logout", publicAccess, async (req, res) => {
    const token = readSessionToken(req);
    if (token) await deps.auth.logout(token);
    clearSessionCookie(req, res);
    res.status(204).end();
  });

  return router;
}
