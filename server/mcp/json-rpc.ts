import type { ServerResponse } from "node:http";

/** JSON-RPC 2.0 §5.1 error codes, and the MCP ones the SDK does not export under a name we use. */
export const RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** MCP: a transport-level refusal (the SDK answers 405, 406 and 413 with it). */
  serverError: -32000,
} as const;

export type RpcId = string | number | null;

/**
 * The one writer of JSON-RPC error bodies outside the SDK (ARCHITECTURE rule 4): HTTP status,
 * code, message. Plain node writes: the MCP pipeline runs before Express.
 */
export function sendRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  options: { id?: RpcId; headers?: Record<string, string>; data?: unknown } = {},
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const body = JSON.stringify({
    jsonrpc: "2.0",
    error: { code, message, ...(options.data === undefined ? {} : { data: options.data }) },
    id: options.id ?? null,
  });
  for (const [name, value] of Object.entries(options.headers ?? {})) res.setHeader(name, value);
  res.statusCode = status;
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(body));
  res.end(body);
}

/** The id of a parsed JSON-RPC request, when it has a usable one (to echo it in an error). */
export const rpcIdOf = (body: unknown): RpcId => {
  const id = (body as { id?: unknown } | null)?.id;
  return typeof id === "string" || typeof id === "number" ? id : null;
};

/** What the request log records of an MCP message: its method and, for tools/call, the tool. */
export function describeRpc(body: unknown): { rpcMethod?: string; toolName?: string } {
  const first = Array.isArray(body) ? body[0] : body;
  if (!first || typeof first !== "object") return {};
  const { method, params } = first as { method?: unknown; params?: { name?: unknown } };
  if (typeof method !== "string") return {};
  const toolName = method === "tools/call" && typeof params?.name === "string" ? params.name.slice(0, 200) : undefined;
  return { rpcMethod: method.slice(0, 200), ...(toolName ? { toolName } : {}) };
}
