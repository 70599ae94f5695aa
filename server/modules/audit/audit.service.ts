import type { Clock } from "../../lib/clock";
import type { Logger } from "../../lib/logger";
import type { AuditQuery, AuditRepo } from "./audit.repo";

/** Who acted: the signed-in user (null for anonymous sign-in attempts) and where from. */
export interface Actor {
  userId: string | null;
  username: string | null;
  ip: string | null;
}

export interface AuditEntry {
  action: string;
  outcome?: "success" | "failure";
  targetType?: string;
  targetId?: string;
  /** before/after snapshots and other facts; callers pass presenters' output, never secrets. */
  details?: Record<string, unknown>;
}

export type AuditService = ReturnType<typeof createAuditService>;

export function createAuditService(deps: { auditRepo: AuditRepo; clock: Clock; log: Logger }) {
  return {
    /** Records an event with the given repo (pass a transaction's to make it part of the change). */
    async record(actor: Actor, entry: AuditEntry, repo: AuditRepo = deps.auditRepo): Promise<void> {
      await repo.insert({
        at: deps.clock.now(),
        actorUserId: actor.userId,
        actorUsername: actor.username,
        ipAddress: actor.ip,
        action: entry.action,
        outcome: entry.outcome ?? "success",
        targetType: entry.targetType ?? null,
        targetId: entry.targetId ?? null,
        details: entry.details ?? null,
      });
    },

    list: (query: AuditQuery) => deps.auditRepo.list(query),
  };
}
