import type { Logger } from "./logger";

export interface BatchWriterOptions {
  /** Rows per INSERT. */
  batchSize?: number;
  flushIntervalMs?: number;
  /** Rows held while the database is slow or away; beyond it the oldest are dropped (and counted). */
  maxBuffered?: number;
}

/**
 * Rows written in batches off the request path (the request log, the tool-call audit): `add`
 * only appends to a buffer; a timer (or a full batch) flushes it with one multi-row INSERT at a
 * time. A failed batch is tried once more, then dropped and counted (logged without its values),
 * never retried forever; `close` flushes everything still buffered (SIGTERM loses nothing).
 */
export function createBatchWriter<T>(deps: { what: string; insertMany: (rows: T[]) => Promise<void>; log: Logger } & BatchWriterOptions) {
  const batchSize = deps.batchSize ?? 1000;
  const maxBuffered = deps.maxBuffered ?? 200_000;
  let buffer: T[] = [];
  let inFlight: Promise<void> | undefined;
  let soon = false;
  let dropped = 0;

  async function writeBatch(rows: T[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await deps.insertMany(rows);
        return;
      } catch (err) {
        if (attempt >= 2) {
          dropped += rows.length;
          deps.log.error({ err, rows: rows.length }, `${deps.what} rows could not be written; dropped`);
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
      deps.log.warn({ dropped }, `${deps.what} rows dropped (the database was too slow or away)`);
      dropped = 0;
    }
    flush().catch(() => undefined);
  }, deps.flushIntervalMs ?? 250);
  timer.unref();

  return {
    /** Synchronous and cheap: the request never waits for the database. */
    add(row: T): void {
      if (buffer.length >= maxBuffered) {
        const cut = Math.ceil(maxBuffered / 10);
        buffer = buffer.slice(cut);
        dropped += cut;
      }
      buffer.push(row);
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
  };
}
