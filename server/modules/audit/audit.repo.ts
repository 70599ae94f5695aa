import { and, desc, eq, gte, lte, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { auditEvents, type AuditEventRow, type NewAuditEventRow } from "../../db/schema";

export interface AuditQuery {
  action?: string | undefined;
  actorUserId?: string | undefined;
  targetType?: string | undefined;
  targetId?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  /** Keyset paging: events after this one in (at desc, id desc) order. */
  after?: { at: Date; id: string } | undefined;
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
      if (q.after)
        where.push(sql`(${auditEvents.at}, ${auditEvents.id}) < (${q.after.at.toISOString()}::timestamptz, ${q.after.id}::uuid)`);
      return db
        .select()
        .from(auditEvents)
        .where(where.length ? and(...where) : undefined)
        .orderBy(desc(auditEvents.at), desc(auditEvents.id))
        .limit(q.limit);
    },
  };
}
