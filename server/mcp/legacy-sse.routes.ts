import { randomUUID } from "node:crypto";
import { Server, type JSONRPCMessage, type McpServerFactory, type ServerEventBus, type Transport } from "@modelcontextprotocol/server";
import { Router } from "express";
import type { ClientRateLimit } from "../http/middleware/rate-limit";
import type { Guard } from "../http/middleware/access";
import { describeRpc, RPC, rpcErrorHandler, rpcIdOf, sendRpcError } from "./json-rpc";
import { ownerOf, sameOwner, type LiveStream } from "./live-streams";
import { openEventStream } from "./event-stream.routes";
import { rpcBody } from "./rpc-body";
import { stampRequest, toolScope } from "./message-checks";

export const LEGACY_SSE_PATH = "/sse";
export const LEGACY_MESSAGES_PATH = "/messages";

/**
 * The transport of the 2024-11-05 revision, "HTTP with SSE": the server's messages go out as
 * `message` events on the stream; the client's come in as POSTs to the endpoint the first event
 * named. One server instance per session, held by this process (live-streams.ts).
 */
class LegacySseTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport["onmessage"];
  constructor(
    private readonly stream: () => LiveStream | undefined,
    readonly sessionId: string,
  ) {}
  async start(): Promise<void> {}
  async send(message: JSONRPCMessage): Promise<void> {
    this.stream()?.send("message", message);
  }
  async close(): Promise<void> {
    this.onclose?.();
  }
}

/**
 * D8: the legacy HTTP+SSE transport for older clients (`GET /sse`, then `POST /messages?sessionId=…`),
 * on unless MCP_LEGACY_SSE=false. Its stream is a long-lived stream like the others (limits,
 * registry, owner, ended when access ends). A message for a session this process does not hold
 * (ended, another token's, or held by another instance) is a clear 404.
 */
export function legacySseRoutes(
  deps: Parameters<typeof openEventStream>[0] & { factory: McpServerFactory; bus: ServerEventBus; guard: Guard; rateLimit: ClientRateLimit; maxBodyBytes: number; resourceMetadataUrl: string },
): Router {
  const router = Router();

  router.get(LEGACY_SSE_PATH, deps.guard, async (req, res, next) => {
    const sessionId = randomUUID();
    let current: LiveStream | undefined;
    const transport = new LegacySseTransport(() => current, sessionId);
    try {
      const server = await deps.factory({ era: "legacy", authInfo: req.auth! });
      current = await openEventStream(deps, req, res, "legacy-sse", {
        caller: { auth: req.auth!, ip: req.ip ?? null },
        connectionId: sessionId,
        // 2024-11-05 "HTTP with SSE": the first event is `endpoint`, its data the URI to POST to (plain text, not JSON).
        onOpen: (stream) => stream.res.write(`event: endpoint\ndata: ${LEGACY_MESSAGES_PATH}?sessionId=${stream.connectionId}\n\n`),
        // Each message carries the token of its own POST, verified then: its scopes and its client's
        // policy as they are now, not as they were when the stream opened (issue 24 item 1).
        deliver: async (message, auth) => transport.onmessage?.(message as JSONRPCMessage, { authInfo: auth }),
      });
      // The session hears what subscriptions/listen streams hear: its tool list changed.
      const lowLevel = server instanceof Server ? server : server.server;
      const unsubscribe = deps.bus.subscribe((event) => {
        if (event.kind === "tools_list_changed") lowLevel.sendToolListChanged().catch(() => undefined);
      });
      res.once("close", () => {
        unsubscribe();
        server.close().catch(() => undefined);
      });
      await server.connect(transport);
    } catch (err) {
      next(err);
    }
  });

  router.post(LEGACY_MESSAGES_PATH, deps.guard, stampRequest, deps.rateLimit, rpcBody({ limitBytes: deps.maxBodyBytes }), deps.rateLimit.eachMessage, toolScope(deps.resourceMetadataUrl), async (req, res) => {
    res.locals.mcp = describeRpc(req.body);
    const sessionId = typeof req.query.sessionId === "string" ? req.query.sessionId : "";
    const stream = deps.streams.get(sessionId);
    if (!stream || stream.kind !== "legacy-sse" || !stream.deliver || !sameOwner(stream.owner, ownerOf(req.auth!))) {
      return sendRpcError(res, 404, RPC.invalidRequest, "No live session with this sessionId on this server instance: it ended, belongs to another token, or is held by another instance. Open a new one with GET /sse", { id: rpcIdOf(req.body) });
    }
    await stream.deliver(req.body, req.auth!);
    res.status(202).type("text/plain").send("Accepted");
  });
  router.use([LEGACY_SSE_PATH, LEGACY_MESSAGES_PATH], rpcErrorHandler);
  return router;
}
