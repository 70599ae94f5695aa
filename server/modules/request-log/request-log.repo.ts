import { and, desc, eq, gte, ilike, lt, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { requestLogs, type NewRequestLogRow, type RequestLogRow } from "../../db/schema";

export interface RequestLogQuery {
  limit: number;
  before?: Date | undefined;
  status?: "success" | "error" | undefined;
  method?: string | undefined;
  search?: string | undefined;
}

/** LIKE's wildcards and escape character, taken literally. */
const likeLiteral = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export type RequestLogRepo = ReturnType<typeof createRequestLogRepo>;

/** The request log's rows (the only code touching request_logs). */
export function createRequestLogRepo(db: Db) {
  return {
    /**
     * One INSERT of any number of rows: a column of values per parameter, unnested by the
     * database (11 parameters whatever the batch; building and parsing a VALUES list of 11
     * parameters a row cost more than twice as much on PGlite, where it runs in this process).
     */
    async insertMany(rows: NewRequestLogRow[]): Promise<void> {
      if (rows.length === 0) return;
      const column = <T>(pick: (row: NewRequestLogRow) => T) => sql.param(rows.map(pick));
      await db.execute(sql`
        insert into request_logs (at, method, path, status_code, duration_ms, client_id, user_id, ip, user_agent, rpc_method, tool_name)
        select * from unnest(
          ${column((r) => r.at.toISOString())}::timestamptz[], ${column((r) => r.method)}::text[], ${column((r) => r.path)}::text[],
          ${column((r) => r.statusCode)}::int[], ${column((r) => r.durationMs)}::real[], ${column((r) => r.clientId ?? null)}::text[],
          ${column((r) => r.userId ?? null)}::uuid[], ${column((r) => r.ip ?? null)}::text[], ${column((r) => r.userAgent ?? null)}::text[],
          ${column((r) => r.rpcMethod ?? null)}::text[], ${column((r) => r.toolName ?? null)}::text[]
        )`);
    },

    /** Newest first. */
    list(q: RequestLogQuery): Promise<RequestLogRow[]> {
      const where: SQL[] = [];
      if (q.before) where.push(lt(requestLogs.at, q.before));
      if (q.status === "success") where.push(lt(requestLogs.statusCode, 400));
      if (q.status === "error") where.push(gte(requestLogs.statusCode, 400));
      if (q.method) where.push(eq(requestLogs.method, q.method));
      if (q.search) {
        const pattern = `%${likeLiteral(q.search)}%`;
        where.push(or(ilike(requestLogs.path, pattern), ilike(requestLogs.method, pattern), ilike(requestLogs.clientId, pattern))!);
      }
      return db
        .select()
        .from(requestLogs)
        .where(where.length ? and(...where) : undefined)
        .orderBy(desc(requestLogs.at), desc(requestLogs.id))
        .limit(q.limit);
    },

    /** Requests since `since`, and how many of them were answered 429 (D14). */
    async countSince(since: Date): Promise<{ total: number; rateLimited: number }> {
      const [row] = await db
        .select({ total: sql<number>`count(*)::int`, rateLimited: sql<number>`count(*) filter (where ${requestLogs.statusCode} = 429)::int` })
        .from(requestLogs)
        .where(gte(requestLogs.at, since));
      return { total: row?.total ?? 0, rateLimited: row?.rateLimited ?? 0 };
    },

    async pruneBefore(before: Date): Promise<number> {
      const rows = await db.delete(requestLogs).where(lt(requestLogs.at, before)).returning({ id: requestLogs.id });
      return rows.length;
    },
  };
}
