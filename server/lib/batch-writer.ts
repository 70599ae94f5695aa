import type { Clock } from "./clock";
import type { Logger } from "./logger";
import { safeError } from "./safe-error";
import { storable } from "./storable";

/**
 * Why rows were dropped (a metric's label, so a few values only): the database refused the row's
 * data (SQLSTATE class 22) or a constraint (23), or found it too large (54); the database failed
 * otherwise (away, timed out); or the buffer was full while it was slow.
 */
export type DropReason = "invalid_data" | "constraint" | "too_large" | "database_error" | "buffer_full";

const ROW_REASONS: Record<string, DropReason> = { "22": "invalid_data", "23": "constraint", "54": "too_large" };

/** The reason of a failed write, by the SQLSTATE's class safeError finds under a Drizzle wrapper (anything else: the database failed). */
const reasonOf = (code: string | undefined): DropReason => ROW_REASONS[code?.slice(0, 2) ?? ""] ?? "database_error";

/** Once a reason has been logged, its later drops are only counted, and summed in a line at most this often. */
const REPORT_EVERY_MS = 60_000;

export interface BatchWriterOptions {
  /** Rows per INSERT. */
  batchSize?: number;
  flushIntervalMs?: number;
  /** Rows held while the database is slow or away; beyond it the oldest are dropped (and counted). */
  maxBuffered?: number;
}

/**
 * Rows written in batches off the request path (the request log, the tool-call audit): `add`
 * only appends to a buffer, its text first made storable (lib/storable.ts: no client can send a
 * NUL that makes the database refuse everyone's rows); a timer (or a full batch) flushes it with
 * one multi-row INSERT at a time. A batch the database refuses is written again row by row, so a
 * row it still refuses loses only itself; when the database itself fails (no SQLSTATE of the
 * row's making), the rest of the batch is dropped at once rather than tried row after row. Nothing
 * is retried forever. Every dropped row is counted (`onDropped`, a metric); the first drop of each
 * reason is logged with it (without the row's values), later ones summed in a line at most once
 * a minute. `close` flushes everything still buffered (SIGTERM loses nothing).
 */
export function createBatchWriter<T>(
  deps: {
    what: string;
    insertMany: (rows: T[]) => Promise<void>;
    log: Logger;
    clock: Clock;
    onDropped?: (reason: DropReason, rows: number) => void;
  } & BatchWriterOptions,
) {
  const batchSize = deps.batchSize ?? 1000;
  const maxBuffered = deps.maxBuffered ?? 200_000;
  let buffer: T[] = [];
  let inFlight: Promise<void> | undefined;
  let soon = false;
  /** Per reason: when it was last logged, and the rows dropped since then that no line has told of. */
  const reported = new Map<DropReason, { at: number; untold: number }>();

  /**
   * One line for the drops no line has told of yet. It names the SQLSTATE, never the database's
   * message: for a refused value (class 22) that message quotes the value ("invalid input syntax
   * for type uuid: \"…\""), which is whatever a client sent.
   */
  function report(reason: DropReason, force = false, code?: string): void {
    const seen = reported.get(reason);
    if (!seen || seen.untold === 0) return;
    const now = deps.clock.now().getTime();
    if (!force && now - seen.at < REPORT_EVERY_MS) return;
    deps.log.error(
      { reason, rows: seen.untold, ...(code === undefined ? {} : { code }) },
      `${deps.what} rows could not be written; dropped (${reason})`,
    );
    seen.at = now;
    seen.untold = 0;
  }

  function drop(reason: DropReason, rows: number, code?: string): void {
    if (rows <= 0) return;
    deps.onDropped?.(reason, rows);
    const seen = reported.get(reason);
    if (seen) seen.untold += rows;
    else reported.set(reason, { at: 0, untold: rows });
    report(reason, !seen, code);
  }

  async function writeBatch(rows: T[]): Promise<void> {
    try {
      await deps.insertMany(rows);
      return;
    } catch {
      // Tried again row by row below: the same rows, so one bad row cannot take the others with it.
    }
    for (let i = 0; i < rows.length; i++) {
      try {
        await deps.insertMany([rows[i]!]);
      } catch (err) {
        const { code } = safeError(err);
        const reason = reasonOf(code);
        if (reason !== "database_error") {
          drop(reason, 1, code);
          continue;
        }
        // Not this row's fault: the database is failing, and every other row would wait on it too.
        drop(reason, rows.length - i, code);
        return;
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
    for (const reason of reported.keys()) report(reason);
    flush().catch(() => undefined);
  }, deps.flushIntervalMs ?? 250);
  timer.unref();

  return {
    /** Synchronous and cheap: the request never waits for the database. */
    add(row: T): void {
      if (buffer.length >= maxBuffered) {
        const cut = Math.ceil(maxBuffered / 10);
        buffer = buffer.slice(cut);
        drop("buffer_full", cut);
      }
      buffer.push(storable(row));
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
      for (const reason of reported.keys()) report(reason, true);
    },
    get buffered(): number {
      return buffer.length;
    },
  };
}
