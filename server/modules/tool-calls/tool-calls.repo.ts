import { and, desc, eq, lt, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { toolCalls, type NewToolCallRow, type ToolCallRow } from "../../db/schema";

export interface ToolCallFilter {
  limit: number;
  /** Rows strictly older than this (at, id) position. */
  before?: { at: Date; id: string } | undefined;
  tool?: string | undefined;
  clientId?: string | undefined;
  outcome?: "ok" | "error" | undefined;
}

export type ToolCallsRepo = ReturnType<typeof createToolCallsRepo>;

/** The tool-call audit's rows (the only code touching tool_calls). */
export function createToolCallsRepo(db: Db) {
  return {
    /** One INSERT of any number of rows, a column of values per parameter (as the request log does). */
    async insertMany(rows: NewToolCallRow[]): Promise<void> {
      if (rows.length === 0) return;
      const column = <T>(pick: (row: NewToolCallRow) => T) => sql.param(rows.map(pick));
      await db.execute(sql`
        insert into tool_calls (at, client_id, user_id, tool, arguments, outcome, error, duration_ms, objects, request_id, upstream_identity)
        select * from unnest(
          ${column((r) => r.at.toISOString())}::timestamptz[], ${column((r) => r.clientId)}::text[], ${column((r) => r.userId ?? null)}::uuid[],
          ${column((r) => r.tool)}::text[], ${column((r) => JSON.stringify(r.arguments))}::jsonb[], ${column((r) => r.outcome)}::text[],
          ${column((r) => r.error ?? null)}::text[], ${column((r) => r.durationMs)}::real[], ${column((r) => JSON.stringify(r.objects))}::jsonb[],
          ${column((r) => r.requestId ?? null)}::text[], ${column((r) => r.upstreamIdentity ?? null)}::text[]
        )`);
    },

    /** Newest first; ties on `at` broken by id, so a page boundary never skips or repeats a row. */
    list(f: ToolCallFilter): Promise<ToolCallRow[]> {
      const where: SQL[] = [];
      if (f.before) where.push(or(lt(toolCalls.at, f.before.at), and(eq(toolCalls.at, f.before.at), lt(toolCalls.id, f.before.id)))!);
      if (f.tool) where.push(eq(toolCalls.tool, f.tool));
      if (f.clientId) where.push(eq(toolCalls.clientId, f.clientId));
      if (f.outcome) where.push(eq(toolCalls.outcome, f.outcome));
      return db
        .select()
        .from(toolCalls)
        .where(where.length ? and(...where) : undefined)
        .orderBy(desc(toolCalls.at), desc(toolCalls.id))
        .limit(f.limit);
    },

    /** The call made by one HTTP request (a tools/call is one request), if any. */
    async byRequestId(requestId: string): Promise<ToolCallRow | undefined> {
      const [row] = await db.select().from(toolCalls).where(eq(toolCalls.requestId, requestId)).orderBy(desc(toolCalls.at)).limit(1);
      return row;
    },

    async pruneBefore(before: Date): Promise<void> {
      await db.delete(toolCalls).where(lt(toolCalls.at, before));
    },
  };
}
