import { Router } from "express";
import { LoginSchema, type SessionResponse } from "../../../contract/auth";
import type { AuthService } from "../../modules/auth/auth.service";
import { toSessionUser } from "../../modules/users/users.presenter";
import { requireSession } from "../middleware/session";
import { clearSessionCookie, readSessionToken, setSessionCookie } from "../session-cookie";
import { parseInput } from "../validate";

export function authRoutes(deps: { auth: AuthService }): Router {
  const router = Router();

  router.get("/session", requireSession, (req, res) => {
    const body: SessionResponse = { user: toSessionUser(req.auth!.user) };
    res.set("Cache-Control", "no-store").json(body);
  });

  router.post("/login", async (req, res) => {
    const input = parseInput(LoginSchema, req.body);
    const client = { ip: req.ip ?? "unknown", userAgent: req.get("user-agent") ?? null };
    const { token, expiresAt, user } = await deps.auth.login(input, client, readSessionToken(req));
    setSessionCookie(req, res, token, expiresAt);
    const body: SessionResponse = { user: toSessionUser(user) };
    res.set("Cache-Control", "no-store").json(body);
  });

  router.post("/logout", async (req, res) => {
    const token = readSessionToken(req);
    if (token) await deps.auth.logout(token);
    clearSessionCookie(req, res);
    res.status(204).end();
  });

  return router;
}
