import { and, desc, eq, gte, ilike, lt, not, or, sql, type SQL } from "drizzle-orm";
import { CONSOLE_API_PREFIX, type LogSource, type McpOutcome } from "../../../contract/logs";
import type { Db } from "../../db/client";
import { requestLogMinutes, requestLogs, type NewRequestLogRow, type RequestLogRow } from "../../db/schema";

/** What narrows the log (contract/logs.ts LogFilter, parsed). */
export interface RequestLogFilter {
  status?: "success" | "error" | undefined;
  statusCode?: number | undefined;
  method?: string | undefined;
  search?: string | undefined;
  clientId?: string | undefined;
  tool?: string | undefined;
  outcome?: McpOutcome | undefined;
  source?: LogSource | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}

/** A row's place in the newest-first order: pages continue after it. */
export interface LogPosition {
  at: Date;
  id: string;
}

export interface RequestLogQuery extends RequestLogFilter {
  limit: number;
  before?: Date | undefined;
  after?: LogPosition | undefined;
}

export interface RequestLogTotals {
  total: number;
  successful: number;
  errors: number;
  durationMsSum: number;
}

/** LIKE's wildcards and escape character, taken literally. */
const likeLiteral = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

const MINUTE_MS = 60_000;
const isWholeMinute = (d: Date | undefined) => d === undefined || d.getTime() % MINUTE_MS === 0;

/**
 * Whether the per-minute sums can answer for this filter: they know the minute, the method, the
 * status code and the source, so not a search, a client, a tool or an outcome, and a time range
 * only on whole minutes.
 */
export const summableByMinute = (f: RequestLogFilter): boolean =>
  !f.search && !f.clientId && !f.tool && !f.outcome && isWholeMinute(f.from) && isWholeMinute(f.to);

/** A console API call's path (contract/logs.ts CONSOLE_API_PREFIX), as SQL. */
const CONSOLE_PATH = `${CONSOLE_API_PREFIX}%`;

export type RequestLogRepo = ReturnType<typeof createRequestLogRepo>;

