import { InsufficientScopeError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { bearerChallenge, type BearerGuard } from "../http/middleware/bearer";
import type { ClientRateLimit } from "../http/middleware/rate-limit";
import { sendOAuthError } from "../oauth/oauth-error";
import { authOf, refuse, type Step } from "./exchange";
import { describeRpc, RPC, sendRpcError } from "./json-rpc";
import { toolByName } from "./tools/catalogue";
import { headerOf } from "./direct-answers";

/**
 * The pipeline's checks (pipeline.ts), each written once: on `/mcp`, `/api/mcp/protocol` and the
 * legacy `/messages` alike, so no transport holds a client to less.
 */

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * MCP Transports, "Security Warning", and Security Best Practices ("Local MCP Server
 * Compromise"): a page on another site must not reach this server, not even through DNS
 * rebinding (its Host and Origin then both name the attacker's domain). A browser's Origin is
 * accepted when it is one of the allowed origins, or when it is this very origin on a loopback
 * address (a local client page); anything else is 403. Requests without Origin (non-browser
 * clients) pass. Allowed origins get CORS headers, and their preflight is answered here.
 */
export function checkOrigin(allowedOrigins: readonly string[]): Step {
  const origins = new Set(allowedOrigins.map((o) => o.toLowerCase()));
  const allowed = (host: string | undefined, origin: string): boolean => {
    if (origins.has(origin.toLowerCase())) return true;
    try {
      const url = new URL(origin);
      return url.host === host && LOOPBACK_HOSTS.has(url.hostname.toLowerCase());
    } catch {
      return false;
    }
  };
  return ({ req, res }) => {
    const origin = req.headers.origin;
    if (origin === undefined) return true;
    if (!allowed(req.headers.host, origin)) {
      sendRpcError(res, 403, RPC.invalidRequest, `Origin ${origin.slice(0, 200)} is not allowed`);
      return false;
    }
    res.setHeader("Access-Control-Allow-Origin", origin);
    res.setHeader("Vary", "Origin");
    res.setHeader("Access-Control-Expose-Headers", "Mcp-Session-Id, WWW-Authenticate, Retry-After");
    if (req.method !== "OPTIONS") return true;
    res.setHeader("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS");
    res.setHeader(
      "Access-Control-Allow-Headers",
      "Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Mcp-Method, Mcp-Name, Last-Event-ID, X-Connection-Id",
    );
    res.setHeader("Access-Control-Max-Age", "86400");
    res.writeHead(204).end();
    return false;
  };
}

/**
 * A read-scope access token for this resource (middleware/bearer.ts decides; its refusals are
 * RFC 6750 challenges). The token's AuthInfo is copied with this request's id in `extra` (the
 * verified one is shared by requests), for the tool-call audit.
 */
export function authenticate(guard: BearerGuard): Step {
  return async (x) => {
    const verdict = await guard.check(x.req, x.ip);
    if (verdict.ok) {
      x.auth = { ...verdict.auth, extra: { ...verdict.auth.extra, requestId: x.requestId } };
      return true;
    }
    if ("throttled" in verdict) return refuse(x, verdict.throttled);
    sendOAuthError(x.res, verdict.status, verdict.error, verdict.challenge);
    return false;
  };
}

/** One API budget per OAuth client (docs/decisions.md#rate-limits), shared with the bearer routes under /api: 429 with Retry-After when spent. */
export function limitRate(limit: ClientRateLimit): Step {
  return async (x) => {
    const refusal = await limit.spend(authOf(x).clientId);
    return refusal ? refuse(x, refusal) : true;
  };
}

/**
 * A JSON-RPC batch (2025-03-26) counts as its messages, not as one request: limitRate spent one
 * point on the request, this spends one more for each further message.
 */
export function limitBatch(limit: ClientRateLimit): Step {
  return async (x) => {
    const more = Array.isArray(x.body) ? x.body.length - 1 : 0;
    if (more <= 0) return true;
    const refusal = await limit.spend(authOf(x).clientId, more);
    return refusal ? refuse(x, refusal) : true;
  };
}

/**
 * JSON-RPC batches were part of 2025-03-26 only: 2025-06-18 removed them and 2026-07-28 has one
 * message per request. A batch under a later revision (the MCP-Protocol-Version header; its
 * absence means 2025-03-26) is an invalid request.
 */
export const refuseLateBatches: Step = ({ req, res, body }) => {
  if (!Array.isArray(body)) return true;
  const version = headerOf(req, "mcp-protocol-version") ?? "2025-03-26";
  if (version <= "2025-03-26") return true;
  sendRpcError(
    res,
    400,
    RPC.invalidRequest,
    `JSON-RPC batches are not supported in protocol revision ${version.slice(0, 20)}; send one message per request`,
  );
  return false;
};

/** The request log names the JSON-RPC method and, for tools/call, the tool. */
export const describe: Step = (x) => {
  Object.assign(x.note, describeRpc(x.body));
  return true;
};

/**
 * A tools/call for a tool the token's scopes do not cover is refused at the HTTP level with a
 * scope challenge (MCP 2025-11-25 Authorization, "Runtime Insufficient Scope Errors": 403
 * insufficient_scope naming the scope), so the client can ask the user for more. The scopes are
 * the token's as they are now (authenticate verified it for this request): a user demoted since
 * the session opened no longer holds `write`.
 */
export function checkToolScope(resourceMetadataUrl: string): Step {
  return (x) => {
    const body = x.body as { method?: unknown; params?: { name?: unknown } } | null;
    if (body?.method !== "tools/call" || typeof body.params?.name !== "string") return true;
    const tool = toolByName(body.params.name);
    const scopes = authOf(x).scopes;
    if (!tool || scopes.includes(tool.scope)) return true;
    const description = `The ${tool.name} tool needs the ${tool.scope} scope`;
    sendOAuthError(
      x.res,
      403,
      new InsufficientScopeError(description),
      bearerChallenge({
        resourceMetadataUrl,
        scope: [...new Set([...scopes, tool.scope])].join(" "),
        error: "insufficient_scope",
        description,
      }),
    );
    return false;
  };
}
