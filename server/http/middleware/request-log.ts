import type { IncomingMessage, ServerResponse } from "node:http";
import type { AuthInfo } from "@modelcontextprotocol/server";
import type { RequestHandler } from "express";
import type { RequestLogService } from "../../modules/request-log/request-log.service";
import type { McpNote } from "../../mcp/outcome";

/** docs/decisions.md#request-log: what the request log records — the MCP, event stream, OAuth, discovery, proxy and admin endpoints. */
const LOGGED =
  /^\/(?:mcp(?:\/|$)|api\/mcp\/|api\/sse\/|sse(?:\/|$)|messages(?:\/|$)|oauth\/|\.well-known\/|api\/atlassian\/(?:jira|confluence)\/|api\/bitbucket\/|api\/admin\/)/;

export const isLogged = (path: string): boolean => LOGGED.test(path);

/**
 * The request headers a log entry's detail shows: what the client said it was and spoke, never
 * a credential (Authorization, cookies, API keys) nor anything a proxy added about other hops.
 */
const SHOWN_HEADERS = [
  "accept",
  "content-type",
  "content-length",
  "origin",
  "mcp-protocol-version",
  "mcp-method",
  "mcp-name",
  "last-event-id",
  "x-connection-id",
] as const;

function shownHeaders(req: IncomingMessage): Record<string, string> | null {
  let shown: Record<string, string> | null = null;
  for (const name of SHOWN_HEADERS) {
    const value = req.headers[name];
    if (typeof value === "string") (shown ??= {})[name] = value.slice(0, 256);
  }
  return shown;
}

/**
 * Records each logged request once, when its answer is finished or the client went away (a
 * stream's row is written when it ends, its duration the stream's life). Only the path is kept,
 * never the query (it may carry secrets). The MCP pipeline records its own requests (with the
 * JSON-RPC method, tool and outcome it noted); this middleware records the rest.
 */
export function requestLog(deps: RequestLogDeps): RequestHandler {
  return (req, res, next) => {
    const path = req.originalUrl.split("?")[0]!;
    if (isLogged(path)) recordRequest(deps, req, res, { path, ip: req.ip ?? null, auth: () => req.auth });
    next();
  };
}

export interface RequestLogDeps {
  service: RequestLogService;
  now?: () => Date;
}

/**
 * requestLog's work for one request, also for those the MCP pipeline serves before Express:
 * `auth` is read when the answer ends (a guard sets it on the way), as is `mcp`, the MCP
 * exchange's note (mcp/outcome.ts).
 */
export function recordRequest(
  deps: RequestLogDeps,
  req: IncomingMessage & { session?: { user: { id: string } } },
  res: ServerResponse,
  what: { path: string; ip: string | null; auth: () => AuthInfo | undefined; requestId?: string; mcp?: McpNote },
): void {
  const started = process.hrtime.bigint();
  const at = deps.now?.() ?? new Date();
  let done = false;
  const record = () => {
    if (done) return;
    done = true;
    const { mcp } = what;
    const auth = what.auth();
    const extra = auth?.extra as { userId?: string | null } | undefined;
    deps.service.record({
      at,
      method: (req.method ?? "").slice(0, 16),
      path: what.path.slice(0, 2048),
      // A response the client abandoned before it was sent: 499, as proxies record it.
      statusCode: res.headersSent || res.writableFinished ? res.statusCode : 499,
      durationMs: Number(process.hrtime.bigint() - started) / 1e6,
      clientId: auth?.clientId ?? null,
      userId: extra?.userId ?? req.session?.user.id ?? null,
      ip: what.ip,
      userAgent: req.headers["user-agent"]?.slice(0, 512) ?? null,
      rpcMethod: mcp?.rpcMethod ?? null,
      toolName: mcp?.toolName ?? null,
      outcome: mcp?.outcome ?? null,
      error: mcp?.error ?? null,
      requestId: what.requestId ?? (req as { id?: string }).id ?? null,
      headers: shownHeaders(req),
    });
  };
  res.once("finish", record);
  res.once("close", record);
}
