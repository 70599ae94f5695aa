import { and, desc, eq, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { sseConnections, type SseConnectionRow } from "../../db/schema";

export type ConnectionsRepo = ReturnType<typeof createConnectionsRepo>;

/** The connection registry's rows (the only code touching sse_connections). */
export function createConnectionsRepo(db: Db) {
  return {
    async insert(row: typeof sseConnections.$inferInsert): Promise<void> {
      await db.insert(sseConnections).values(row).onConflictDoNothing();
    },

    /** Sets last_heartbeat on the active rows among `ids`; returns the ids among them that are not active (ended elsewhere). */
    async heartbeat(ids: string[], at: Date): Promise<string[]> {
      if (ids.length === 0) return [];
      const touched = await db
        .update(sseConnections)
        .set({ lastHeartbeat: at })
        .where(and(inArray(sseConnections.connectionId, ids), eq(sseConnections.isActive, true)))
        .returning({ connectionId: sseConnections.connectionId });
      const alive = new Set(touched.map((r) => r.connectionId));
      return ids.filter((id) => !alive.has(id));
    },

    /** Marks rows inactive; returns how many changed. */
    async close(where: { connectionId?: string; instanceId?: string; silentSince?: Date; all?: true }, at: Date): Promise<number> {
      const conditions = [eq(sseConnections.isActive, true)];
      if (where.connectionId !== undefined) conditions.push(eq(sseConnections.connectionId, where.connectionId));
      if (where.instanceId !== undefined) conditions.push(eq(sseConnections.instanceId, where.instanceId));
      if (where.silentSince !== undefined) conditions.push(lt(sseConnections.lastHeartbeat, where.silentSince));
      const rows = await db
        .update(sseConnections)
        .set({ isActive: false, closedAt: at })
        .where(and(...conditions))
        .returning({ id: sseConnections.id });
      return rows.length;
    },

    find: async (connectionId: string): Promise<SseConnectionRow | undefined> =>
      (await db.select().from(sseConnections).where(eq(sseConnections.connectionId, connectionId)).limit(1))[0],

    /** Active rows first, then the most recent inactive ones; at most `limit`. */
    list: (limit: number): Promise<SseConnectionRow[]> =>
      db.select().from(sseConnections).orderBy(desc(sseConnections.isActive), desc(sseConnections.createdAt)).limit(limit),

    /** A client's active rows, on every instance. */
    async countActiveOf(clientId: string): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(sseConnections)
        .where(and(eq(sseConnections.isActive, true), eq(sseConnections.clientId, clientId)));
      return row?.n ?? 0;
    },

    async countActive(): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(sseConnections)
        .where(eq(sseConnections.isActive, true));
      return row?.n ?? 0;
    },

    /** Inactive rows closed before `before` are removed (the screen shows recent history only). */
    async pruneClosed(before: Date): Promise<number> {
      const rows = await db
        .delete(sseConnections)
        .where(and(eq(sseConnections.isActive, false), lt(sseConnections.closedAt, before)))
        .returning({ id: sseConnections.id });
      return rows.length;
    },
  };
}
