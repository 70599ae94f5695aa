import type { IncomingMessage } from "node:http";
import type { Step } from "./exchange";
import { RPC, sendRpcError } from "./json-rpc";

const MAX_DEPTH = 64;

/** Whether `value` nests objects or arrays deeper than `limit` (iterative: no recursion to overflow). */
export function tooDeep(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth >= limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v))
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
  }
  return false;
}

/** A JSON-RPC body as read: the message, or why it is refused. */
export type ParsedRpcBody = { ok: true; body: unknown } | { ok: false; code: number; message: string };

/** Parses a JSON-RPC body: not JSON is -32700 (JSON-RPC 2.0 §5.1); nesting beyond MAX_DEPTH is an invalid request. */
export function parseRpcBody(bytes: Buffer): ParsedRpcBody {
  let body: unknown;
  try {
    body = JSON.parse(bytes.toString("utf8")) as unknown;
  } catch {
    return { ok: false, code: RPC.parseError, message: "Parse error: the body is not valid JSON" };
  }
  // No MCP message nests deeply; a body that does would only exhaust the stack of whoever walks it.
  if (tooDeep(body, MAX_DEPTH))
    return { ok: false, code: RPC.invalidRequest, message: `Invalid Request: JSON nested more than ${MAX_DEPTH} levels deep` };
  return { ok: true, body };
}

/** The media type of a request (its Content-Type without parameters, lower case). */
export const mediaTypeOf = (req: IncomingMessage): string => (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();

/**
 * Reads a JSON-RPC POST body ourselves, before the SDK sees it, so every refusal is a JSON-RPC
 * error with the right HTTP status and the request log can name the method: a media type other
 * than application/json is 415, more than `limitBytes` is 413 (the connection is closed, not
 * drained), a body that is not JSON is -32700 (JSON-RPC 2.0 §5.1). A client that leaves while
 * sending gets nothing (the request log records what is left of it).
 */
export function readBody(limitBytes: number): Step {
  return (x) => {
    const { req, res } = x;
    if (mediaTypeOf(req) !== "application/json") {
      sendRpcError(res, 415, RPC.invalidRequest, "Unsupported Media Type: Content-Type must be application/json");
      return false;
    }
    const tooLarge = (): false => {
      res.setHeader("Connection", "close");
      sendRpcError(res, 413, RPC.invalidRequest, `Request body larger than ${limitBytes} bytes`);
      return false;
    };
    if (Number(req.headers["content-length"] ?? 0) > limitBytes) {
      req.resume();
      return tooLarge();
    }
    return new Promise<boolean>((resolve) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const settle = (go: boolean) => {
        req.off("data", onData).off("end", onEnd).off("error", onGone).off("close", onClose);
        resolve(go);
      };
      const onData = (chunk: Buffer) => {
        size += chunk.length;
        if (size <= limitBytes) return void chunks.push(chunk);
        req.pause();
        settle(tooLarge());
      };
      const onEnd = () => {
        const parsed = parseRpcBody(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
        if (!parsed.ok) {
          sendRpcError(res, 400, parsed.code, parsed.message);
          return settle(false);
        }
        x.body = parsed.body;
        settle(true);
      };
      const onGone = () => settle(false);
      const onClose = () => {
        if (!req.complete) settle(false);
      };
      // Gone while its token was checked: its close has been and gone.
      if (req.destroyed) return resolve(false);
      req.on("data", onData).once("end", onEnd).once("error", onGone).once("close", onClose);
    });
  };
}
