import type { ApiEndpoint } from "@contract/stats";

/**
 * One health rule for an endpoint, shared by the Dashboard's card and the API Endpoints screen.
 * "not-configured": a proxy whose service nobody has set up (or switched off) yet, which is a
 * step still to take, not a failure: shown grey, not red.
 */
export type EndpointHealth = "up" | "down" | "unknown" | "not-configured";

/** A service's check: connected or not, not set up, or `undefined` while it has no answer. */
export type ServiceSignal = boolean | "not-configured" | undefined;

/** What the checks say; `undefined` while a check has no answer (loading, failed, not permitted). */
export interface HealthSignals {
  /** stats.serverStatus is exactly "Running". */
  serverRunning: boolean | undefined;
  jira: ServiceSignal;
  confluence: ServiceSignal;
  bitbucket: ServiceSignal;
}

/** A service's signal from its status: "not-configured" unless it is configured and active, else whether it is connected. */
export const serviceSignal = <S extends { configured: boolean; isActive: boolean }>(
  status: S | null | undefined,
  connected: (s: S) => boolean,
): ServiceSignal => (status ? (status.configured && status.isActive ? connected(status) : "not-configured") : undefined);

/**
 * The server's own endpoints are up while it reports "Running"; a proxy is up when its service
 * reports connected (Jira and Confluence from the Atlassian status, Bitbucket from its status).
 * A server that is not running takes every endpoint down with it.
 */
export function endpointHealth(endpoint: ApiEndpoint, signals: HealthSignals): EndpointHealth {
  if (signals.serverRunning === false) return "down";
  const check = "service" in endpoint ? signals[endpoint.service] : signals.serverRunning;
  if (check === undefined) return "unknown";
  if (check === "not-configured") return "not-configured";
  return check ? "up" : "down";
}
