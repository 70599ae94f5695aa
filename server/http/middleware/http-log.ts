import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import { redactUrl, type Logger } from "../../lib/logger";
import { routeLabel, type Metrics } from "../../lib/metrics";

declare module "http" {
  interface IncomingMessage {
    /** This request's id: the X-Request-Id header and `requestId` of an error body. */
    id: string;
    /** The process logger (what the request was is logged with the line that needs it). */
    log: Logger;
  }
}

/**
 * One log line per request when it ends (ARCHITECTURE rule 5: the path with parameter names only,
 * the status, the time; never a header or a query value), and the request id. Nothing is built
 * per request beyond the id: a line whose level is off costs nothing, and a long-lived stream
 * holds no logger of its own.
 */
export function httpLog(log: Logger, options: { ignore?: (path: string) => boolean; metrics?: Metrics } = {}): RequestHandler {
  return (req, res, next) => {
    req.id = trackRequest(log, req, res, options.ignore?.(req.path) ?? false, options.metrics);
    req.log = log;
    next();
  };
}

/**
 * httpLog's work for one request, also for those the MCP pipeline serves before Express (which
 * adds nothing to a stream it holds for hours): the request's id, answered in X-Request-Id, and
 * its count and time in the metrics (by route pattern, read when it ends: the route is known then).
 */
export function trackRequest(
  log: Logger,
  req: IncomingMessage,
  res: ServerResponse,
  quiet: boolean,
  metrics?: Metrics,
  route?: string,
): string {
  const id = randomUUID();
  res.setHeader("X-Request-Id", id);
  const started = process.hrtime.bigint();
  const done = () => {
    res.off("finish", done);
    res.off("close", done);
    const status = res.statusCode;
    const finished = res.writableFinished;
    metrics?.request(
      route ?? routeLabel(req as Parameters<typeof routeLabel>[0]),
      req.method,
      finished || res.headersSent ? status : 499,
      Number(process.hrtime.bigint() - started) / 1e9,
    );
    const level = status >= 500 ? "error" : status >= 400 || !finished ? "warn" : "info";
    if (quiet || !log.isLevelEnabled(level)) return;
    const responseTime = Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100;
    log[level](
      {
        req: { id, method: req.method, url: redactUrl((req as { originalUrl?: string }).originalUrl ?? req.url ?? "") },
        res: { statusCode: status },
        responseTime,
      },
      finished ? "request completed" : "request aborted",
    );
  };
  res.once("finish", done);
  res.once("close", done);
  return id;
}
