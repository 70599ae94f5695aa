import { Router, type RequestHandler } from "express";
import { SERVER_RUNNING, type StatsDto } from "../../../contract/stats";
import type { Clock } from "../../lib/clock";
import type { Logger } from "../../lib/logger";
import { can } from "../middleware/access";

export interface StatsDeps {
  startedAt: Date;
  clock: Clock;
  log: Logger;
  activeStreams: () => Promise<number>;
  oauthClients: () => Promise<number>;
  liveGrants: () => Promise<number>;
  requestsSince: (windowMs: number) => Promise<{ total: number; rateLimited: number }>;
}

const HOUR_MS = 3_600_000;

/**
 * The dashboard's figures (spec §3 Stats, D14). Each is a count over a small table or an index:
 * active registry rows, clients, live grants, and the request log's per-minute sums, so the answer
 * costs the same with a million log rows as with ten. When the database does not answer, the
 * status says so and the figures are null (the cards read "No data available"); never a 500.
 */
export function statsRoutes(deps: StatsDeps): Router {
  const router = Router();
  const stats: RequestHandler = async (_req, res) => {
    const uptime = Math.max(0, Math.floor((deps.clock.now().getTime() - deps.startedAt.getTime()) / 1000));
    let body: StatsDto;
    try {
      const [activeSSEConnections, totalOAuthClients, activeOAuthSessions, requests] = await Promise.all([deps.activeStreams(), deps.oauthClients(), deps.liveGrants(), deps.requestsSince(HOUR_MS)]);
      body = { serverStatus: SERVER_RUNNING, uptime, activeSSEConnections, totalOAuthClients, activeOAuthSessions, apiRequestsPerHour: requests.total, rateLimitHits: requests.rateLimited };
    } catch (err) {
      deps.log.warn({ err }, "stats: the database did not answer");
      body = { serverStatus: "Database unavailable", uptime, activeSSEConnections: null, totalOAuthClients: null, activeOAuthSessions: null, apiRequestsPerHour: null, rateLimitHits: null };
    }
    res.json(body);
  };
  router.get("/stats", can("stats.read"), stats);
  router.get("/admin/stats", can("stats.read"), stats);
  return router;
}
