import { API_ENDPOINTS } from "../../../contract/stats";
import type { Instances, LiveInstance } from "../../cluster/instances";
import type { Clock } from "../../lib/clock";
import type { Logger } from "../../lib/logger";
import type { UpstreamMeter } from "../../upstream/meter";
import type { ConnectionsService } from "../connections/connections.service";
import type { OAuthClientsService } from "../oauth/oauth-clients.service";
import type { RequestLogService } from "../request-log/request-log.service";

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/** The endpoints whose times are measured (a stream's "time" is its life: not a response time). */
const TIMED = API_ENDPOINTS.filter((e) => !("stream" in e)).map((e) => ({
  key: `${e.method} ${e.path}`,
  method: e.method,
  path: e.path.replace(/\*$/, ""),
  prefix: e.match === "prefix",
}));

/**
 * The dashboard's counts, over every instance on the database (streams from the connection
 * registry, requests and 429s from the request log all of them write); null when the database did
 * not answer. `uptimeSeconds` is the answering instance's.
 */
export interface StatsFigures {
  uptimeSeconds: number;
  counts: { activeStreams: number; oauthClients: number; liveGrants: number; requestsPerHour: number; rateLimited: number } | null;
  /** The live instances, each with its own uptime; null when the database did not answer. */
  instances: (LiveInstance & { uptimeSeconds: number })[] | null;
}

/** One endpoint of API_ENDPOINTS and what the last hour measured; medianMs null where it saw no request. */
export interface EndpointFigures {
  method: string;
  path: string;
  requests: number;
  medianMs: number | null;
}

/** One minute of the dashboard's charts. */
export interface TrafficMinute {
  minute: Date;
  requests: number;
  errors: number;
  upstream: { jira: number; confluence: number; bitbucket: number };
}

/**
 * The dashboard's figures (spec §3 Stats, docs/decisions.md#measured-numbers). Each is a count over a small table or an index:
 * active registry rows, clients, live grants, and the request log's per-minute sums, so the answer
 * costs the same with a million log rows as with ten.
 */
export function createStatsService(deps: {
  clock: Clock;
  log: Logger;
  connections: Pick<ConnectionsService, "countActive">;
  instances: Pick<Instances, "live">;
  oauthClients: Pick<OAuthClientsService, "count">;
  /** Live grants: unexpired, unrevoked (the token service's liveGrants). */
  liveGrants: () => Promise<number>;
  requestLog: Pick<RequestLogService, "countSince" | "endpointMedians" | "perMinute">;
  meter: Pick<UpstreamMeter, "callsPerMinute">;
}) {
  const { clock, requestLog } = deps;
  return {
    /** Uptime since `startedAt` and the counts; when the database does not answer, the counts are null (never a 500). */
    async figures(startedAt: Date): Promise<StatsFigures> {
      const since = (start: Date) => Math.max(0, Math.floor((clock.now().getTime() - start.getTime()) / 1000));
      const uptimeSeconds = since(startedAt);
      try {
        const [activeStreams, oauthClients, liveGrants, requests, instances] = await Promise.all([
          deps.connections.countActive(),
          deps.oauthClients.count(),
          deps.liveGrants(),
          requestLog.countSince(HOUR_MS),
          deps.instances.live(),
        ]);
        return {
          uptimeSeconds,
          counts: { activeStreams, oauthClients, liveGrants, requestsPerHour: requests.total, rateLimited: requests.rateLimited },
          instances: instances.map((i) => ({ ...i, uptimeSeconds: since(i.startedAt) })),
        };
      } catch (err) {
        deps.log.warn({ err }, "stats: the database did not answer");
        return { uptimeSeconds, counts: null, instances: null };
      }
    },

    /** The API Endpoints screen's measured medians (docs/decisions.md#measured-numbers), in API_ENDPOINTS' order. */
    async endpoints(): Promise<EndpointFigures[]> {
      const measured = await requestLog.endpointMedians(TIMED);
      return API_ENDPOINTS.map((e) => {
        const m = measured.get(`${e.method} ${e.path}`);
        return { method: e.method, path: e.path, requests: m?.requests ?? 0, medianMs: m ? m.medianMs : null };
      });
    },

    /** The last 60 minutes, oldest first, every minute present (zero when quiet). */
    async traffic(): Promise<TrafficMinute[]> {
      const current = Math.floor(clock.now().getTime() / MINUTE_MS);
      const logged = new Map((await requestLog.perMinute(HOUR_MS)).map((m) => [Math.floor(m.minute.getTime() / MINUTE_MS), m]));
      const upstream = {
        jira: deps.meter.callsPerMinute("jira"),
        confluence: deps.meter.callsPerMinute("confluence"),
        bitbucket: deps.meter.callsPerMinute("bitbucket"),
      };
      const minutes: TrafficMinute[] = [];
      for (let i = 0; i < 60; i++) {
        const minute = current - 59 + i;
        const m = logged.get(minute);
        minutes.push({
          minute: new Date(minute * MINUTE_MS),
          requests: m?.requests ?? 0,
          errors: m?.errors ?? 0,
          upstream: { jira: upstream.jira[i]!, confluence: upstream.confluence[i]!, bitbucket: upstream.bitbucket[i]! },
        });
      }
      return minutes;
    },
  };
}

export type StatsService = ReturnType<typeof createStatsService>;
