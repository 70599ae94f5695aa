import type { ServerResponse } from "node:http";
import type { McpOutcome } from "../../contract/logs";

/**
 * What the request log records of an MCP exchange (docs/decisions.md#request-log, issue 25 item 6): the JSON-RPC method, the
 * tool of a tools/call, and how the answer ended. Kept in `res.locals.mcp` for request-log.ts.
 */
export interface McpNote {
  rpcMethod?: string;
  toolName?: string;
  outcome?: McpOutcome;
  error?: string;
}

/** An error's text as the log keeps it. */
const MAX_ERROR = 500;
/** An answer longer than this is not read for its outcome (an answer this long is a tool's result, read elsewhere). */
const MAX_WATCHED = 1 << 20;

type Outcome = Pick<McpNote, "outcome" | "error">;

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);
const cut = (text: string): string => (text.length > MAX_ERROR ? `${text.slice(0, MAX_ERROR)}…` : text);

/** A tool result's outcome: `tool_error` with its first text when it has isError, else `ok`. */
export function outcomeOfResult(result: { isError?: boolean; content?: unknown }): Outcome {
  if (result.isError !== true) return { outcome: "ok" };
  const first = Array.isArray(result.content) ? (result.content[0] as { text?: unknown } | undefined) : undefined;
  return { outcome: "tool_error", error: cut(typeof first?.text === "string" ? first.text : "The tool reported an error") };
}

/**
 * The outcome of the JSON-RPC answers of one exchange: a JSON-RPC error wins (its message), then a
 * tool error, then `ok`; undefined when none of them is a JSON-RPC response (an OAuth 401, an empty 202).
 */
export function outcomeOfMessages(messages: readonly unknown[]): Outcome | undefined {
  let found: Outcome | undefined;
  for (const message of messages) {
    if (!isObject(message) || message.jsonrpc !== "2.0") continue;
    if (isObject(message.error)) {
      const text = message.error.message;
      return {
        outcome: "rpc_error",
        error: cut(typeof text === "string" && text !== "" ? text : `JSON-RPC error ${String(message.error.code)}`),
      };
    }
    if (!isObject(message.result)) continue;
    const result = outcomeOfResult(message.result);
    if (found?.outcome !== "tool_error") found = result;
  }
  return found;
}

/** The JSON values in the `data:` of each event of an event stream's text (one per event). */
export function eventStreamData(text: string): unknown[] {
  return text
    .split(/\r?\n\r?\n/)
    .map((frame) =>
      frame
        .split(/\r?\n/)
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5).trimStart())
        .join("\n"),
    )
    .filter(Boolean)
    .map((data) => JSON.parse(data) as unknown);
}

/** The JSON-RPC messages of an answer's body: one JSON value (a message or a batch), or the data of an event stream's events. */
function messagesOf(body: string, contentType: string): unknown[] {
  try {
    if (contentType.startsWith("text/event-stream")) return eventStreamData(body);
    if (!contentType.startsWith("application/json")) return [];
    const value = JSON.parse(body) as unknown;
    return Array.isArray(value) ? value : [value];
  } catch {
    return [];
  }
}

/**
 * Most answers succeed, and a long one (a tool list) is not worth parsing to say so: a JSON-RPC
 * response whose text names neither `"error"` nor `"isError"` holds no error of either kind
 * (JSON.stringify, which every writer here uses, never escapes a letter of a key).
 */
function plainSuccess(body: string): Outcome | undefined {
  if (body.includes('"error"') || body.includes('"isError"')) return undefined;
  return body.includes('"jsonrpc":"2.0"') && body.includes('"result"') ? { outcome: "ok" } : undefined;
}

const bytesOf = (chunk: unknown, encoding: unknown): Buffer | undefined => {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (typeof chunk === "string") return Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return undefined;
};

/**
 * Reads an answer the SDK (or an error handler) writes as it is written, and when it ends notes
 * its outcome, unless one was noted already (a direct answer notes its own and is not read). Bounded
 * (MAX_WATCHED); `stop` ends the watch, for a stream that lives on (subscriptions/listen).
 */
export function watchAnswer(res: ServerResponse, note: McpNote): { stop(): void } {
  const chunks: Buffer[] = [];
  let size = 0;
  let watching = true;
  const stop = () => {
    watching = false;
    chunks.length = 0;
  };
  const keep = (chunk: unknown, encoding: unknown) => {
    // Noted already (a direct answer, a delivery to a stream): nothing to read.
    if (!watching || note.outcome !== undefined) return;
    const bytes = bytesOf(chunk, encoding);
    if (!bytes) return;
    size += bytes.length;
    if (size > MAX_WATCHED) return stop();
    chunks.push(bytes);
  };
  const { write, end } = res;
  res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    keep(chunk, rest[0]);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as ServerResponse["write"];
  res.end = function (this: ServerResponse, ...args: unknown[]) {
    if (typeof args[0] !== "function") keep(args[0], args[1]);
    if (watching && note.outcome === undefined && chunks.length > 0) {
      const body = Buffer.concat(chunks).toString("utf8");
      Object.assign(note, plainSuccess(body) ?? outcomeOfMessages(messagesOf(body, String(res.getHeader("content-type") ?? ""))));
    }
    stop();
    return (end as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse["end"];
  return { stop };
}
