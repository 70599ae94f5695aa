import type { IncomingMessage, ServerResponse } from "node:http";
import proxyaddr from "proxy-addr";
import type { Logger } from "../lib/logger";
import { EVENT_STREAM_PATH, openSpecStream, type EventStreamDeps, type StreamCaller } from "../mcp/event-stream.routes";
import type { BearerGuard } from "./middleware/bearer";
import { trackRequest } from "./middleware/http-log";
import type { Metrics } from "../lib/metrics";
import { recordRequest, type RequestLogDeps } from "./middleware/request-log";
import type { SecurityHeaders } from "./middleware/security-headers";

/** Serves a request itself, or hands it on (`next`: Express). */
export type FrontDoor = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/**
 * Requests served before Express: the specification's event stream (`GET /api/sse/stream`) in its
 * ordinary case, a valid read token from an address that is not turned away, admitted under the
 * stream limits. A stream lives for hours and a server holds thousands (MCP_MAX_STREAMS): through
 * Express each one keeps about 4 KB more for its life (the request and response objects Express
 * reshapes, the router state they keep reachable). Everything else, including every refusal, goes
 * to Express, which answers as it always has: the front door only takes what Express's route would
 * serve the same way, and does the same work for it (request id and log line, security headers,
 * the request-log row, the stream itself) with the same functions.
 */
export function frontDoor(deps: {
  log: Logger;
  headers: SecurityHeaders;
  /** Absent when the request log is off (REQUEST_LOG=false). */
  requestLog?: RequestLogDeps;
  /** Express's compiled "trust proxy" setting, so the address is the one `req.ip` would give. */
  trustProxy: (address: string, hop: number) => boolean;
  eventStream: { deps: EventStreamDeps; guard: BearerGuard };
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

  function serve(req: IncomingMessage, res: ServerResponse, caller: StreamCaller): void {
    req.id = trackRequest(log, req, res, false, deps.metrics, EVENT_STREAM_PATH);
    deps.headers.apply(res);
    if (deps.requestLog) recordRequest(deps.requestLog, req, res, { path: EVENT_STREAM_PATH, ip: caller.ip, auth: () => caller.auth });
    openSpecStream(eventStream.deps, req, res, caller, true).catch((err: unknown) => {
      log.error({ err }, "opening an event stream failed");
      res.destroy();
    });
  }

  return (req, res, next) => {
    if (req.method !== "GET" || req.url !== EVENT_STREAM_PATH || req.headers.authorization === undefined) return next();
    admitted(req).then(
      (caller) => (caller ? serve(req, res, caller) : next()),
      // Nothing was answered yet: Express answers, as it would have.
      () => next(),
    );
  };
}
