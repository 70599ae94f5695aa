import { randomUUID } from "node:crypto";
import { createMcpHandler, type AuthInfo, type McpHttpHandler, type McpServerFactory, type ServerEventBus } from "@modelcontextprotocol/server";
import { toNodeHandler, toWebRequest } from "@modelcontextprotocol/node";
import { Router, type Request, type RequestHandler, type Response } from "express";
import type { ClientRateLimit } from "../http/middleware/rate-limit";
import type { Logger } from "../lib/logger";
import type { ConnectionsService } from "../modules/connections/connections.service";
import type { Guard } from "../http/middleware/access";
import { describeRpc, RPC, rpcErrorHandler, rpcIdOf, sendRpcError } from "./json-rpc";
import { CONNECTION_HEADER, ownerOf, sameOwner, type LiveStreams } from "./live-streams";
import { fastLane } from "./fast-lane";
import type { McpCore } from "./mcp-server";
import { eventStreamData, outcomeOfMessages, watchAnswer, type McpNote } from "./outcome";
import { rpcBody } from "./rpc-body";
import { stampRequest, toolScope } from "./message-checks";

/** MCP endpoint paths: the protocol's own, and the specification's (D8). */
export const MCP_PATH = "/mcp";
export const SPEC_PROTOCOL_PATH = "/api/mcp/protocol";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

export interface McpHttpDeps {
  factory: McpServerFactory;
  /** Shared with the factory's servers; serves the fast lane. */
  core: McpCore;
  /** The fast lane for tools/list and tools/call (default on; off only to compare it with the SDK in tests). */
  fastLane?: boolean;
  /** Change events for `subscriptions/listen` streams (tools/list_changed). */
  bus: ServerEventBus;
  /** The read-scope bearer guards for /mcp and the specification's path (resource metadata under each). */
  guards: { mcp: Guard; spec: Guard };
  rateLimit: ClientRateLimit;
  streams: LiveStreams;
  connections: ConnectionsService;
  /** Browser origins allowed to call (CORS_ORIGINS and our own). */
  allowedOrigins: string[];
  resourceMetadataUrl: (path: string) => string;
  maxBodyBytes: number;
  log: Logger;
}

/**
 * MCP Streamable HTTP (2025-03-26 and later) and the 2026-07-28 stateless revision on one
 * endpoint (D8), served by the SDK's createMcpHandler from one server factory: requests with the
 * per-request `_meta` envelope take the modern path, `initialize`-era requests the stateless
 * legacy path (GET and DELETE answer 405 there).
 */
