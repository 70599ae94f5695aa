import type { IncomingMessage, ServerResponse } from "node:http";
import type { McpServerFactory, ServerEventBus } from "@modelcontextprotocol/server";
import { clientAddress, type TrustProxy } from "../http/client-address";
import type { BearerGuard } from "../http/middleware/bearer";
import { trackRequest } from "../http/middleware/http-log";
import type { ClientRateLimit } from "../http/middleware/rate-limit";
import { recordRequest, type RequestLogDeps } from "../http/middleware/request-log";
import type { SecurityHeaders } from "../http/middleware/security-headers";
import { isAppError } from "../lib/app-error";
import type { Logger } from "../lib/logger";
import type { Metrics } from "../lib/metrics";
import type { ConnectionsService } from "../modules/connections/connections.service";
import { answerDirectly } from "./direct-answers";
import { openSpecStream } from "./event-stream";
import { refuse, type ErrorForm, type Exchange, type Step } from "./exchange";
import { RPC, rpcIdOf, sendRpcError } from "./json-rpc";
import { deliverToLegacySession, openLegacySession } from "./legacy-sse";
import type { StreamForwarding } from "../cluster/stream-forwarding";
import type { LiveStreams } from "./live-streams";
import type { McpCore } from "./mcp-server";
import { watchAnswer } from "./outcome";
import { EVENT_STREAM_PATH, LEGACY_MESSAGES_PATH, LEGACY_SSE_PATH, MCP_PATH, SPEC_PROTOCOL_PATH } from "./paths";
import { authenticate, checkOrigin, checkToolScope, describe, limitBatch, limitRate, refuseLateBatches } from "./request-checks";
import { readBody } from "./rpc-body";
import { createSdkAnswers, openListenStream } from "./sdk-answers";

export interface McpPipelineDeps {
  core: McpCore;
  factory: McpServerFactory;
  /** Change events for `subscriptions/listen` streams and legacy sessions (tools/list_changed). */
  bus: ServerEventBus;
  /** The read-scope bearer guard of each entry's path (its resource metadata is under that path). */
  guardAt: (path: string) => BearerGuard;
  /** The API limit, shared with the bearer routes under /api. */
  rateLimit: ClientRateLimit;
  streams: LiveStreams;
  /** A message for a stream another instance holds goes there (cluster/stream-forwarding.ts). */
  forwarding: StreamForwarding;
  connections: ConnectionsService;
  /** Browser origins allowed to call (CORS_ORIGINS and our own). */
  allowedOrigins: readonly string[];
  resourceMetadataUrl: (path: string) => string;
  maxBodyBytes: number;
  heartbeatMs: number;
  /** Answer tools/list and tools/call directly (MCP_FAST_LANE, default on; off only to compare with the SDK). */
  directAnswers: boolean;
  /** Serve the 2024-11-05 transport, `/sse` and `/messages` (MCP_LEGACY_SSE). */
  legacySse: boolean;
  trustProxy: TrustProxy;
  headers: SecurityHeaders;
  /** Absent when the request log is off (REQUEST_LOG=false). */
  requestLog?: RequestLogDeps;
  metrics?: Metrics;
  log: Logger;
}

/** An MCP entry: a method (or every method) on a path, its steps, and the form of its refusals. */
interface Entry {
  method: string;
  path: string;
  errors: ErrorForm;
  steps: readonly Step[];
  /** Takes only some of the requests it matches (the rest go on to Express). */
  takes?: (req: IncomingMessage) => boolean;
}

/**
 * The one pipeline of every MCP entry (issue 26 item 1), before Express and without it: `/mcp`
 * in both eras, the specification's `/api/mcp/protocol` (which may deliver to an event stream),
 * its stream `/api/sse/stream`, and the legacy `/sse` + `/messages`. Each entry is a list of
 * steps, each step written once (request-checks.ts, rpc-body.ts, the answers); a step goes on or
 * answers. What every entry gets first is what Express's middleware gives its own requests: an
 * id and a log line, the security headers, a request-log row (with the JSON-RPC method, tool and
 * outcome the steps note). Express serves the console API, OAuth and static files.
 *
 * Returns the request listener's first look: true when the request is MCP's (served, whatever
 * the answer), false when it is Express's.
 */
