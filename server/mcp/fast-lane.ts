import { classifyInboundRequest, SERVER_INFO_META_KEY } from "@modelcontextprotocol/server";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AuthInfo } from "@modelcontextprotocol/server";
import type { BearerGuard } from "../http/middleware/bearer";
import { CONNECTION_HEADER } from "./live-streams";
import { handOnBody, mediaTypeOf, parseRpcBody } from "./rpc-body";
import type { RequestHandler } from "express";
import { describeRpc, RPC, sendRpcError } from "./json-rpc";
import { outcomeOfResult, type McpNote } from "./outcome";
import { callerOf, TOOLS_LIST_TTL_MS, type Caller, type McpCore } from "./mcp-server";

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

/** A lane request that failed on our side: logged, and answered as a JSON-RPC internal error. */
function internalError(core: McpCore, res: ServerResponse, lane: LaneRequest, err: unknown, note?: McpNote): void {
  core.deps.log.error({ err, method: lane.method }, "MCP request failed");
  if (note) Object.assign(note, { outcome: "rpc_error", error: "Internal error" } satisfies McpNote);
  sendRpcError(res, 500, RPC.internalError, "Internal error", { id: lane.id });
}

type Resolved = NonNullable<Awaited<ReturnType<McpCore["resolveTool"]>>>;

/** A lane request admitted for a caller: for tools/call, the tool as this caller may run it. */
export interface LaneWork {
  lane: LaneRequest;
  caller: Caller;
  resolved?: Resolved;
}

/** The lane's work for this caller, or undefined when the tool is not on offer to them (a protocol error: the SDK writes it). */
export async function prepareLane(core: McpCore, lane: LaneRequest, caller: Caller): Promise<LaneWork | undefined> {
  if (lane.method === "tools/list") return { lane, caller };
  const resolved = await core.resolveTool(lane.params.name as string, caller);
  return resolved ? { lane, caller, resolved } : undefined;
}

/**
 * Runs admitted lane work and writes its answer: the result in the era's form, or a JSON-RPC
 * internal error should anything throw; `note` gets its outcome, for the request log. A client
 * that goes away aborts the tool's upstream call.
 */
export async function answerLane(core: McpCore, work: LaneWork, res: ServerResponse, note?: McpNote): Promise<void> {
  const { lane, caller, resolved } = work;
  const { era, method, id, params } = lane;
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
      // A client already gone (it left while the door checked its request) gets no upstream call run for it.
      if (res.destroyed) abort.abort();
      result = await core.callTool(resolved.tool, params.arguments, resolved.context(abort.signal), resolved.caller);
      res.off("close", onClose);
    }
  } catch (err) {
    return internalError(core, res, lane, err, note);
  }
  if (note) Object.assign(note, resolved ? outcomeOfResult(result) : { outcome: "ok" });
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
}

/**
 * The fast lane: `tools/list` and `tools/call`, the two requests an AI client sends all day,
 * answered without the SDK's per-request machinery (a web-standard Request built from the Node
 * one, a Server and a transport per request, our own results validated again, a streamed
 * Response read back into the Node response): about half the CPU per call. The SDK stays the
 * protocol authority: laneFor admits only what it would serve the same way, an unknown tool is
 * left to it too, and fast-lane.test.ts holds the lane's answers equal to the SDK's. Its ordinary
 * case is served before Express (laneAtTheDoor); this is the lane inside Express's route, for the
 * rest: a browser's Origin, a chunked body, a query string or a connection id, a session id.
 */
export function fastLane(core: McpCore): RequestHandler {
  return async (req, res, next) => {
    const lane = laneFor((name) => req.get(name), req.body);
    if (!lane) return next();
    let work: LaneWork | undefined;
    try {
      work = await prepareLane(core, lane, callerOf(req.auth));
    } catch (err) {
      return internalError(core, res, lane, err, res.locals.mcp as McpNote | undefined);
    }
    if (!work) return next();
    await answerLane(core, work, res, res.locals.mcp as McpNote | undefined);
  };
}

/** What a request served before Express is recorded as (front-door.ts does the recording). */
export interface DoorVisit {
  route: string;
  ip: string | null;
  auth: AuthInfo;
  /** What the request log records of an MCP exchange (describeRpc, then its outcome). */
  mcp?: McpNote;
}

/** What the front door lends a request it takes: Express's per-request work, and Express itself. */
export interface Door {
  /** The request is the door's from now: its log times start here, whoever answers it. */
  arrive(): void;
  /** The client's address, as `req.ip` would give it. */
  ip(): string;
  /** Records the request as Express's middleware would; answers its request id. */
  visit(visit: DoorVisit): string;
  /** Hands the request on to Express. */
  next(): void;
}

