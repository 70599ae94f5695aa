import type { IncomingMessage, ServerResponse } from "node:http";
import proxyaddr from "proxy-addr";
import type { Logger } from "../lib/logger";
import { EVENT_STREAM_PATH, openSpecStream, type EventStreamDeps, type StreamCaller } from "../mcp/event-stream.routes";
import type { BearerGuard } from "./middleware/bearer";
import { noteArrival, trackRequest } from "./middleware/http-log";
import type { Metrics } from "../lib/metrics";
import { recordRequest, type RequestLogDeps } from "./middleware/request-log";
import type { SecurityHeaders } from "./middleware/security-headers";
import type { DoorVisit, laneAtTheDoor } from "../mcp/fast-lane";

/** Serves a request itself, or hands it on (`next`: Express). */
export type FrontDoor = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/**
 * Requests served before Express. First, the MCP fast lane's ordinary case (mcp/fast-lane.ts,
 * `laneAtTheDoor`): Express's route cost about a quarter of a tool call's CPU. Second, the
 * specification's event stream (`GET /api/sse/stream`) in its ordinary case: a valid read token
 * from an address that is not turned away, admitted under the stream limits. A stream lives for
 * hours and a server holds thousands (MCP_MAX_STREAMS): through Express each one keeps about 4 KB
 * more for its life (the request and response objects Express reshapes, the router state they
 * keep reachable). Everything else, including every refusal, goes to Express, which answers as
 * it always has: the front door only takes what Express's route would serve the same way, and
 * does the same work for it (request id and log line, security headers, the request-log row, the
 * stream itself) with the same functions.
 */
export function frontDoor(deps: {
  log: Logger;
  headers: SecurityHeaders;
  /** Absent when the request log is off (REQUEST_LOG=false). */
  requestLog?: RequestLogDeps;
  /** Express's compiled "trust proxy" setting, so the address is the one `req.ip` would give. */
  trustProxy: (address: string, hop: number) => boolean;
  eventStream: { deps: EventStreamDeps; guard: BearerGuard };
  /** The MCP fast lane's door; absent when the lane is off (MCP_FAST_LANE=false). */
  mcpLane?: ReturnType<typeof laneAtTheDoor>;
  metrics?: Metrics;
}): FrontDoor {
  const { log, eventStream } = deps;

  /** The caller, when Express's route would open their stream at once; undefined otherwise. */
  async function admitted(req: IncomingMessage): Promise<StreamCaller | undefined> {
    const ip = proxyaddr(req, deps.trustProxy);
    const auth = await eventStream.guard.admits(req, ip);
    // Over a limit, Express's route looks again and answers the 429 with its Retry-After.
    if (!auth || !(await eventStream.deps.streams.admit(auth.clientId)).ok) return undefined;
    return { auth, ip };
  }

  /** Express's per-request work for a request the door serves: its id and log line, the security headers, its request-log row. */
  function visit(req: IncomingMessage, res: ServerResponse & { locals?: Record<string, unknown> }, { route, ip, auth, mcp }: DoorVisit): string {
    const id = (req.id = trackRequest(log, req, res, false, deps.metrics, route));
    deps.headers.apply(res);
    if (mcp) res.locals = { mcp };
    if (deps.requestLog) recordRequest(deps.requestLog, req, res, { path: route, ip, auth: () => auth });
    return id;
  }

  function serve(req: IncomingMessage, res: ServerResponse, caller: StreamCaller): void {
    visit(req, res, { route: EVENT_STREAM_PATH, ...caller });
    openSpecStream(eventStream.deps, req, res, caller, true).catch((err: unknown) => {
      log.error({ err }, "opening an event stream failed");
      res.destroy();
    });
  }

  return (req, res, next) => {
    if (
      deps.mcpLane?.(req, res, {
        arrive: () => noteArrival(req, deps.requestLog?.now?.() ?? new Date()),
        ip: () => proxyaddr(req, deps.trustProxy),
        visit: (v) => visit(req, res, v),
        next,
      })
    )
      return;
    if (req.method !== "GET" || req.url !== EVENT_STREAM_PATH || req.headers.authorization === undefined) return next();
    admitted(req).then(
      (caller) => (caller ? serve(req, res, caller) : next()),
      // Nothing was answered yet: Express answers, as it would have.
      () => next(),
    );
  };
}
