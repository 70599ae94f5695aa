import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import {
  createMcpHandler,
  type AuthInfo,
  type McpHttpHandler,
  type McpServerFactory,
  type ServerEventBus,
} from "@modelcontextprotocol/server";
import { toNodeHandler, toWebRequest } from "@modelcontextprotocol/node";
import type { Logger } from "../lib/logger";
import type { ConnectionsService } from "../modules/connections/connections.service";
import { authOf, singleQueryParam, type Step } from "./exchange";
import { writeJson } from "../http/write-json";
import { retryAfter } from "../lib/app-error";
import { RPC, rpcIdOf, sendRpcError } from "./json-rpc";
import type { StreamForwarding } from "../cluster/stream-forwarding";
import { CONNECTION_HEADER, ownerOf, sameOwner, type LiveStreams } from "./live-streams";
import { eventStreamData, outcomeOfMessages } from "./outcome";

export interface SdkAnswersDeps {
  factory: McpServerFactory;
  /** Change events for `subscriptions/listen` streams (tools/list_changed). */
  bus: ServerEventBus;
  maxBodyBytes: number;
  log: Logger;
}

/**
 * The SDK's answers: MCP Streamable HTTP (2025-03-26 and later) and the 2026-07-28 stateless
 * revision on one endpoint (docs/decisions.md#mcp-transports), served by createMcpHandler from one server factory: requests
 * with the per-request `_meta` envelope take the modern path, `initialize`-era requests the
 * stateless legacy path (GET and DELETE answer 405 there).
 */
export function createSdkAnswers(deps: SdkAnswersDeps) {
  const handler = createMcpHandler(deps.factory, {
    legacy: "stateless",
    bus: deps.bus,
    // The stream limits are ours (docs/decisions.md#rate-limits, per client and per process); the SDK's own cap stays above them.
    maxSubscriptions: Number.MAX_SAFE_INTEGER,
    maxRequestBodySize: deps.maxBodyBytes,
    // Rejections are the client's mistakes, answered in-band; they are not our errors.
    onerror: (err) => deps.log.debug({ err: { message: err.message } }, "MCP request rejected"),
  });
  const serve = toNodeHandler(handler, {
    maxRequestBodySize: deps.maxBodyBytes,
    onerror: (err) => deps.log.error({ err }, "MCP handler failed"),
  });

  /** The SDK answers (the body read, when there is one); the token reaches it as `req.auth`, the adapter's pass-through. */
  const answerWithSdk: Step = async (x) => {
    await serve(Object.assign(x.req, { auth: x.auth }), x.res, x.body);
    return false;
  };

  /** The specification's path may name an `/api/sse/stream` connection to deliver the response to (X-Connection-Id or ?connectionId=). */
  const deliverToEventStream =
    (streams: LiveStreams, forwarding: StreamForwarding): Step =>
    async (x) => {
      const connectionId = connectionIdOf(x.req);
      if (connectionId === undefined) return true;
      const auth = authOf(x);
      const stream = streams.get(connectionId);
      const here = stream && stream.kind === "sse-stream" && sameOwner(stream.owner, ownerOf(auth)) ? stream : null;
      // Held by another instance (issue 29 item 1): answered here, delivered there.
      const elsewhere = here || stream ? null : await forwarding.holderOf(connectionId, "sse-stream", auth);
      if (!here && !elsewhere) {
        sendRpcError(
          x.res,
          404,
          RPC.invalidRequest,
          `No live event stream ${connectionId.slice(0, 64)} of yours: open one with GET /api/sse/stream`,
          { id: rpcIdOf(x.body) },
        );
        return false;
      }
      const messages = await exchange(handler, x.req, x.body, auth);
      Object.assign(x.note, outcomeOfMessages(messages));
      if (here) for (const message of messages) here.send("mcp-response", message);
      else {
        const { clientId, userId } = ownerOf(auth);
        await forwarding.send(elsewhere!.instanceId, { kind: "responses", connectionId, owner: { clientId, userId }, messages });
      }
      writeJson(x.res, 202, { accepted: true, connectionId, messages: messages.length });
      return false;
    };

  return { handler, answerWithSdk, deliverToEventStream };
}

/** The connection a request names: the X-Connection-Id header, or a single `connectionId` query parameter. */
function connectionIdOf(req: IncomingMessage): string | undefined {
  const header = req.headers[CONNECTION_HEADER];
  if (typeof header === "string") return header;
  return singleQueryParam(req, "connectionId");
}

/**
 * One JSON-RPC exchange through the handler, collecting what it answers: a JSON body, or the
 * messages of an SSE answer (the 2025 legacy leg streams). For delivery on an event stream.
 */
async function exchange(handler: McpHttpHandler, req: IncomingMessage, body: unknown, authInfo: AuthInfo): Promise<unknown[]> {
  const request = await toWebRequest(req, body);
  const headers = new Headers(request.headers);
  headers.set("accept", "application/json, text/event-stream");
  const response = await handler.fetch(new Request(request, { headers }), { authInfo, parsedBody: body });
  const text = await response.text();
  if (!text) return [];
  if ((response.headers.get("content-type") ?? "").startsWith("text/event-stream")) return eventStreamData(text);
  return [JSON.parse(text) as unknown];
}

/**
 * `subscriptions/listen` (2026-07-28) opens a long-lived stream: it counts against the stream
 * limits (docs/decisions.md#rate-limits), is a row in the connection registry while it lives, and belongs to its token's
 * subject, so it is ended when that access ends. The SDK writes it (answerWithSdk, next).
 */
export function openListenStream(deps: { streams: LiveStreams; connections: ConnectionsService; log: Logger }): Step {
  return async (x) => {
    const body = x.body as { method?: unknown } | null;
    if (body?.method !== "subscriptions/listen") return true;
    const owner = ownerOf(authOf(x));
    const admission = await deps.streams.admit(owner.clientId);
    if (!admission.ok) {
      sendRpcError(x.res, 429, RPC.serverError, admission.message, {
        id: rpcIdOf(body),
        headers: retryAfter(admission.retryAfterMs),
      });
      return false;
    }
    // A stream that lives on is not read for its outcome.
    x.watch?.stop();
    const connectionId = randomUUID();
    const { res } = x;
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
      if (deps.streams.remove(connectionId) && !deps.streams.stopping)
        deps.connections.closed(connectionId).catch((err) => deps.log.warn({ err }, "closing a registry row failed"));
    });
    deps.connections
      .opened({
        connectionId,
        kind: "listen",
        clientId: owner.clientId,
        userId: owner.userId,
        ip: x.ip,
        userAgent: x.req.headers["user-agent"] ?? null,
      })
      .catch((err) => deps.log.warn({ err }, "registering a stream failed"));
    return true;
  };
}
