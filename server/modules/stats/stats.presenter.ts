import { SERVER_RUNNING, type EndpointStatDto, type StatsDto, type TrafficMinuteDto } from "../../../contract/stats";
import type { EndpointFigures, StatsFigures, TrafficMinute } from "./stats.service";

/** The dashboard's cards: without counts, the status says why and the cards read "No data available". */
export const toStatsDto = ({ uptimeSeconds: uptime, counts, instances }: StatsFigures): StatsDto =>
  counts
    ? {
        serverStatus: SERVER_RUNNING,
        uptime,
        activeSSEConnections: counts.activeStreams,
        totalOAuthClients: counts.oauthClients,
        activeOAuthSessions: counts.liveGrants,
        apiRequestsPerHour: counts.requestsPerHour,
        rateLimitHits: counts.rateLimited,
        instances:
          instances?.map((i) => ({
            id: i.id,
            version: i.version,
            hostname: i.hostname,
            startedAt: i.startedAt.toISOString(),
            uptime: i.uptimeSeconds,
            lastSeenAt: i.lastSeenAt.toISOString(),
            openStreams: i.openStreams,
            current: i.current,
          })) ?? null,
      }
    : {
        serverStatus: "Database unavailable",
        uptime,
        activeSSEConnections: null,
        totalOAuthClients: null,
        activeOAuthSessions: null,
        apiRequestsPerHour: null,
        rateLimitHits: null,
        instances: null,
      };

/** Medians to two decimals; a dash (null) where the hour saw no request. */
export const toEndpointStatDto = (e: EndpointFigures): EndpointStatDto => ({
  method: e.method,
  path: e.path,
  requests: e.requests,
  medianMs: e.medianMs === null ? null : Math.round(e.medianMs * 100) / 100,
});

export const toTrafficMinuteDto = (m: TrafficMinute): TrafficMinuteDto => ({
  minute: m.minute.toISOString(),
  requests: m.requests,
  errors: m.errors,
  upstream: m.upstream,
});