/** The request log's rows and their per-minute sums (the only code touching request_logs and request_log_minutes). */
export function createRequestLogRepo(db: Db) {
  /** The filter on the rows themselves: `from` inclusive, `to` exclusive. */
  const rowFilter = (f: RequestLogFilter): SQL[] => {
    const where: SQL[] = [];
    if (f.status === "success") where.push(lt(requestLogs.statusCode, 400));
    if (f.status === "error") where.push(gte(requestLogs.statusCode, 400));
    if (f.statusCode !== undefined) where.push(eq(requestLogs.statusCode, f.statusCode));
    if (f.method) where.push(eq(requestLogs.method, f.method));
    if (f.clientId) where.push(eq(requestLogs.clientId, f.clientId));
    if (f.tool) where.push(eq(requestLogs.toolName, f.tool));
    if (f.outcome) where.push(eq(requestLogs.outcome, f.outcome));
    if (f.source === "console") where.push(sql`${requestLogs.path} like ${CONSOLE_PATH}`);
    if (f.source === "traffic") where.push(sql`${requestLogs.path} not like ${CONSOLE_PATH}`);
    if (f.from) where.push(gte(requestLogs.at, f.from));
    if (f.to) where.push(lt(requestLogs.at, f.to));
    if (f.search) {
      const pattern = `%${likeLiteral(f.search)}%`;
      where.push(
        or(
          ilike(requestLogs.path, pattern),
          ilike(requestLogs.method, pattern),
          ilike(requestLogs.clientId, pattern),
          ilike(requestLogs.toolName, pattern),
          ilike(requestLogs.rpcMethod, pattern),
        )!,
      );
    }
    return where;
  };
  /** The same filter on the per-minute sums (only for filters summableByMinute, whose bounds are whole minutes). */
  const minuteFilter = (f: RequestLogFilter): SQL[] => {
    const where: SQL[] = [];
    if (f.status === "success") where.push(lt(requestLogMinutes.statusCode, 400));
    if (f.status === "error") where.push(gte(requestLogMinutes.statusCode, 400));
    if (f.statusCode !== undefined) where.push(eq(requestLogMinutes.statusCode, f.statusCode));
    if (f.method) where.push(eq(requestLogMinutes.method, f.method));
    if (f.source) where.push(f.source === "console" ? eq(requestLogMinutes.console, true) : not(requestLogMinutes.console));
    if (f.from) where.push(gte(requestLogMinutes.minute, f.from));
    if (f.to) where.push(lt(requestLogMinutes.minute, f.to));
    return where;
  };
  const all = (where: SQL[]) => (where.length ? and(...where) : undefined);

  return {
    /**
     * One statement for any number of rows: a column of values per parameter, unnested by the
     * database (15 parameters whatever the batch; a VALUES list of parameters per row cost more
     * than twice as much on PGlite, where it runs in this process), and the rows' per-minute sums
     * added in the same statement, so the sums never disagree with the rows.
     */
    async insertMany(rows: NewRequestLogRow[]): Promise<void> {
      if (rows.length === 0) return;
      const column = <T>(pick: (row: NewRequestLogRow) => T) => sql.param(rows.map(pick));
      await db.execute(sql`
        with batch as (
          select * from unnest(
            ${column((r) => r.at.toISOString())}::timestamptz[], ${column((r) => r.method)}::text[], ${column((r) => r.path)}::text[],
            ${column((r) => r.statusCode)}::int[], ${column((r) => r.durationMs)}::real[], ${column((r) => r.clientId ?? null)}::text[],
            ${column((r) => r.userId ?? null)}::uuid[], ${column((r) => r.ip ?? null)}::text[], ${column((r) => r.userAgent ?? null)}::text[],
            ${column((r) => r.rpcMethod ?? null)}::text[], ${column((r) => r.toolName ?? null)}::text[],
            ${column((r) => r.requestId ?? null)}::text[], ${column((r) => (r.headers ? JSON.stringify(r.headers) : null))}::jsonb[],
            ${column((r) => r.outcome ?? null)}::text[], ${column((r) => r.error ?? null)}::text[]
          ) as b(at, method, path, status_code, duration_ms, client_id, user_id, ip, user_agent, rpc_method, tool_name, request_id, headers, outcome, error)
        ), logged as (
          insert into request_logs (at, method, path, status_code, duration_ms, client_id, user_id, ip, user_agent, rpc_method, tool_name, request_id, headers, outcome, error)
          select * from batch
        )
        insert into request_log_minutes (minute, method, status_code, console, requests, duration_ms_sum, mcp_errors)
        select date_trunc('minute', at), method, status_code, path like ${CONSOLE_PATH}, count(*), sum(duration_ms),
          count(*) filter (where status_code < 400 and outcome in ('tool_error', 'rpc_error'))
        from batch group by 1, 2, 3, 4
        on conflict (minute, method, status_code, console) do update
          set requests = request_log_minutes.requests + excluded.requests, duration_ms_sum = request_log_minutes.duration_ms_sum + excluded.duration_ms_sum,
            mcp_errors = request_log_minutes.mcp_errors + excluded.mcp_errors`);
    },

    /** Newest first, after `after` (keyset paging: a page costs the same at any depth). */
    list(q: RequestLogQuery): Promise<RequestLogRow[]> {
      const where = rowFilter(q);
      if (q.before) where.push(lt(requestLogs.at, q.before));
      if (q.after)
        where.push(sql`(${requestLogs.at}, ${requestLogs.id}) < (${q.after.at.toISOString()}::timestamptz, ${q.after.id}::uuid)`);
      return db.select().from(requestLogs).where(all(where)).orderBy(desc(requestLogs.at), desc(requestLogs.id)).limit(q.limit);
    },

    /** One row, or undefined. */
    async get(id: string): Promise<RequestLogRow | undefined> {
      const [row] = await db.select().from(requestLogs).where(eq(requestLogs.id, id)).limit(1);
      return row;
    },

    /** The filter's totals: from the per-minute sums when they can answer, else from the rows. */
    async totals(f: RequestLogFilter): Promise<RequestLogTotals> {
      if (summableByMinute(f)) {
        const [row] = await db
          .select({
            total: sql<number>`coalesce(sum(${requestLogMinutes.requests}), 0)::float8`,
            successful: sql<number>`coalesce(sum(${requestLogMinutes.requests}) filter (where ${requestLogMinutes.statusCode} < 400), 0)::float8`,
            durationMsSum: sql<number>`coalesce(sum(${requestLogMinutes.durationMsSum}), 0)::float8`,
          })
          .from(requestLogMinutes)
          .where(all(minuteFilter(f)));
        const total = Number(row?.total ?? 0);
        const successful = Number(row?.successful ?? 0);
        return { total, successful, errors: total - successful, durationMsSum: Number(row?.durationMsSum ?? 0) };
      }
      const [row] = await db
        .select({
          total: sql<number>`count(*)::float8`,
          successful: sql<number>`count(*) filter (where ${requestLogs.statusCode} < 400)::float8`,
          durationMsSum: sql<number>`coalesce(sum(${requestLogs.durationMs}), 0)::float8`,
        })
        .from(requestLogs)
        .where(all(rowFilter(f)));
      const total = Number(row?.total ?? 0);
      const successful = Number(row?.successful ?? 0);
      return { total, successful, errors: total - successful, durationMsSum: Number(row?.durationMsSum ?? 0) };
    },

    /** Requests from the minute of `since` on, and the 429s among them (docs/decisions.md#measured-numbers), from the per-minute sums. */
    async countSince(since: Date): Promise<{ total: number; rateLimited: number }> {
      const [row] = await db
        .select({
          total: sql<number>`coalesce(sum(${requestLogMinutes.requests}), 0)::float8`,
          rateLimited: sql<number>`coalesce(sum(${requestLogMinutes.requests}) filter (where ${requestLogMinutes.statusCode} = 429), 0)::float8`,
        })
        .from(requestLogMinutes)
        .where(gte(requestLogMinutes.minute, sql`date_trunc('minute', ${since.toISOString()}::timestamptz)`));
      return { total: Number(row?.total ?? 0), rateLimited: Number(row?.rateLimited ?? 0) };
    },

    /**
     * Requests and errors per minute from the minute of `since` on, oldest first; minutes without
     * requests are absent. An error is a status of 400 or more, or an MCP answer that failed under
     * a lower one (a tool error, a JSON-RPC error).
     */
    async perMinute(since: Date): Promise<{ minute: Date; requests: number; errors: number }[]> {
      const rows = await db
        .select({
          minute: requestLogMinutes.minute,
          requests: sql<number>`sum(${requestLogMinutes.requests})::float8`,
          errors: sql<number>`(coalesce(sum(${requestLogMinutes.requests}) filter (where ${requestLogMinutes.statusCode} >= 400), 0) + sum(${requestLogMinutes.mcpErrors}))::float8`,
        })
        .from(requestLogMinutes)
        .where(gte(requestLogMinutes.minute, sql`date_trunc('minute', ${since.toISOString()}::timestamptz)`))
        .groupBy(requestLogMinutes.minute)
        .orderBy(requestLogMinutes.minute);
      return rows.map((r) => ({ minute: r.minute, requests: Number(r.requests), errors: Number(r.errors) }));
    },

    /**
     * Per endpoint (`endpoints`, matched by method and exact path or path prefix), the requests
     * since `since` and their median duration: over the most recent `cap` rows of the window, so
     * the cost stays bounded however busy the hour was.
     */
    async endpointMedians(
      since: Date,
      endpoints: readonly { key: string; method: string; path: string; prefix: boolean }[],
      cap: number,
    ): Promise<Map<string, { requests: number; medianMs: number }>> {
      if (endpoints.length === 0) return new Map();
      const cases = sql.join(
        endpoints.map((e) =>
          e.prefix
            ? sql`when r.method = ${e.method} and r.path like ${`${likeLiteral(e.path)}%`} then ${e.key}`
            : sql`when r.method = ${e.method} and r.path = ${e.path} then ${e.key}`,
        ),
        sql` `,
      );
      // Both drivers (pg and PGlite) answer execute() with `{ rows }`.
      const result = (await db.execute(sql`
        select e.endpoint, count(*)::int as requests, percentile_cont(0.5) within group (order by r.duration_ms) as median
        from (select method, path, duration_ms from request_logs where at >= ${since.toISOString()}::timestamptz order by at desc limit ${cap}) r
        cross join lateral (select case ${cases} end as endpoint) e
        where e.endpoint is not null
        group by e.endpoint`)) as unknown as { rows: { endpoint: string; requests: number; median: number }[] };
      return new Map(result.rows.map((r) => [r.endpoint, { requests: Number(r.requests), medianMs: Number(r.median) }]));
    },

    /** Removes rows before `before`, taken down to its minute, and the sums of those minutes: rows and sums stay in step. */
    async pruneBefore(before: Date): Promise<number> {
      const edge = new Date(Math.floor(before.getTime() / MINUTE_MS) * MINUTE_MS);
      const rows = await db.delete(requestLogs).where(lt(requestLogs.at, edge)).returning({ id: requestLogs.id });
      await db.delete(requestLogMinutes).where(lt(requestLogMinutes.minute, edge));
      return rows.length;
    },
  };
}
