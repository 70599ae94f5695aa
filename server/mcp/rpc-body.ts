import type { IncomingMessage } from "node:http";
import type { RequestHandler } from "express";
import { RPC, sendRpcError } from "./json-rpc";

const MAX_DEPTH = 64;

/** Whether `value` nests objects or arrays deeper than `limit` (iterative: no recursion to overflow). */
export function tooDeep(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth >= limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
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
  if (tooDeep(body, MAX_DEPTH)) return { ok: false, code: RPC.invalidRequest, message: `Invalid Request: JSON nested more than ${MAX_DEPTH} levels deep` };
  return { ok: true, body };
}

/** The media type of a request (its Content-Type without parameters, lower case). */
export const mediaTypeOf = (req: IncomingMessage): string => (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();

/** Bodies the front door read before it handed the request on to Express (front-door.ts): read once, parsed here. */
const readEarlier = new WeakMap<IncomingMessage, Buffer>();
export const handOnBody = (req: IncomingMessage, bytes: Buffer): void => void readEarlier.set(req, bytes);

/**
 * Reads a JSON-RPC POST body ourselves, before the SDK sees it, so every refusal is a JSON-RPC
 * error with the right HTTP status and the request log can name the method: a media type other
 * than application/json is 415, more than `limitBytes` is 413 (the connection is closed, not
 * drained), a body that is not JSON is -32700 (JSON-RPC 2.0 §5.1). The parsed value becomes
 * `req.body`.
 */
export function rpcBody(options: { limitBytes: number }): RequestHandler {
  return (req, res, next) => {
    if (req.method !== "POST") return next();
    if (mediaTypeOf(req) !== "application/json") {
      return sendRpcError(res, 415, RPC.invalidRequest, "Unsupported Media Type: Content-Type must be application/json");
    }
    const finish = (bytes: Buffer) => {
      const parsed = parseRpcBody(bytes);
      if (!parsed.ok) return sendRpcError(res, 400, parsed.code, parsed.message);
      req.body = parsed.body;
      next();
    };
    const tooLarge = () => {
      res.set("Connection", "close");
      sendRpcError(res, 413, RPC.invalidRequest, `Request body larger than ${options.limitBytes} bytes`);
    };
    const early = readEarlier.get(req);
    if (early) return early.length > options.limitBytes ? tooLarge() : finish(early);
    if (Number(req.headers["content-length"] ?? 0) > options.limitBytes) {
      req.resume();
      return tooLarge();
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on("data", (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > options.limitBytes) {
        done = true;
        req.pause();
        tooLarge();
        return;
      }
      chunks.push(chunk);
    });
    req.on("error", () => {
      done = true;
    });
    req.on("end", () => {
      if (done) return;
      done = true;
      finish(Buffer.concat(chunks));
    });
  };
}
