import type { Request } from "express";
import type { UserActor } from "../modules/users/users.service";

/** The signed-in user behind a request, for services that record who did what. */
export function actorOf(req: Request): UserActor {
  return {
    userId: req.session?.user.id ?? null,
    username: req.session?.user.username ?? null,
    ip: req.ip ?? null,
    sessionId: req.session?.session.id ?? null,
    privileges: { permissions: req.session?.permissions ?? new Set(), roles: req.session?.grants.roles ?? [] },
  };
}