export interface LaneDoorDeps {
  core: McpCore;
  /** The read-token guard of each path the lane serves, by exact path. */
  guards: ReadonlyMap<string, BearerGuard>;
  /** The API limit for a request (clientRateLimit's `admits`): counted once, whoever answers it. */
  rateLimit: (req: IncomingMessage, clientId: string) => Promise<boolean>;
  maxBodyBytes: number;
}

/**
 * The fast lane before Express (front-door.ts): a POST of tools/list or tools/call with a valid
 * read token, under the API limit, with a JSON body of known length and no browser Origin, no
 * event stream to deliver to and no session. Express's route for it cost about a quarter of a
 * call's CPU. The door takes only what that route would serve through the lane, and does the same
 * work for it, in the same order, with the same functions: the guard's ordinary case and the
 * limit before the body is read, then the body's parse, laneFor and the tool's resolution. A
 * request refused by the guard or the limit goes on to Express unread; anything else the lane
 * does not serve goes on with the body it read (handOnBody). Express answers both as it always
 * has, and `door.visit` records a served one as Express's middleware would.
 */
export function laneAtTheDoor(deps: LaneDoorDeps) {
  const { core } = deps;

  /** Whether the request looks like the lane's, from its head alone. */
  function wants(req: IncomingMessage): BearerGuard | undefined {
    if (req.method !== "POST") return undefined;
    const guard = deps.guards.get(req.url ?? "");
    const h = req.headers;
    if (!guard || h.authorization === undefined || h.origin !== undefined || h["mcp-session-id"] !== undefined || h[CONNECTION_HEADER] !== undefined) return undefined;
    const length = Number(h["content-length"]);
    if (!(h["content-length"] !== undefined && Number.isInteger(length) && length <= deps.maxBodyBytes && mediaTypeOf(req) === "application/json")) return undefined;
    return guard;
  }

  /** The body (Content-Length bounds it), or undefined when the client went away first. */
  const readBody = (req: IncomingMessage): Promise<Buffer | undefined> =>
    new Promise((resolve) => {
      const chunks: Buffer[] = [];
      const onData = (chunk: Buffer) => chunks.push(chunk);
      const settle = (bytes: Buffer | undefined) => {
        req.off("data", onData).off("end", onEnd).off("error", onGone).off("close", onClose);
        resolve(bytes);
      };
      const onEnd = () => settle(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
      const onGone = () => settle(undefined);
      const onClose = () => {
        if (!req.complete) settle(undefined);
      };
      // Gone while its token was checked: its close has been and gone.
      if (req.destroyed) return resolve(undefined);
      req.on("data", onData).once("end", onEnd).once("error", onGone).once("close", onClose);
    });

  /** The lane's work for this body, or undefined when the lane does not serve it. */
  async function admit(req: IncomingMessage, auth: AuthInfo, bytes: Buffer): Promise<{ work: LaneWork; body: unknown } | undefined> {
    const parsed = parseRpcBody(bytes);
    if (!parsed.ok) return undefined;
    const lane = laneFor((name) => headerOf(req, name), parsed.body);
    if (!lane) return undefined;
    const work = await prepareLane(core, lane, callerOf(auth));
    return work && { work, body: parsed.body };
  }

  async function serve(req: IncomingMessage, res: ServerResponse, door: Door, guard: BearerGuard): Promise<void> {
    const ip = door.ip();
    const auth = await guard.admits(req, ip).catch(() => undefined);
    // Refused by the guard or the limit: Express answers (401, 403, 429) without reading the body, as it always has.
    if (!auth || !(await deps.rateLimit(req, auth.clientId))) return door.next();
    const bytes = await readBody(req);
    // The client left while sending: Express records what is left of the request.
    if (!bytes) return door.next();
    const admitted = await admit(req, auth, bytes).catch(() => undefined);
    if (!admitted) {
      handOnBody(req, bytes);
      return door.next();
    }
    const { work, body } = admitted;
    const note: McpNote = describeRpc(body);
    // The request's id rides with its caller, for the tool-call audit.
    work.caller.requestId = door.visit({ route: req.url!, ip, auth, mcp: note });
    await answerLane(core, work, res, note);
  }

  /** Takes the request (true) and serves it or hands it on; false: not the lane's, untouched. */
  return function take(req: IncomingMessage, res: ServerResponse, door: Door): boolean {
    const guard = wants(req);
    if (!guard) return false;
    door.arrive();
    serve(req, res, door, guard).catch((err: unknown) => {
      core.deps.log.error({ err }, "MCP request failed");
      res.destroy();
    });
    return true;
  };
}

/** A request header as Express's req.get reads it (node joins repeated ones; only Set-Cookie is a list). */
const headerOf = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return typeof value === "string" ? value : undefined;
};
