import type { LogEntryDto, LogQuery } from "../../../contract/logs";
import type { NewRequestLogRow, RequestLogRow } from "../../db/schema";
import type { Clock } from "../../lib/clock";
import type { Logger } from "../../lib/logger";
import { createBatchWriter, type BatchWriterOptions } from "../../lib/batch-writer";
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

export type RequestLogOptions = BatchWriterOptions;

/** D15: the request log, written in batches off the request path (lib/batch-writer.ts). */
export function createRequestLogService(deps: { repo: RequestLogRepo; clock: Clock; log: Logger } & RequestLogOptions) {
  const writer = createBatchWriter<RequestLogEntry>({ ...deps, what: "request log", insertMany: (rows) => deps.repo.insertMany(rows) });

  return {
    /** Synchronous and cheap: the request never waits for the database. */
    record: (entry: RequestLogEntry): void => writer.add(entry),
    flush: writer.flush,
    /** Stops the timer and writes everything buffered. */
    close: writer.close,
    get buffered(): number {
      return writer.buffered;
    },
    list: async (q: LogQuery): Promise<LogEntryDto[]> => (await deps.repo.list(q)).map(presentLogEntry),
    /** Requests in the last `windowMs` and the 429s among them (the dashboard's figures, D14). */
    countSince: (windowMs: number) => deps.repo.countSince(new Date(deps.clock.now().getTime() - windowMs)),
    prune: (retentionDays: number): Promise<number> => deps.repo.pruneBefore(new Date(deps.clock.now().getTime() - retentionDays * 86_400_000)),
  };
}

export type RequestLogService = ReturnType<typeof createRequestLogService>;
