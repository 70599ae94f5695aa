import { eq, getTableColumns, gte, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { instances, sseConnections } from "../db/schema";

export type InstanceRow = typeof instances.$inferSelect;
export type InstancesRepo = ReturnType<typeof createInstancesRepo>;

/** The instances table (the only code touching it). */
export function createInstancesRepo(db: Db) {
  return {
    /** Says `row.id` is alive at `row.lastSeenAt`: its row is made again if a sweep took it during a long pause. */
    async beat(row: InstanceRow): Promise<void> {
      await db
        .insert(instances)
        .values(row)
        .onConflictDoUpdate({ target: instances.id, set: { lastSeenAt: row.lastSeenAt } });
    },

    remove: async (id: string): Promise<void> => void (await db.delete(instances).where(eq(instances.id, id))),

    /** Rows of instances silent since before `before`: long gone. */
    async pruneSilent(before: Date): Promise<number> {
      const rows = await db.delete(instances).where(lt(instances.lastSeenAt, before)).returning({ id: instances.id });
      return rows.length;
    },

    /** The instances seen since `since`, oldest first, each with the streams the registry says it holds. */
    async seenSince(since: Date): Promise<(InstanceRow & { openStreams: number })[]> {
      const held = db
        .select({ instanceId: sseConnections.instanceId, n: sql<number>`count(*)::int`.as("n") })
        .from(sseConnections)
        .where(eq(sseConnections.isActive, true))
        .groupBy(sseConnections.instanceId)
        .as("held");
      return db
        .select({ ...getTableColumns(instances), openStreams: sql<number>`coalesce(${held.n}, 0)::int` })
        .from(instances)
        .leftJoin(held, eq(held.instanceId, instances.id))
        .where(gte(instances.lastSeenAt, since))
        .orderBy(instances.startedAt, instances.id);
    },
  };
}
