import type { IncomingMessage, ServerResponse } from "node:http";
import type { AuthInfo } from "@modelcontextprotocol/server";
import type { AppError } from "../lib/app-error";
import { sendError } from "../http/middleware/error-handler";
import { RPC, rpcIdOf, sendRpcError } from "./json-rpc";
import type { McpNote } from "./outcome";

/**
 * How an entry writes a refusal that is not the token's (a rate limit, a stream limit): as a
 * JSON-RPC error, so an MCP client always reads JSON-RPC (ARCHITECTURE rule 4), or, on the
 * specification's event stream under /api, in the house error body.
 */
export type ErrorForm = "json-rpc" | "house";

/** One MCP request on its way through the pipeline (pipeline.ts): what its steps learn of it, in order. */
export interface Exchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** The entry's path (`/mcp`, …). */
  readonly path: string;
  /** The X-Request-Id answered, and the `requestId` of the tool-call audit. */
  readonly requestId: string;
  /** The client's address, as Express's `req.ip` gives it under TRUST_PROXY. */
  readonly ip: string;
  readonly errors: ErrorForm;
  /** What the request log records of the exchange: its JSON-RPC method and tool, and how the answer ended. */
  readonly note: McpNote;
  /** Reads a POST's answer as it is written, for its outcome; stopped for a stream that lives on. */
  watch?: { stop(): void };
  /** The verified access token, its `extra.requestId` this request's id (authenticate). */
  auth?: AuthInfo;
  /** The parsed JSON-RPC body (readBody). */
  body?: unknown;
}

/** One step of the pipeline: true to go on, false once it has answered (or the client is gone). */
export type Step = (x: Exchange) => boolean | Promise<boolean>;

/** Answers an AppError in the entry's form, with its status and headers (Retry-After); false, for a step to return. */
export function refuse(x: Exchange, err: AppError): false {
  if (x.errors === "house") {
    if (x.res.headersSent) x.res.destroy();
    else sendError(x.res, err, x.requestId);
    return false;
  }
  const code = err.status === 429 || err.status >= 500 ? RPC.serverError : RPC.invalidRequest;
  sendRpcError(x.res, err.status, code, err.message, { id: rpcIdOf(x.body), ...(err.headers ? { headers: err.headers } : {}) });
  return false;
}

/** A query parameter given exactly once (a repeated or missing one is undefined, as Express's `req.query` read it). */
export function singleQueryParam(req: IncomingMessage, name: string): string | undefined {
  const url = req.url ?? "";
  const at = url.indexOf("?");
  const values = at === -1 ? [] : new URLSearchParams(url.slice(at + 1)).getAll(name);
  return values.length === 1 ? values[0] : undefined;
}

/** The request's authenticated token; only for steps after authenticate. */
export const authOf = (x: Exchange): AuthInfo => {
  if (!x.auth) throw new Error(`${x.path}: a step that needs the token runs before authenticate`);
  return x.auth;
};
