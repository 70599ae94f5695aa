import { proxyRefusal, type ClientPolicy } from "../../../contract/policy";
import { Router, type Request, type RequestHandler, type Response } from "express";
import { AppError } from "../../lib/app-error";
import type { UpstreamTargets } from "../../modules/integrations/upstream-targets";
import type { UpstreamService } from "../../upstream/errors";
import type { Guard } from "../middleware/access";

const PREFIXES: Record<UpstreamService, string> = {
  jira: "/api/atlassian/jira",
  confluence: "/api/atlassian/confluence",
  bitbucket: "/api/bitbucket",
};

/**
 * Only a well-formed `application/json` is passed on as JSON; everything else (HTML, a list such
 * as "application/json, text/html", a malformed type) is served as plain text. The body was read
 * as UTF-8, so that is the charset we name.
 */
export const safeContentType = (type: string | undefined): string => {
  const media = /^\s*([a-z0-9.+-]+\/[a-z0-9.+-]+)\s*(?:;\s*charset\s*=\s*"?utf-8"?\s*)?$/i.exec(type ?? "")?.[1]?.toLowerCase();
  return media === "application/json" ? "application/json; charset=utf-8" : "text/plain; charset=utf-8";
};

/**
 * The read-only proxy (docs/decisions.md#read-only-proxy): `GET /api/atlassian/jira/*`,
 * `/api/atlassian/confluence/*`, `/api/bitbucket/*` pass GETs through to the upstream REST API (the
 * path after the prefix is the upstream path) with the server's stored credentials, for bearer
 * clients with the read scope.
 */
export function proxyRoutes(deps: { targets: UpstreamTargets; readGuard: Guard; rateLimit: RequestHandler }): Router {
  const router = Router();
  const pass = (service: UpstreamService) => async (req: Request, res: Response) => {
    // The raw path is what goes upstream: it must say plainly where it goes. Dot segments (raw or
    // encoded) would resolve differently for the audience check and for the upstream request.
    const raw = req.originalUrl;
    const pathPart = raw.split("?")[0]!;
    if (!pathPart.startsWith(PREFIXES[service]) || /(^|\/)(\.|%2e){1,2}(\/|$)/i.test(pathPart) || /\\|%5c/i.test(pathPart)) {
      throw new AppError("bad_request", "The path may not contain . or .. segments or backslashes");
    }
    const policy = (req.auth?.extra as { policy?: ClientPolicy | null } | undefined)?.policy;
    const refusal = proxyRefusal(policy, service);
    if (refusal !== null) {
      throw new AppError(
        "forbidden",
        `The raw proxy paths cannot honour this OAuth client's limits: ${refusal}; use the MCP tools, or ask an administrator`,
      );
    }
    const rest = raw.slice(PREFIXES[service].length) || "/";
    // As the person behind the token where the integration acts as each person's own account (issue 27).
    const userId = (req.auth?.extra as { userId?: string | null } | undefined)?.userId ?? null;
    const upstream = await deps.targets.proxyGet(service, rest.startsWith("/") ? rest : `/${rest}`, { userId });
    res.status(upstream.status).set("Cache-Control", "no-store").type(safeContentType(upstream.contentType)).send(upstream.body);
  };
  router.get("/atlassian/jira/*path", deps.readGuard, deps.rateLimit, pass("jira"));
  router.get("/atlassian/confluence/*path", deps.readGuard, deps.rateLimit, pass("confluence"));
  router.get("/bitbucket/*path", deps.readGuard, deps.rateLimit, pass("bitbucket"));
  return router;
}
