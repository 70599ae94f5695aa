import { Router, type Request, type Response } from "express";
import type { IntegrationsService } from "../../modules/integrations/integrations.service";
import type { UpstreamService } from "../../upstream/errors";
import type { Guard } from "../middleware/access";

const PREFIXES: Record<UpstreamService, string> = {
  jira: "/api/atlassian/jira",
  confluence: "/api/atlassian/confluence",
  bitbucket: "/api/bitbucket",
};

/** Only JSON and plain text are passed through as such: nothing upstream can make us serve HTML. */
const safeType = (type: string | undefined): string => (type && /^(application\/json|text\/plain)\b/i.test(type) ? type : "text/plain; charset=utf-8");

/**
 * D12: `GET /api/atlassian/jira/*`, `/api/atlassian/confluence/*`, `/api/bitbucket/*` pass GETs
 * through to the upstream REST API (the path after the prefix is the upstream path) with the
 * server's stored credentials, for bearer clients with the read scope.
 */
export function proxyRoutes(deps: { integrations: IntegrationsService; readGuard: Guard }): Router {
  const router = Router();
  const pass = (service: UpstreamService) => async (req: Request, res: Response) => {
    const rest = req.originalUrl.slice(PREFIXES[service].length) || "/";
    const upstream = await deps.integrations.proxyGet(service, rest.startsWith("/") ? rest : `/${rest}`);
    res.status(upstream.status).set("Cache-Control", "no-store").type(safeType(upstream.contentType)).send(upstream.body);
  };
  router.get("/atlassian/jira/*path", deps.readGuard, pass("jira"));
  router.get("/atlassian/confluence/*path", deps.readGuard, pass("confluence"));
  router.get("/bitbucket/*path", deps.readGuard, pass("bitbucket"));
  return router;
}
