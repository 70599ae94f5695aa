import type { ApiEndpoint } from "@contract/stats";

/** One health rule for an endpoint, shared by the Dashboard's card and the API Endpoints screen. */
export type EndpointHealth = "up" | "down" | "unknown";

/** What the checks say; `undefined` while a check has no answer (loading, failed, not permitted). */
export interface HealthSignals {
  /** stats.serverStatus is exactly "Running". */
  serverRunning: boolean | undefined;
  jira: boolean | undefined;
  confluence: boolean | undefined;
  bitbucket: boolean | undefined;
}

/**
 * The server's own endpoints are up while it reports "Running"; a proxy is up when its service
 * reports connected (Jira and Confluence from the Atlassian status, Bitbucket from its status).
 * A server that is not running takes every endpoint down with it.
 */
export function endpointHealth(endpoint: ApiEndpoint, signals: HealthSignals): EndpointHealth {
  if (signals.serverRunning === false) return "down";
  const check = "service" in endpoint ? signals[endpoint.service] : signals.serverRunning;
  if (check === undefined) return "unknown";
  return check ? "up" : "down";
}

