import type { RequestHandler } from "express";
import type { RequestLogService } from "../../modules/request-log/request-log.service";

/** D15: what the request log records — the MCP, event stream, OAuth, discovery, proxy and admin endpoints. */
const LOGGED = /^\/(?:mcp(?:\/|$)|api\/mcp\/|api\/sse\/|sse(?:\/|$)|messages(?:\/|$)|oauth\/|\.well-known\/|api\/atlassian\/(?:jira|confluence)\/|api\/bitbucket\/|api\/admin\/)/;

export const isLogged = (path: string): boolean => LOGGED.test(path);

/**
 * Records each logged request once, when its answer is finished or the client went away (a
 * stream's row is written when it ends, its duration the stream's life). Only the path is kept,
 * never the query (it may carry secrets); the JSON-RPC method and tool come from `res.locals.mcp`.
 */
export function requestLog(deps: { service: RequestLogService; now?: () => Date }): RequestHandler {
  const now = deps.now ?? (() => new Date());
  return (req, res, next) => {
    const path = req.originalUrl.split("?")[0]!;
    if (!isLogged(path)) return next();
    const started = process.hrtime.bigint();
    const at = now();
    let done = false;
    const record = () => {
      if (done) return;
      done = true;
      const mcp = res.locals.mcp as { rpcMethod?: string; toolName?: string } | undefined;
      const extra = req.auth?.extra as { userId?: string | null } | undefined;
      deps.service.record({
        at,
        method: req.method.slice(0, 16),
        path: path.slice(0, 2048),
        // A response the client abandoned before it was sent: 499, as proxies record it.
        statusCode: res.headersSent || res.writableFinished ? res.statusCode : 499,
        durationMs: Number(process.hrtime.bigint() - started) / 1e6,
        clientId: req.auth?.clientId ?? null,
        userId: extra?.userId ?? req.session?.user.id ?? null,
        ip: req.ip ?? null,
        userAgent: req.headers["user-agent"]?.slice(0, 512) ?? null,
        rpcMethod: mcp?.rpcMethod ?? null,
        toolName: mcp?.toolName ?? null,
      });
    };
    res.once("finish", record);
    res.once("close", record);
    next();
  };
}
