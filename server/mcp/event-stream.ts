import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AuthInfo } from "@modelcontextprotocol/server";
import { AppError, retryAfter } from "../lib/app-error";
import type { Logger } from "../lib/logger";
import type { ConnectionsService } from "../modules/connections/connections.service";
import { authOf, type Step } from "./exchange";
import { ownerOf, sseFrame, type LiveStream, type LiveStreams, type StreamKind } from "./live-streams";

interface OpenStreamDeps {
  streams: LiveStreams;
  connections: ConnectionsService;
  log: Logger;
}

/**
 * Opens a long-lived server-sent event stream for a bearer-authenticated request: admitted under
 * the stream limits (docs/decisions.md#rate-limits, 429 with Retry-After otherwise; `admitted` when the caller already
 * was), registered in this process and in the connection registry, and cleaned up however it
 * ends. `onOpen` writes the first event. Plain Node request and response: the MCP pipeline opens
 * streams before Express.
 */
export async function openEventStream(
  deps: OpenStreamDeps,
  req: IncomingMessage,
  res: ServerResponse,
  kind: StreamKind,
  extra: {
    caller: StreamCaller;
    onOpen: (stream: LiveStream) => void;
    deliver?: LiveStream["deliver"];
    connectionId?: string;
    admitted?: boolean;
  },
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
    if (deps.streams.remove(connectionId) && !deps.streams.stopping)
      deps.connections.closed(connectionId).catch((err) => deps.log.warn({ err }, "closing a registry row failed"));
  });
  try {
    await deps.connections.opened({
      connectionId,
      kind,
      clientId: owner.clientId,
      userId: owner.userId,
      ip: extra.caller.ip,
      userAgent: req.headers["user-agent"] ?? null,
    });
  } catch (err) {
    deps.log.warn({ err }, "registering a stream failed");
  }
  extra.onOpen(stream);
  return stream;
}

export type EventStreamDeps = OpenStreamDeps & { heartbeatMs: number };

/** Who opens a stream: their verified token, and their address (the registry's `ip`). */
export interface StreamCaller {
  auth: AuthInfo;
  ip: string | null;
}

/**
 * The specification's event stream (docs/decisions.md#mcp-transports), `GET /api/sse/stream`: `connected` with the connection
 * id, `heartbeat` every 30 s, `mcp-response` for requests posted to /api/mcp/protocol naming this
 * connection (`X-Connection-Id`), and `error` (the last event when the server ends the stream).
 */
export function openSpecStream(deps: EventStreamDeps): Step {
  return async (x) => {
    await openEventStream(deps, x.req, x.res, "sse-stream", {
      caller: { auth: authOf(x), ip: x.ip },
      onOpen: (stream) =>
        stream.send("connected", {
          connectionId: stream.connectionId,
          heartbeatIntervalMs: deps.heartbeatMs,
          timestamp: new Date().toISOString(),
        }),
    });
    return false;
  };
}
