import { and, desc, eq, lt, or, type SQL } from "drizzle-orm";
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
    async insertMany(rows: NewToolCallRow[]): Promise<void> {
      if (rows.length > 0) await db.insert(toolCalls).values(rows);
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

    async pruneBefore(before: Date): Promise<void> {
      await db.delete(toolCalls).where(lt(toolCalls.at, before));
    },
  };
}
