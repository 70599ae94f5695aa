import type { LogEntryDto, LogQuery } from "../../../contract/logs";
import type { NewRequestLogRow, RequestLogRow } from "../../db/schema";
import type { Clock } from "../../lib/clock";
import type { Logger } from "../../lib/logger";
import type { RequestLogRepo } from "./request-log.repo";

export type RequestLogEntry = Omit<NewRequestLogRow, "id">;

export const presentLogEntry = (row: RequestLogRow): LogEntryDto => ({
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
});

export interface RequestLogOptions {
  /** Rows per INSERT (12 parameters each; PostgreSQL takes at most 65,535 in one statement). */
  batchSize?: number;
  flushIntervalMs?: number;
  /** Rows held while the database is slow or away; beyond it the oldest are dropped (and counted). */
  maxBuffered?: number;
}

/**
 * D15: the request log, written in batches off the request path. `record` only appends to a
 * buffer; a timer (or a full batch) flushes it with one multi-row INSERT at a time. A failed
 * batch is tried once more, then dropped and counted, never retried forever; `close` flushes
 * everything still buffered (SIGTERM loses nothing).
 */
export function createRequestLogService(deps: { repo: RequestLogRepo; clock: Clock; log: Logger } & RequestLogOptions) {
  const batchSize = deps.batchSize ?? 1000;
  const maxBuffered = deps.maxBuffered ?? 200_000;
  let buffer: RequestLogEntry[] = [];
  let inFlight: Promise<void> | undefined;
  let soon = false;
  let dropped = 0;

  async function writeBatch(rows: RequestLogEntry[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await deps.repo.insertMany(rows);
        return;
      } catch (err) {
        if (attempt >= 2) {
          dropped += rows.length;
          deps.log.error({ err, rows: rows.length }, "request log rows could not be written; dropped");
          return;
        }
      }
    }
  }

  /** Writes what is buffered now, batch by batch; one flush at a time. */
  function flush(): Promise<void> {
    if (inFlight) return inFlight.then(() => (buffer.length > 0 ? flush() : undefined));
    if (buffer.length === 0) return Promise.resolve();
    inFlight = (async () => {
      while (buffer.length > 0) {
        const rows = buffer.length <= batchSize ? buffer : buffer.slice(0, batchSize);
        buffer = buffer.length <= batchSize ? [] : buffer.slice(batchSize);
        await writeBatch(rows);
      }
    })().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  }

  const timer = setInterval(() => {
    if (dropped > 0) {
      deps.log.warn({ dropped }, "request log rows dropped (the database was too slow or away)");
      dropped = 0;
    }
    flush().catch(() => undefined);
  }, deps.flushIntervalMs ?? 250);
  timer.unref();

  return {
    /** Synchronous and cheap: the request never waits for the database. */
    record(entry: RequestLogEntry): void {
      if (buffer.length >= maxBuffered) {
        const cut = Math.ceil(maxBuffered / 10);
        buffer = buffer.slice(cut);
        dropped += cut;
      }
      buffer.push(entry);
      if (buffer.length >= batchSize && !soon) {
        soon = true;
        setImmediate(() => {
          soon = false;
          flush().catch(() => undefined);
        });
      }
    },
    flush,
    /** Stops the timer and writes everything buffered. */
    async close(): Promise<void> {
      clearInterval(timer);
      await flush();
    },
    get buffered(): number {
      return buffer.length;
    },
    list: async (q: LogQuery): Promise<LogEntryDto[]> => (await deps.repo.list(q)).map(presentLogEntry),
    /** Requests in the last `windowMs` and the 429s among them (the dashboard's figures, D14). */
    countSince: (windowMs: number) => deps.repo.countSince(new Date(deps.clock.now().getTime() - windowMs)),
    prune: (retentionDays: number): Promise<number> => deps.repo.pruneBefore(new Date(deps.clock.now().getTime() - retentionDays * 86_400_000)),
  };
}

export type RequestLogService = ReturnType<typeof createRequestLogService>;
