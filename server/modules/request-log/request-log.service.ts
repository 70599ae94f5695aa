import type { LogFilter, LogQuery, LogSummaryDto } from "../../../contract/logs";
import type { NewRequestLogRow, RequestLogRow } from "../../db/schema";
import { AppError } from "../../lib/app-error";
import type { Clock } from "../../lib/clock";
import { cursorScope, openPosition, sealPosition, type Cursors } from "../../lib/cursor";
import type { Logger } from "../../lib/logger";
import { createBatchWriter, type BatchWriterOptions, type DropReason } from "../../lib/batch-writer";
import { NO_NAMES, type LogNames } from "./request-log.presenter";
import type { LogPosition, RequestLogRepo } from "./request-log.repo";

export type RequestLogEntry = Omit<NewRequestLogRow, "id">;

/** Which names a reader may see: clients' with oauth-clients.read, users' with users.read. */
export interface NameReveal {
  clients: boolean;
  users: boolean;
}
const NO_REVEAL: NameReveal = { clients: false, users: false };

export type RequestLogOptions = BatchWriterOptions;

/** How many rows the CSV export reads at a time: memory stays flat whatever the log holds. */
const EXPORT_PAGE = 1000;

const filterOf = (q: LogFilter): LogFilter => ({
  status: q.status,
  statusCode: q.statusCode,
  method: q.method,
  search: q.search,
  clientId: q.clientId,
  tool: q.tool,
  outcome: q.outcome,
  source: q.source,
  from: q.from,
  to: q.to,
});

/** A cursor belongs to the filters it was given for: another filter's cursor is refused, not misread. */
const scopeOf = (q: LogQuery): string => cursorScope("request-log", { ...filterOf(q), before: q.before });

const badCursor = () =>
  new AppError("validation_failed", "cursor is not an X-Next-Cursor this server gave for these filters; start again without it", {
    fields: { cursor: "cursor is not an X-Next-Cursor this server gave for these filters; start again without it" },
  });

/** docs/decisions.md#request-log: the request log, written in batches off the request path (lib/batch-writer.ts), and read by the Logs screen and the dashboard. */
export function createRequestLogService(
  deps: {
    repo: RequestLogRepo;
    clock: Clock;
    log: Logger;
    cursors: Cursors;
    /** The names of clients and users by id (their repos' namesOf); none: rows name ids only. */
    names?: {
      clients: (ids: readonly string[]) => Promise<Map<string, string>>;
      users: (ids: readonly string[]) => Promise<Map<string, string>>;
    };
    onDropped?: (reason: DropReason, rows: number) => void;
  } & RequestLogOptions,
) {
  const writer = createBatchWriter<RequestLogEntry>({ ...deps, what: "request log", insertMany: (rows) => deps.repo.insertMany(rows) });
  const ago = (ms: number) => new Date(deps.clock.now().getTime() - ms);
  /**
   * The names of the clients and users the rows name, as far as the reader may see them (`reveal`:
   * their permissions to read clients and users); two queries a page.
   */
  const namesOf = async (rows: RequestLogRow[], reveal: NameReveal): Promise<LogNames> => {
    if (!deps.names || rows.length === 0) return NO_NAMES;
    const { names } = deps;
    const distinct = (pick: (row: RequestLogRow) => string | null) => [...new Set(rows.map(pick).filter((v): v is string => v !== null))];
    const [clients, users] = await Promise.all([
      reveal.clients ? names.clients(distinct((r) => r.clientId)) : new Map<string, string>(),
      reveal.users ? names.users(distinct((r) => r.userId)) : new Map<string, string>(),
    ]);
    return { clients, users };
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

    /** A page, newest first, the names its rows may show (request-log.presenter), and the cursor of the next one (null on the last). */
    async page(
      q: LogQuery,
      reveal: NameReveal = NO_REVEAL,
    ): Promise<{ rows: RequestLogRow[]; names: LogNames; nextCursor: string | null }> {
      const scope = scopeOf(q);
      const after: LogPosition | undefined = q.cursor === undefined ? undefined : openPosition(deps.cursors, scope, q.cursor, badCursor);
      const rows = await deps.repo.list({ ...filterOf(q), limit: q.limit + 1, before: q.before, after });
      const page = rows.slice(0, q.limit);
      const last = page.at(-1);
      const nextCursor = rows.length > q.limit && last ? sealPosition(deps.cursors, scope, last) : null;
      return { rows: page, names: await namesOf(page, reveal), nextCursor };
    },

    /** One row and the names it may show, or undefined. */
    get: async (id: string, reveal: NameReveal = NO_REVEAL): Promise<{ row: RequestLogRow; names: LogNames } | undefined> => {
      const row = await deps.repo.get(id);
      return row ? { row, names: await namesOf([row], reveal) } : undefined;
    },

    /** The Logs screen's stat cards over every row the filters match. */
    async summary(f: LogFilter): Promise<LogSummaryDto> {
      const t = await deps.repo.totals(filterOf(f));
      return {
        total: t.total,
        successful: t.successful,
        errors: t.errors,
        averageResponseTime: t.total > 0 ? Math.round((t.durationMsSum / t.total) * 100) / 100 : null,
      };
    },

    /** Every row the filters match, newest first, a page at a time (the CSV export: ids, no names). */
    async *matching(f: LogFilter): AsyncGenerator<RequestLogRow[]> {
      let after: LogPosition | undefined;
      for (;;) {
        const rows = await deps.repo.list({ ...filterOf(f), limit: EXPORT_PAGE, after });
        if (rows.length > 0) yield rows;
        if (rows.length < EXPORT_PAGE) return;
        const last = rows.at(-1)!;
        after = { at: last.at, id: last.id };
      }
    },

    /** Requests in the last `windowMs` and the 429s among them (the dashboard's figures, docs/decisions.md#measured-numbers), counted by minute. */
    countSince: (windowMs: number) => deps.repo.countSince(ago(windowMs - 60_000)),
    /** Per endpoint, the last hour's requests and median duration (over its most recent `cap` rows). */
    endpointMedians: (endpoints: Parameters<RequestLogRepo["endpointMedians"]>[1], cap = 50_000) =>
      deps.repo.endpointMedians(ago(3_600_000), endpoints, cap),
    /** Requests and errors per minute over the last `windowMs` (the dashboard's chart). */
    perMinute: (windowMs: number) => deps.repo.perMinute(ago(windowMs - 60_000)),
    prune: (retentionDays: number): Promise<number> => deps.repo.pruneBefore(ago(retentionDays * 86_400_000)),
  };
}

export type RequestLogService = ReturnType<typeof createRequestLogService>;