export function mcpRoutes(deps: McpHttpDeps): { router: Router; handler: McpHttpHandler } {
  const handler = createMcpHandler(deps.factory, {
    legacy: "stateless",
    bus: deps.bus,
    // The stream limits are ours (D16, per client and per process); the SDK's own cap stays above them.
    maxSubscriptions: Number.MAX_SAFE_INTEGER,
    maxRequestBodySize: deps.maxBodyBytes,
    // Rejections are the client's mistakes, answered in-band; they are not our errors.
    onerror: (err) => deps.log.debug({ err: { message: err.message } }, "MCP request rejected"),
  });
  const serve = toNodeHandler(handler, { maxRequestBodySize: deps.maxBodyBytes, onerror: (err) => deps.log.error({ err }, "MCP handler failed") });
  const router = Router();

  /**
   * MCP Transports, "Security Warning", and Security Best Practices ("Local MCP Server
   * Compromise"): a page on another site must not reach this server, not even through DNS
   * rebinding (its Host and Origin then both name the attacker's domain). A browser's Origin is
   * accepted when it is one of the allowed origins, or when it is this very origin on a loopback
   * address (a local client page); anything else is 403. Requests without Origin (non-browser
   * clients) pass. Allowed origins get CORS headers.
   */
  const origins = new Set(deps.allowedOrigins.map((o) => o.toLowerCase()));
  const allowedOrigin = (req: Request, origin: string): boolean => {
    if (origins.has(origin.toLowerCase())) return true;
    try {
      const url = new URL(origin);
      return url.host === req.headers.host && LOOPBACK_HOSTS.has(url.hostname.toLowerCase());
    } catch {
      return false;
    }
  };
  const originCheck: RequestHandler = (req, res, next) => {
    const origin = req.headers.origin;
    if (origin === undefined) return next();
    if (!allowedOrigin(req, origin)) return sendRpcError(res, 403, RPC.invalidRequest, `Origin ${origin.slice(0, 200)} is not allowed`);
    res.set("Access-Control-Allow-Origin", origin).set("Vary", "Origin").set("Access-Control-Expose-Headers", "Mcp-Session-Id, WWW-Authenticate, Retry-After");
    if (req.method !== "OPTIONS") return next();
    res
      .set("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS")
      .set("Access-Control-Allow-Headers", "Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Mcp-Method, Mcp-Name, Last-Event-ID, X-Connection-Id")
      .set("Access-Control-Max-Age", "86400")
      .status(204)
      .end();
  };

  /**
   * What the request log records of this exchange (D15): how its answer ended, read as it is
   * written whoever writes it (a guard's refusal, the SDK, an error handler), unless the fast lane
   * or the event-stream delivery notes it first.
   */
  const watch: RequestHandler = (req, res, next) => {
    const mcp: McpNote = {};
    res.locals.mcp = mcp;
    if (req.method === "POST") res.locals.watch = watchAnswer(res, mcp);
    next();
  };
  /** …and the JSON-RPC method and tool, once the body is read. */
  const note: RequestHandler = (req, res, next) => {
    Object.assign(res.locals.mcp as McpNote, describeRpc(req.body));
    next();
  };

  /**
   * `subscriptions/listen` (2026-07-28) opens a long-lived stream: it counts against the stream
   * limits (D16), is a row in the connection registry while it lives, and belongs to its token's
   * subject, so it is ended when that access ends.
   */
  const listenStreams: RequestHandler = async (req, res, next) => {
    const body = req.body as { method?: unknown } | null;
    if (body?.method !== "subscriptions/listen" || !req.auth) return next();
    const owner = ownerOf(req.auth);
    const admission = await deps.streams.admit(owner.clientId);
    if (!admission.ok) return sendRpcError(res, 429, RPC.serverError, admission.message, { id: rpcIdOf(body), headers: { "Retry-After": String(Math.max(1, Math.ceil(admission.retryAfterMs / 1000))) } });
    // A stream that lives on is not read for its outcome.
    (res.locals.watch as ReturnType<typeof watchAnswer> | undefined)?.stop();
    const connectionId = randomUUID();
    deps.streams.add({
      connectionId,
      kind: "listen",
      owner,
      res,
      send: () => false,
      // The SDK owns this stream's frames; closing the response aborts its subscription.
      end: () => res.destroy(),
    });
    res.once("close", () => {
      if (deps.streams.remove(connectionId) && !deps.streams.stopping) deps.connections.closed(connectionId).catch((err) => deps.log.warn({ err }, "closing a registry row failed"));
    });
    deps.connections
      .opened({ connectionId, kind: "listen", clientId: owner.clientId, userId: owner.userId, ip: req.ip ?? null, userAgent: req.headers["user-agent"] ?? null })
      .catch((err) => deps.log.warn({ err }, "registering a stream failed"));
    next();
  };

  /** The specification's path may name an `/api/sse/stream` connection to deliver the response to. */
  const toStream: RequestHandler = async (req, res, next) => {
    const connectionId = req.get(CONNECTION_HEADER) ?? (typeof req.query.connectionId === "string" ? req.query.connectionId : undefined);
    if (connectionId === undefined) return next();
    const stream = deps.streams.get(connectionId);
    if (!stream || stream.kind !== "sse-stream" || !req.auth || !sameOwner(stream.owner, ownerOf(req.auth))) {
      return sendRpcError(res, 404, RPC.invalidRequest, `No live event stream ${connectionId.slice(0, 64)} of yours on this server instance: open one with GET /api/sse/stream`, { id: rpcIdOf(req.body) });
    }
    try {
      const messages = await exchange(handler, req, req.auth);
      Object.assign(res.locals.mcp as McpNote, outcomeOfMessages(messages));
      for (const message of messages) stream.send("mcp-response", message);
      res.status(202).json({ accepted: true, connectionId, messages: messages.length });
    } catch (err) {
      next(err);
    }
  };

  /**
   * JSON-RPC batches were part of 2025-03-26 only: 2025-06-18 removed them and 2026-07-28 has one
   * message per request. A batch under a later revision (the MCP-Protocol-Version header; its
   * absence means 2025-03-26) is an invalid request.
   */
  const batches: RequestHandler = (req, res, next) => {
    if (!Array.isArray(req.body)) return next();
    const version = req.get("mcp-protocol-version") ?? "2025-03-26";
    if (version <= "2025-03-26") return next();
    sendRpcError(res, 400, RPC.invalidRequest, `JSON-RPC batches are not supported in protocol revision ${version.slice(0, 20)}; send one message per request`);
  };

  const mcpPipeline = (path: string, guard: Guard) => [guard, stampRequest, deps.rateLimit, rpcBody({ limitBytes: deps.maxBodyBytes }), batches, deps.rateLimit.eachMessage, note, toolScope(deps.resourceMetadataUrl(path))];
  const lane: RequestHandler = deps.fastLane === false ? (_req, _res, next) => next() : fastLane(deps.core);

  // Before any route: a foreign Origin never reaches authentication; a preflight is answered here.
  router.use([MCP_PATH, SPEC_PROTOCOL_PATH], watch, originCheck);
  router.post(MCP_PATH, ...mcpPipeline(MCP_PATH, deps.guards.mcp), lane, listenStreams, (req: Request, res: Response) => serve(req, res, req.body));
  // 2025 session operations on a stateless server: the SDK answers 405 (D8).
  router.all(MCP_PATH, deps.guards.mcp, (req: Request, res: Response) => serve(req, res));
  router.post(SPEC_PROTOCOL_PATH, ...mcpPipeline(SPEC_PROTOCOL_PATH, deps.guards.spec), toStream, lane, listenStreams, (req: Request, res: Response) => serve(req, res, req.body));
  router.use([MCP_PATH, SPEC_PROTOCOL_PATH], rpcErrorHandler);
  return { router, handler };
}

/**
 * One JSON-RPC exchange through the handler, collecting what it answers: a JSON body, or the
 * messages of an SSE answer (the 2025 legacy leg streams). For delivery on an event stream.
 */
async function exchange(handler: McpHttpHandler, req: Request, authInfo: AuthInfo): Promise<unknown[]> {
  const request = await toWebRequest(req, req.body);
  const headers = new Headers(request.headers);
  headers.set("accept", "application/json, text/event-stream");
  const response = await handler.fetch(new Request(request, { headers }), { authInfo, parsedBody: req.body });
  const text = await response.text();
  if (!text) return [];
  if ((response.headers.get("content-type") ?? "").startsWith("text/event-stream")) return eventStreamData(text);
  return [JSON.parse(text) as unknown];
}
