import { classifyInboundRequest, SERVER_INFO_META_KEY } from "@modelcontextprotocol/server";
import type { RequestHandler } from "express";
import { RPC, sendRpcError } from "./json-rpc";
import { callerOf, TOOLS_LIST_TTL_MS, type McpCore } from "./mcp-server";

/** The 2026-07-28 revision: the one modern revision served (the SDK's supported list). */
const MODERN = "2026-07-28";
/** The 2025 revisions the SDK's stateless legacy leg serves with an MCP-Protocol-Version header. */
const LEGACY = new Set(["2025-03-26", "2025-06-18", "2025-11-25"]);

const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/** A request the fast lane serves: which era answers, and the message. */
export interface LaneRequest {
  era: "modern" | "legacy";
  method: "tools/call" | "tools/list";
  id: string | number;
  params: Record<string, unknown>;
}

/**
 * Whether the fast lane may serve this request, and in which era: only when the SDK would serve it
 * in exactly the way the lane does. The era and the envelope are classified by the SDK's own
 * `classifyInboundRequest`; anything unusual or wrong (another method, a malformed envelope, a
 * missing or mismatched standard header, a Base64 Mcp-Name, arguments that are not an object, no
 * MCP-Protocol-Version header on a 2025 request, a session id, an Accept the 2025 leg would
 * refuse) is left to the SDK.
 */
export function laneFor(header: (name: string) => string | undefined, body: unknown): LaneRequest | undefined {
  if (!isPlainObject(body) || body.jsonrpc !== "2.0" || (body.method !== "tools/call" && body.method !== "tools/list")) return undefined;
  const { id, method } = body;
  const params = body.params === undefined ? {} : body.params;
  if (!((typeof id === "string" || typeof id === "number") && isPlainObject(params))) return undefined;
  if (method === "tools/call" && !(typeof params.name === "string" && (params.arguments === undefined || isPlainObject(params.arguments)))) return undefined;

  const headers = { protocolVersionHeader: header("mcp-protocol-version"), mcpMethodHeader: header("mcp-method"), mcpNameHeader: header("mcp-name") };
  const route = classifyInboundRequest({ httpMethod: "POST", ...headers, body });
  if (route.kind === "modern" && route.messageKind === "request" && route.classification.revision === MODERN) {
    // The SDK's standard-header rung: the version and method headers present, Mcp-Name naming the tool (plain text only).
    if (headers.protocolVersionHeader === undefined || headers.mcpMethodHeader === undefined) return undefined;
    if (method === "tools/call" && headers.mcpNameHeader !== params.name) return undefined;
    return { era: "modern", method, id, params };
  }
  if (route.kind === "legacy" && route.reason === "no-claim" && LEGACY.has(headers.protocolVersionHeader ?? "")) {
    // The 2025 leg answers in SSE and wants a client that accepts both forms; sessions are the SDK's business.
    const accept = header("accept") ?? "";
    if (!accept.includes("application/json") || !accept.includes("text/event-stream") || header("mcp-session-id") !== undefined) return undefined;
    return { era: "legacy", method, id, params };
  }
  return undefined;
}

/**
 * The fast lane: `tools/list` and `tools/call`, the two requests an AI client sends all day,
 * answered without the SDK's per-request machinery (a web-standard Request built from the Node
 * one, a Server and a transport per request, our own results validated again, a streamed
 * Response read back into the Node response): about half the CPU per call. The SDK stays the
 * protocol authority: laneFor admits only what it would serve the same way, an unknown tool is
 * left to it too, and fast-lane.test.ts holds the lane's answers equal to the SDK's.
 */
export function fastLane(core: McpCore): RequestHandler {
  return async (req, res, next) => {
    const lane = laneFor((name) => req.get(name), req.body);
    if (!lane) return next();
    const { era, method, id, params } = lane;
    const caller = callerOf(req.auth);
    let result: Record<string, unknown>;
    try {
      if (method === "tools/list") {
        result = await core.listTools(caller);
      } else {
        const resolved = await core.resolveTool(params.name as string, caller);
        // An unknown tool is a protocol error: the SDK writes it.
        if (!resolved) return next();
        const abort = new AbortController();
        const onClose = () => {
          if (!res.writableFinished) abort.abort();
        };
        res.once("close", onClose);
        result = await core.callTool(resolved.tool, params.arguments, resolved.context(abort.signal), resolved.caller);
        res.off("close", onClose);
      }
    } catch (err) {
      core.deps.log.error({ err, method }, "MCP request failed");
      return sendRpcError(res, 500, RPC.internalError, "Internal error", { id });
    }
    if (res.destroyed) return;

    if (era === "modern") {
      // The 2026-07-28 encode steps, in the SDK's order: resultType, the cache fields of a list, serverInfo.
      const cache = method === "tools/list" ? { ttlMs: TOOLS_LIST_TTL_MS, cacheScope: "private" } : {};
      const message = { result: { ...result, resultType: "complete", ...cache, _meta: { [SERVER_INFO_META_KEY]: core.serverInfo } }, jsonrpc: "2.0", id };
      // Plain node writes: Express's res.set would add a charset the SDK's answer does not carry. A
      // Content-Length spares the chunked encoding (and its extra writes) of a body known whole.
      const json = JSON.stringify(message);
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(json) }).end(json);
    } else {
      res
        .writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no" })
        .end(`event: message\ndata: ${JSON.stringify({ result, jsonrpc: "2.0", id })}\n\n`);
    }
  };
}
