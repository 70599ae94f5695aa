import type { LogEntryDto, LogFilter, LogQuery, LogSummaryDto, McpOutcome } from "../../../contract/logs";
import type { NewRequestLogRow, RequestLogRow } from "../../db/schema";
import { AppError } from "../../lib/app-error";
import type { Clock } from "../../lib/clock";
import type { Logger } from "../../lib/logger";
import { createBatchWriter, type BatchWriterOptions, type DropReason } from "../../lib/batch-writer";
import type { Cursors } from "../../mcp/tools/cursor";
import type { LogPosition, RequestLogRepo } from "./request-log.repo";

export type RequestLogEntry = Omit<NewRequestLogRow, "id">;

/** Who the rows name, by id: the clients' and users' names while they exist. */
export interface LogNames {
  clients: ReadonlyMap<string, string>;
  users: ReadonlyMap<string, string>;
}

const NO_NAMES: LogNames = { clients: new Map(), users: new Map() };

/** Which names a reader may see: clients' with oauth-clients.read, users' with users.read. */
export interface NameReveal {
  clients: boolean;
  users: boolean;
}
const NO_REVEAL: NameReveal = { clients: false, users: false };

export const presentLogEntry = (row: RequestLogRow, names: LogNames = NO_NAMES): LogEntryDto => ({
  id: row.id,
  method: row.method,
  endpoint: row.path,
  statusCode: row.statusCode,
  responseTime: Math.round(row.durationMs * 100) / 100,
  clientId: row.clientId,
  ipAddress: row.ip,
  userAgent: row.userAgent,
  createdAt: row.at.toISOString(),
  userId: row.userId,
  rpcMethod: row.rpcMethod,
  toolName: row.toolName,
  clientName: row.clientId === null ? null : (names.clients.get(row.clientId) ?? null),
  userName: row.userId === null ? null : (names.users.get(row.userId) ?? null),
  outcome: (row.outcome as McpOutcome | null) ?? null,
  error: row.error,
});

export type RequestLogOptions = BatchWriterOptions;

/** How many rows the CSV export reads at a time: memory stays flat whatever the log holds. */
const EXPORT_PAGE = 1000;

const filterOf = (q: LogFilter): LogFilter => ({ status: q.status, statusCode: q.statusCode, method: q.method, search: q.search, clientId: q.clientId, tool: q.tool, outcome: q.outcome, source: q.source, from: q.from, to: q.to });

/** A cursor belongs to the filters it was given for: another filter's cursor is refused, not misread. */
const cursorScope = (q: LogQuery): string => `request-log\u0000${JSON.stringify({ ...filterOf(q), before: q.before })}`;

const badCursor = () => new AppError("validation_failed", "cursor is not an X-Next-Cursor this server gave for these filters; start again without it", { fields: { cursor: "cursor is not an X-Next-Cursor this server gave for these filters; start again without it" } });

function positionIn(cursors: Cursors, q: LogQuery): LogPosition | undefined {
  if (q.cursor === undefined) return undefined;
  let value: string;
  try {
    value = cursors.open(cursorScope(q), q.cursor);
  } catch {
    throw badCursor();
  }
  const [at, id] = value.split("|");
  const when = new Date(at ?? "");
  if (!id || !/^[0-9a-f-]{36}$/.test(id) || Number.isNaN(when.getTime())) throw badCursor();
  return { at: when, id };
}

