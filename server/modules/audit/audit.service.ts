import type { z } from "zod";
import type { AuditQuerySchema } from "../../../contract/audit";
import type { AuditEventRow } from "../../db/schema";
import { AppError } from "../../lib/app-error";
import type { Clock } from "../../lib/clock";
import { cursorScope, openPosition, sealPosition, type Cursors } from "../../lib/cursor";
import type { Logger } from "../../lib/logger";
import type { AuditRepo } from "./audit.repo";

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

type AuditPageQuery = z.infer<typeof AuditQuerySchema>;

const badCursor = () => new AppError("validation_failed", "cursor is not valid", { fields: { cursor: "cursor is not valid" } });

export type AuditService = ReturnType<typeof createAuditService>;

export function createAuditService(deps: { auditRepo: AuditRepo; clock: Clock; log: Logger; cursors: Cursors }) {
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

    /** A page, newest first, and the cursor of the next one (null on the last); a cursor opens only for the filters it was given with. */
    async page(q: AuditPageQuery): Promise<{ rows: AuditEventRow[]; nextCursor: string | null }> {
      const filters = { action: q.action, actorUserId: q.actorId, targetType: q.targetType, targetId: q.targetId, from: q.from, to: q.to };
      const scope = cursorScope("audit", filters);
      const rows = await deps.auditRepo.list({
        ...filters,
        after: q.cursor ? openPosition(deps.cursors, scope, q.cursor, badCursor) : undefined,
        limit: q.limit,
      });
      return { rows, nextCursor: rows.length === q.limit ? sealPosition(deps.cursors, scope, rows.at(-1)!) : null };
    },
  };
}
