import { randomUUID } from "node:crypto";
import { Server, type JSONRPCMessage, type McpServerFactory, type ServerEventBus, type Transport } from "@modelcontextprotocol/server";
import { authOf, singleQueryParam, type Step } from "./exchange";
import { RPC, rpcIdOf, sendRpcError } from "./json-rpc";
import { ownerOf, sameOwner, type LiveStream, type LiveStreams } from "./live-streams";
import type { StreamForwarding } from "../cluster/stream-forwarding";
import { openEventStream } from "./event-stream";
import { LEGACY_MESSAGES_PATH } from "./paths";

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
 * docs/decisions.md#mcp-transports: the legacy HTTP+SSE transport for older clients (`GET /sse`, then `POST /messages?sessionId=…`),
 * on unless MCP_LEGACY_SSE=false. Its stream is a long-lived stream like the others (limits,
 * registry, owner, ended when access ends), with one SDK server per session.
 */
export function openLegacySession(deps: Parameters<typeof openEventStream>[0] & { factory: McpServerFactory; bus: ServerEventBus }): Step {
  return async (x) => {
    const auth = authOf(x);
    const sessionId = randomUUID();
    // The transport writes to the stream once it is open.
    const session: { stream?: LiveStream } = {};
    const transport = new LegacySseTransport(() => session.stream, sessionId);
    const server = await deps.factory({ era: "legacy", authInfo: auth });
    session.stream = await openEventStream(deps, x.req, x.res, "legacy-sse", {
      caller: { auth, ip: x.ip },
      connectionId: sessionId,
      // 2024-11-05 "HTTP with SSE": the first event is `endpoint`, its data the URI to POST to (plain text, not JSON).
      onOpen: (stream) => stream.res.write(`event: endpoint\ndata: ${LEGACY_MESSAGES_PATH}?sessionId=${stream.connectionId}\n\n`),
      // Each message carries the token of its own POST, verified then: its scopes and its client's
      // policy as they are now, not as they were when the stream opened (issue 24 item 1).
      deliver: async (message, messageAuth) => transport.onmessage?.(message as JSONRPCMessage, { authInfo: messageAuth }),
    });
    // The session hears what subscriptions/listen streams hear: its tool list changed.
    const lowLevel = server instanceof Server ? server : server.server;
    const unsubscribe = deps.bus.subscribe((event) => {
      if (event.kind === "tools_list_changed") lowLevel.sendToolListChanged().catch(() => undefined);
    });
    x.res.once("close", () => {
      unsubscribe();
      server.close().catch(() => undefined);
    });
    await server.connect(transport);
    return false;
  };
}

/**
 * A message POSTed to a legacy session (`POST /messages?sessionId=…`): handed to its session's
 * server, which answers on the stream; the POST itself is 202. A session another instance holds
 * gets the message there, with this POST's token (issue 29 item 1). A session that is nowhere
 * (ended, or another token's) is a clear 404.
 */
export function deliverToLegacySession(streams: LiveStreams, forwarding: StreamForwarding): Step {
  const accepted = (x: Parameters<Step>[0]) => {
    x.res.writeHead(202, { "Content-Type": "text/plain; charset=utf-8", "Content-Length": 8 }).end("Accepted");
    return false;
  };
  return async (x) => {
    const auth = authOf(x);
    const sessionId = singleQueryParam(x.req, "sessionId");
    const stream = sessionId === undefined ? undefined : streams.get(sessionId);
    if (stream && stream.kind === "legacy-sse" && stream.deliver && sameOwner(stream.owner, ownerOf(auth))) {
      await stream.deliver(x.body, auth);
      return accepted(x);
    }
    const elsewhere = sessionId === undefined || stream ? null : await forwarding.holderOf(sessionId, "legacy-sse", auth);
    if (elsewhere && sessionId !== undefined) {
      await forwarding.send(elsewhere.instanceId, {
        kind: "legacy-message",
        connectionId: sessionId,
        sealedToken: forwarding.sealToken(auth.token),
        body: x.body,
      });
      return accepted(x);
    }
    sendRpcError(
      x.res,
      404,
      RPC.invalidRequest,
      "No live session with this sessionId: it ended, or belongs to another token. Open a new one with GET /sse",
      { id: rpcIdOf(x.body) },
    );
    return false;
  };
}