/** D15: the request log, written in batches off the request path (lib/batch-writer.ts), and read by the Logs screen and the dashboard. */
export function createRequestLogService(
  deps: {
    repo: RequestLogRepo;
    clock: Clock;
    log: Logger;
    cursors: Cursors;
    /** The names of clients and users by id (their repos' namesOf); none: rows name ids only. */
    names?: { clients: (ids: readonly string[]) => Promise<Map<string, string>>; users: (ids: readonly string[]) => Promise<Map<string, string>> };
    onDropped?: (reason: DropReason, rows: number) => void;
  } & RequestLogOptions,
) {
  const writer = createBatchWriter<RequestLogEntry>({ ...deps, what: "request log", insertMany: (rows) => deps.repo.insertMany(rows) });
  const ago = (ms: number) => new Date(deps.clock.now().getTime() - ms);
  /**
   * The rows as the screens read them, with the names of the clients and users they name, as far
   * as the reader may see them (`reveal`: their permissions to read clients and users); two queries a page.
   */
  const present = async (rows: RequestLogRow[], reveal: NameReveal): Promise<LogEntryDto[]> => {
    if (!deps.names || rows.length === 0) return rows.map((row) => presentLogEntry(row));
    const { names } = deps;
    const distinct = (pick: (row: RequestLogRow) => string | null) => [...new Set(rows.map(pick).filter((v): v is string => v !== null))];
    const [clients, users] = await Promise.all([
      reveal.clients ? names.clients(distinct((r) => r.clientId)) : new Map<string, string>(),
      reveal.users ? names.users(distinct((r) => r.userId)) : new Map<string, string>(),
    ]);
    return rows.map((row) => presentLogEntry(row, { clients, users }));
  };

  return {
    /** Synchronous and cheap: the request never waits for the database. */
    record: (entry: RequestLogEntry): void => writer.add(entry),
    flush: writer.flush,
    /** Stops the timer and writes everything buffered. */
    close: writer.close,
    get buffered(): number {
      return writer.buffered;
    },

    /** A page, newest first, and the cursor of the next one (null on the last). */
    async page(q: LogQuery, reveal: NameReveal = NO_REVEAL): Promise<{ entries: LogEntryDto[]; nextCursor: string | null }> {
      const rows = await deps.repo.list({ ...filterOf(q), limit: q.limit + 1, before: q.before, after: positionIn(deps.cursors, q) });
      const page = rows.slice(0, q.limit);
      const last = page.at(-1);
      const nextCursor = rows.length > q.limit && last ? deps.cursors.seal(cursorScope(q), `${last.at.toISOString()}|${last.id}`) : null;
      return { entries: await present(page, reveal), nextCursor };
    },

    /** One entry with what its detail shows (the tool call is the route's to add), or undefined. */
    get: async (id: string, reveal: NameReveal = NO_REVEAL): Promise<(LogEntryDto & { requestId: string | null; headers: Record<string, string> }) | undefined> => {
      const row = await deps.repo.get(id);
      return row ? { ...(await present([row], reveal))[0]!, requestId: row.requestId, headers: row.headers ?? {} } : undefined;
    },

    /** The Logs screen's stat cards over every row the filters match. */
    async summary(f: LogFilter): Promise<LogSummaryDto> {
      const t = await deps.repo.totals(filterOf(f));
      return { total: t.total, successful: t.successful, errors: t.errors, averageResponseTime: t.total > 0 ? Math.round((t.durationMsSum / t.total) * 100) / 100 : null };
    },

    /** Every row the filters match, newest first, a page at a time (the CSV export). */
    async *matching(f: LogFilter): AsyncGenerator<LogEntryDto[]> {
      let after: LogPosition | undefined;
      for (;;) {
        const rows = await deps.repo.list({ ...filterOf(f), limit: EXPORT_PAGE, after });
        if (rows.length > 0) yield await present(rows, NO_REVEAL);
        if (rows.length < EXPORT_PAGE) return;
        const last = rows.at(-1)!;
        after = { at: last.at, id: last.id };
      }
    },

    /** Requests in the last `windowMs` and the 429s among them (the dashboard's figures, D14), counted by minute. */
    countSince: (windowMs: number) => deps.repo.countSince(ago(windowMs - 60_000)),
    /** Per endpoint, the last hour's requests and median duration (over its most recent `cap` rows). */
    endpointMedians: (endpoints: Parameters<RequestLogRepo["endpointMedians"]>[1], cap = 50_000) => deps.repo.endpointMedians(ago(3_600_000), endpoints, cap),
    /** Requests and errors per minute over the last `windowMs` (the dashboard's chart). */
    perMinute: (windowMs: number) => deps.repo.perMinute(ago(windowMs - 60_000)),
    prune: (retentionDays: number): Promise<number> => deps.repo.pruneBefore(ago(retentionDays * 86_400_000)),
  };
}

export type RequestLogService = ReturnType<typeof createRequestLogService>;
