/**
 * What a log line may keep of an error: its kind, code and message, never the values it carried.
 * A failed query's message from Drizzle holds the SQL and every parameter (an argon2id hash, a
 * sealed secret); PostgreSQL's own error keeps the values in `detail`, which is dropped too.
 */
export interface SafeError {
  type: string;
  message: string;
  code?: string;
  stack?: string;
}

const DRIZZLE_QUERY_FAILED = /^Failed query:/;

/** The PostgreSQL error under a Drizzle wrapper (pg and PGlite both set a SQLSTATE `code`). */
function databaseCause(err: unknown): { code: string; message: string } | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return { code, message: typeof message === "string" ? message : "" };
  }
  return undefined;
}

export function safeError(value: unknown): SafeError {
  // Not `instanceof Error`: errors from another realm (a worker, a wasm host such as PGlite) fail it.
  if (!value || typeof value !== "object" || typeof (value as { message?: unknown }).message !== "string")
    return { type: typeof value, message: "non-Error value thrown" };
  const err = value as Error;
  const db = databaseCause(err);
  if (db || DRIZZLE_QUERY_FAILED.test(err.message)) {
    // Only the SQLSTATE and the server's one-line message; no SQL text, no parameters, no stack
    // (a stack's first line repeats the message).
    return { type: "DatabaseError", code: db?.code ?? "unknown", message: db?.message.split("\n")[0]?.slice(0, 300) ?? "query failed" };
  }
  const code = (err as { code?: unknown }).code;
  return {
    type: typeof err.name === "string" ? err.name : "Error",
    message: err.message.slice(0, 500),
    ...(typeof code === "string" ? { code } : {}),
    ...(err.stack ? { stack: err.stack } : {}),
  };
}