export function createMcpPipeline(deps: McpPipelineDeps): (req: IncomingMessage, res: ServerResponse) => boolean {
  const sdk = createSdkAnswers({ factory: deps.factory, bus: deps.bus, maxBodyBytes: deps.maxBodyBytes, log: deps.log });
  const streamDeps = { streams: deps.streams, connections: deps.connections, log: deps.log };
  const origin = checkOrigin(deps.allowedOrigins);
  const direct = deps.directAnswers ? [answerDirectly(deps.core)] : [];
  const listen = openListenStream(streamDeps);

  /** What a JSON-RPC POST goes through before anything answers it. */
  const messageChecks = (path: string, options: { batches: boolean }): Step[] => [
    authenticate(deps.guardAt(path)),
    limitRate(deps.rateLimit),
    readBody(deps.maxBodyBytes),
    ...(options.batches ? [refuseLateBatches] : []),
    limitBatch(deps.rateLimit),
    describe,
    checkToolScope(deps.resourceMetadataUrl(path)),
  ];

  const entries: Entry[] = [
    {
      method: "POST",
      path: MCP_PATH,
      errors: "json-rpc",
      steps: [origin, ...messageChecks(MCP_PATH, { batches: true }), ...direct, listen, sdk.answerWithSdk],
    },
    // 2025 session operations on a stateless server, and a preflight: the SDK answers 405 (docs/decisions.md#mcp-transports).
    { method: "*", path: MCP_PATH, errors: "json-rpc", steps: [origin, authenticate(deps.guardAt(MCP_PATH)), sdk.answerWithSdk] },
    {
      method: "POST",
      path: SPEC_PROTOCOL_PATH,
      errors: "json-rpc",
      steps: [
        origin,
        ...messageChecks(SPEC_PROTOCOL_PATH, { batches: true }),
        sdk.deliverToEventStream(deps.streams, deps.forwarding),
        ...direct,
        listen,
        sdk.answerWithSdk,
      ],
    },
    // A browser's preflight (or a foreign page's request) at the specification's path; other requests there are the API's 404.
    { method: "OPTIONS", path: SPEC_PROTOCOL_PATH, errors: "json-rpc", steps: [origin], takes: (req) => req.headers.origin !== undefined },
    {
      method: "GET",
      path: EVENT_STREAM_PATH,
      errors: "house",
      steps: [authenticate(deps.guardAt(EVENT_STREAM_PATH)), openSpecStream({ ...streamDeps, heartbeatMs: deps.heartbeatMs })],
    },
  ];
  if (deps.legacySse) {
    const guard = deps.guardAt(LEGACY_SSE_PATH);
    entries.push(
      {
        method: "GET",
        path: LEGACY_SSE_PATH,
        errors: "json-rpc",
        steps: [authenticate(guard), openLegacySession({ ...streamDeps, factory: deps.factory, bus: deps.bus })],
      },
      {
        method: "POST",
        path: LEGACY_MESSAGES_PATH,
        errors: "json-rpc",
        steps: [
          authenticate(guard),
          limitRate(deps.rateLimit),
          readBody(deps.maxBodyBytes),
          limitBatch(deps.rateLimit),
          describe,
          checkToolScope(deps.resourceMetadataUrl(LEGACY_SSE_PATH)),
          deliverToLegacySession(deps.streams, deps.forwarding),
        ],
      },
    );
  }
  const byPath = new Map<string, Entry[]>();
  for (const entry of entries) byPath.set(entry.path, [...(byPath.get(entry.path) ?? []), entry]);

  async function run(entry: Entry, x: Exchange): Promise<void> {
    try {
      for (const step of entry.steps) {
        const result = step(x);
        if (!(result === true || (result !== false && (await result)))) return;
      }
    } catch (err) {
      if (isAppError(err)) return void refuse(x, err);
      deps.log.error({ err, req: { id: x.requestId, method: x.req.method, url: x.path } }, "MCP request failed");
      if (x.res.headersSent) return void x.res.destroy();
      sendRpcError(x.res, 500, RPC.internalError, "Internal error", { id: rpcIdOf(x.body) });
    }
  }

  return (req, res) => {
    const path = pathOf(req.url ?? "/");
    const entry = byPath.get(routeKeyOf(path))?.find((e) => (e.method === "*" || e.method === req.method) && (e.takes?.(req) ?? true));
    if (!entry) return false;
    const x: Exchange = {
      req,
      res,
      path: entry.path,
      requestId: trackRequest(deps.log, req, res, false, deps.metrics, entry.path),
      ip: clientAddress(req, deps.trustProxy),
      errors: entry.errors,
      note: {},
    };
    deps.headers.apply(res);
    if (deps.requestLog)
      recordRequest(deps.requestLog, req, res, { path, ip: x.ip, auth: () => x.auth, requestId: x.requestId, mcp: x.note });
    if (req.method === "POST") x.watch = watchAnswer(res, x.note);
    void run(entry, x);
    return true;
  };
}

/** A request target's path, without its query. */
const pathOf = (url: string): string => {
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
};

/** Paths match as Express routes do by default: case-insensitive, one trailing slash ignored. */
const routeKeyOf = (path: string): string => (path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path).toLowerCase();
