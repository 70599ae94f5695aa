import { Router, type RequestHandler } from "express";
import { API_ENDPOINTS, SERVER_RUNNING, type EndpointStatDto, type StatsDto, type TrafficMinuteDto } from "../../../contract/stats";
import type { UpstreamService } from "../../upstream/errors";
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
  /** Per endpoint key, the last hour's requests and median duration. */
  endpointMedians: (endpoints: { key: string; method: string; path: string; prefix: boolean }[]) => Promise<Map<string, { requests: number; medianMs: number }>>;
  /** Requests and errors per minute (minutes without any are absent). */
  requestsPerMinute: (windowMs: number) => Promise<{ minute: Date; requests: number; errors: number }[]>;
  /** This process's upstream calls per minute, the last 60, oldest first. */
  upstreamPerMinute: (service: UpstreamService) => number[];
}

const MINUTE_MS = 60_000;

/** The endpoints whose times are measured (a stream's "time" is its life: not a response time). */
const TIMED = API_ENDPOINTS.filter((e) => !("stream" in e)).map((e) => ({ key: `${e.method} ${e.path}`, method: e.method, path: e.path.replace(/\*$/, ""), prefix: e.match === "prefix" }));

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

  // The API Endpoints screen's measured medians (D14): a dash (null) where the hour saw no request.
  router.get("/admin/endpoint-stats", can("stats.read"), async (_req, res) => {
    const measured = await deps.endpointMedians(TIMED);
    const body: EndpointStatDto[] = API_ENDPOINTS.map((e) => {
      const m = measured.get(`${e.method} ${e.path}`);
      return { method: e.method, path: e.path, requests: m?.requests ?? 0, medianMs: m ? Math.round(m.medianMs * 100) / 100 : null };
    });
    res.json(body);
  });

  // The dashboard's charts: the last 60 minutes, every minute present (zero when quiet).
  router.get("/admin/stats/traffic", can("stats.read"), async (_req, res) => {
    const current = Math.floor(deps.clock.now().getTime() / MINUTE_MS);
    const logged = new Map((await deps.requestsPerMinute(HOUR_MS)).map((m) => [Math.floor(m.minute.getTime() / MINUTE_MS), m]));
    const upstream = { jira: deps.upstreamPerMinute("jira"), confluence: deps.upstreamPerMinute("confluence"), bitbucket: deps.upstreamPerMinute("bitbucket") };
    const body: TrafficMinuteDto[] = [];
    for (let i = 0; i < 60; i++) {
      const minute = current - 59 + i;
      const m = logged.get(minute);
      body.push({ minute: new Date(minute * MINUTE_MS).toISOString(), requests: m?.requests ?? 0, errors: m?.errors ?? 0, upstream: { jira: upstream.jira[i]!, confluence: upstream.confluence[i]!, bitbucket: upstream.bitbucket[i]! } });
    }
    res.json(body);
  });
  return router;
}
