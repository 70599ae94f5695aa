import { classifyInboundRequest, SERVER_INFO_META_KEY } from "@modelcontextprotocol/server";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Step } from "./exchange";
import { RPC, sendRpcError } from "./json-rpc";
import { outcomeOfResult, type McpNote } from "./outcome";
import { callerOf, TOOLS_LIST_TTL_MS, type Caller, type McpCore } from "./mcp-server";

/** The 2026-07-28 revision: the one modern revision served (the SDK's supported list). */
const MODERN = "2026-07-28";
/** The 2025 revisions the SDK's stateless legacy leg serves with an MCP-Protocol-Version header. */
const LEGACY = new Set(["2025-03-26", "2025-06-18", "2025-11-25"]);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** A request answered directly: which era answers, and the message. */
export interface DirectRequest {
  era: "modern" | "legacy";
  method: "tools/call" | "tools/list";
  id: string | number;
  params: Record<string, unknown>;
}

/**
 * Whether this request may be answered directly, and in which era: only when the SDK would serve
 * it in exactly the way writeDirectAnswer does. The era and the envelope are classified by the SDK's own
 * `classifyInboundRequest`; anything unusual or wrong (another method, a malformed envelope, a
 * missing or mismatched standard header, a Base64 Mcp-Name, arguments that are not an object, no
 * MCP-Protocol-Version header on a 2025 request, a session id, an Accept the 2025 leg would
 * refuse) is left to the SDK.
 */
export function directRequestOf(header: (name: string) => string | undefined, body: unknown): DirectRequest | undefined {
  if (!isPlainObject(body) || body.jsonrpc !== "2.0" || (body.method !== "tools/call" && body.method !== "tools/list")) return undefined;
  const { id, method } = body;
  const params = body.params === undefined ? {} : body.params;
  if (!((typeof id === "string" || typeof id === "number") && isPlainObject(params))) return undefined;
  if (method === "tools/call" && !(typeof params.name === "string" && (params.arguments === undefined || isPlainObject(params.arguments))))
    return undefined;

  const headers = {
    protocolVersionHeader: header("mcp-protocol-version"),
    mcpMethodHeader: header("mcp-method"),
    mcpNameHeader: header("mcp-name"),
  };
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
    if (!accept.includes("application/json") || !accept.includes("text/event-stream") || header("mcp-session-id") !== undefined)
      return undefined;
    return { era: "legacy", method, id, params };
  }
  return undefined;
}

/** A direct request that failed on our side: logged, and answered as a JSON-RPC internal error. */
function internalError(core: McpCore, res: ServerResponse, request: DirectRequest, err: unknown, note?: McpNote): void {
  core.deps.log.error({ err, method: request.method }, "MCP request failed");
  if (note) Object.assign(note, { outcome: "rpc_error", error: "Internal error" } satisfies McpNote);
  sendRpcError(res, 500, RPC.internalError, "Internal error", { id: request.id });
}

type Resolved = NonNullable<Awaited<ReturnType<McpCore["resolveTool"]>>>;

/** A direct request admitted for a caller: for tools/call, the tool as this caller may run it. */
export interface DirectWork {
  request: DirectRequest;
  caller: Caller;
  resolved?: Resolved;
}

/** The work for this caller, or undefined when the tool is not on offer to them (a protocol error: the SDK writes it). */
export async function prepareDirect(core: McpCore, request: DirectRequest, caller: Caller): Promise<DirectWork | undefined> {
  if (request.method === "tools/list") return { request, caller };
  const resolved = await core.resolveTool(request.params.name as string, caller);
  return resolved ? { request, caller, resolved } : undefined;
}

/**
 * Runs admitted work and writes its answer: the result in the era's form, or a JSON-RPC
 * internal error should anything throw; `note` gets its outcome, for the request log. A client
 * that goes away aborts the tool's upstream call.
 */
export async function writeDirectAnswer(core: McpCore, work: DirectWork, res: ServerResponse, note?: McpNote): Promise<void> {
  const { request, caller, resolved } = work;
  const { era, method, id, params } = request;
  let result: Record<string, unknown>;
  try {
    if (!resolved) {
      result = await core.listTools(caller);
    } else {
      const abort = new AbortController();
      const onClose = () => {
        if (!res.writableFinished) abort.abort();
      };
      res.once("close", onClose);
      // A client already gone (it left while its request was checked) gets no upstream call run for it.
      if (res.destroyed) abort.abort();
      result = await core.callTool(resolved.tool, params.arguments, resolved.context(abort.signal), resolved.caller);
      res.off("close", onClose);
    }
  } catch (err) {
    return internalError(core, res, request, err, note);
  }
  if (note) Object.assign(note, resolved ? outcomeOfResult(result) : { outcome: "ok" });
  if (res.destroyed) return;

  if (era === "modern") {
    // The 2026-07-28 encode steps, in the SDK's order: resultType, the cache fields of a list, serverInfo.
    const cache = method === "tools/list" ? { ttlMs: TOOLS_LIST_TTL_MS, cacheScope: "private" } : {};
    const message = {
      result: { ...result, resultType: "complete", ...cache, _meta: { [SERVER_INFO_META_KEY]: core.serverInfo } },
      jsonrpc: "2.0",
      id,
    };
    // Plain node writes: Express's res.set would add a charset the SDK's answer does not carry. A
    // Content-Length spares the chunked encoding (and its extra writes) of a body known whole.
    const json = JSON.stringify(message);
    res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(json) }).end(json);
  } else {
    res
      .writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no" })
      .end(`event: message\ndata: ${JSON.stringify({ result, jsonrpc: "2.0", id })}\n\n`);
  }
}

/**
 * Answers `tools/list` and `tools/call`, the two requests an AI client sends all day, directly:
 * without the SDK's per-request machinery (a web-standard Request built from the Node one, a
 * Server and a transport per request, our own results validated again, a streamed Response read
 * back into the Node response), about half the CPU per call. The SDK stays the protocol
 * authority: directRequestOf admits only what it would serve the same way, an unknown tool is left to it
 * too, and direct-answers.test.ts holds these answers equal to the SDK's. Anything else goes on
 * to the SDK (MCP_FAST_LANE=false sends everything there, to compare the two in tests).
 */
export function answerDirectly(core: McpCore): Step {
  return async (x) => {
    const request = directRequestOf((name) => headerOf(x.req, name), x.body);
    if (!request) return true;
    let work: DirectWork | undefined;
    try {
      work = await prepareDirect(core, request, callerOf(x.auth));
    } catch (err) {
      internalError(core, x.res, request, err, x.note);
      return false;
    }
    if (!work) return true;
    await writeDirectAnswer(core, work, x.res, x.note);
    return false;
  };
}

/** A request header as Express's req.get reads it (node joins repeated ones; only Set-Cookie is a list). */
export const headerOf = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return typeof value === "string" ? value : undefined;
};
