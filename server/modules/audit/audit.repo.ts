import { and, desc, eq, gte, lt, lte, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { auditEvents, type AuditEventRow, type NewAuditEventRow } from "../../db/schema";

export interface AuditQuery {
  action?: string | undefined;
  actorUserId?: string | undefined;
  targetType?: string | undefined;
  targetId?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  /** Page backwards: events strictly older than this. */
  before?: Date | undefined;
  limit: number;
}

export type AuditRepo = ReturnType<typeof createAuditRepo>;

export function createAuditRepo(db: Db) {
  return {
    async insert(event: NewAuditEventRow): Promise<void> {
      await db.insert(auditEvents).values(event);
    },

    async list(q: AuditQuery): Promise<AuditEventRow[]> {
      const where: SQL[] = [];
      if (q.action) where.push(eq(auditEvents.action, q.action));
      if (q.actorUserId) where.push(eq(auditEvents.actorUserId, q.actorUserId));
      if (q.targetType) where.push(eq(auditEvents.targetType, q.targetType));
      if (q.targetId) where.push(eq(auditEvents.targetId, q.targetId));
      if (q.from) where.push(gte(auditEvents.at, q.from));
      if (q.to) where.push(lte(auditEvents.at, q.to));
      if (q.before) where.push(lt(auditEvents.at, q.before));
      return db
        .select()
        .from(auditEvents)
        .where(where.length ? and(...where) : undefined)
        .orderBy(desc(auditEvents.at), desc(auditEvents.id))
        .limit(q.limit);
    },
  };
}
