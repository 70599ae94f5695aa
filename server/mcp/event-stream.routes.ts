import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AuthInfo } from "@modelcontextprotocol/server";
import { Router, type RequestHandler } from "express";
import { AppError, retryAfter } from "../lib/app-error";
import type { Logger } from "../lib/logger";
import type { ConnectionsService } from "../modules/connections/connections.service";
import type { Guard } from "../http/middleware/access";
import { ownerOf, sseFrame, type LiveStream, type LiveStreams, type StreamKind } from "./live-streams";

export const EVENT_STREAM_PATH = "/api/sse/stream";

interface OpenStreamDeps {
  streams: LiveStreams;
  connections: ConnectionsService;
  log: Logger;
}

/**
 * Opens a long-lived server-sent event stream for a bearer-authenticated request: admitted under
 * the stream limits (D16, 429 with Retry-After otherwise; `admitted` when the caller already
 * was), registered in this process and in the connection registry, and cleaned up however it
 * ends. `onOpen` writes the first event. Plain Node request and response: front-door.ts opens
 * streams before Express.
 */
export async function openEventStream(
  deps: OpenStreamDeps,
  req: IncomingMessage,
  res: ServerResponse,
  kind: StreamKind,
  extra: { caller: StreamCaller; onOpen: (stream: LiveStream) => void; deliver?: LiveStream["deliver"]; connectionId?: string; admitted?: boolean },
): Promise<LiveStream> {
  const owner = ownerOf(extra.caller.auth);
  if (!extra.admitted) {
    const admission = await deps.streams.admit(owner.clientId);
    if (!admission.ok) throw new AppError("rate_limited", admission.message, { headers: retryAfter(admission.retryAfterMs) });
  }

  const connectionId = extra.connectionId ?? randomUUID();
  res.writeHead(200, {
    "Content-Type": "text/event-stream; charset=utf-8",
    "Cache-Control": "no-store",
    Connection: "keep-alive",
    // Proxies such as nginx must pass events on as they come.
    "X-Accel-Buffering": "no",
  });
  res.flushHeaders();
  req.socket.setNoDelay(true);
  // The server's request timeout is for ordinary requests; a stream lives until one side ends it.
  req.socket.setTimeout(0);

  let open = true;
  const stream: LiveStream = {
    connectionId,
    kind,
    owner,
    res,
    send(event, data) {
      if (!open || res.writableEnded) return false;
      return res.write(sseFrame(event, data));
    },
    end(reason) {
      if (!open) return;
      stream.send("error", { connectionId, message: reason });
      res.end();
    },
    ...(extra.deliver ? { deliver: extra.deliver } : {}),
  };
  deps.streams.add(stream);
  res.once("close", () => {
    open = false;
    if (deps.streams.remove(connectionId) && !deps.streams.stopping) deps.connections.closed(connectionId).catch((err) => deps.log.warn({ err }, "closing a registry row failed"));
  });
  try {
    await deps.connections.opened({ connectionId, kind, clientId: owner.clientId, userId: owner.userId, ip: extra.caller.ip, userAgent: req.headers["user-agent"] ?? null });
  } catch (err) {
    deps.log.warn({ err }, "registering a stream failed");
  }
  extra.onOpen(stream);
  return stream;
}

/**
 * The specification's event stream (D8): `connected` with the connection id, `heartbeat` every
 * 30 s, `mcp-response` for requests posted to /api/mcp/protocol naming this connection
 * (`X-Connection-Id`), and `error` (the last event when the server ends the stream).
 */
export function eventStreamRoutes(deps: EventStreamDeps & { guard: Guard }): Router {
  const router = Router();
  const handler: RequestHandler = async (req, res, next) => {
    try {
      await openSpecStream(deps, req, res, { auth: req.auth!, ip: req.ip ?? null });
    } catch (err) {
      next(err);
    }
  };
  router.get(EVENT_STREAM_PATH, deps.guard, handler);
  return router;
}

export type EventStreamDeps = OpenStreamDeps & { heartbeatMs: number };

/** Who opens a stream: their verified token, and their address (the registry's `ip`). */
export interface StreamCaller {
  auth: AuthInfo;
  ip: string | null;
}

/** The `/api/sse/stream` stream itself: opened, and its `connected` event sent. */
export const openSpecStream = (deps: EventStreamDeps, req: IncomingMessage, res: ServerResponse, caller: StreamCaller, admitted = false): Promise<LiveStream> =>
  openEventStream(deps, req, res, "sse-stream", {
    caller,
    admitted,
    onOpen: (stream) => stream.send("connected", { connectionId: stream.connectionId, heartbeatIntervalMs: deps.heartbeatMs, timestamp: new Date().toISOString() }),
  });
