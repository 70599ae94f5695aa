import type { AtlassianStatusDto, BitbucketStatusDto } from "@contract/integrations";
import { endpointHealth, serviceSignal, type EndpointHealth } from "@/lib/endpoint-health";
import { API_ENDPOINTS, SERVER_RUNNING, type ApiEndpoint, type EndpointStatDto, type StatsDto } from "@contract/stats";

export { API_ENDPOINTS };
export type { ApiEndpoint };

/** What the health dots read: the server's own status and the integrations' (null while unknown). */
export interface HealthInputs {
  stats: StatsDto | null | undefined;
  atlassian: AtlassianStatusDto | null | undefined;
  bitbucket: BitbucketStatusDto | null | undefined;
}

/**
 * Spec section 2: the Jira and Confluence entries are healthy only when the Atlassian status reports
 * that service connected (Bitbucket's likewise from its status); every other endpoint is this
 * server's own, healthy while it reports "Running".
 */
export function healthOf(endpoint: ApiEndpoint, { stats, atlassian, bitbucket }: HealthInputs): EndpointHealth {
  const signals = {
    serverRunning: stats ? stats.serverStatus === SERVER_RUNNING : undefined,
    jira: serviceSignal(atlassian, (s) => s.jiraConnected),
    confluence: serviceSignal(atlassian, (s) => s.confluenceConnected),
    bitbucket: serviceSignal(bitbucket, (s) => s.connected),
  };
  return endpointHealth(endpoint, signals);
}

export const isHealthy = (endpoint: ApiEndpoint, inputs: HealthInputs): boolean => healthOf(endpoint, inputs) === "up";

/** Spec section 2's counts (healthy means up); `failing` counts the unhealthy ones that are not only waiting to be set up. */
export function healthCounts(inputs: HealthInputs): { total: number; healthy: number; unhealthy: number; failing: number } {
  const states = API_ENDPOINTS.map((e) => healthOf(e, inputs));
  const healthy = states.filter((h) => h === "up").length;
  return {
    total: API_ENDPOINTS.length,
    healthy,
    unhealthy: API_ENDPOINTS.length - healthy,
    failing: states.filter((h) => h !== "up" && h !== "not-configured").length,
  };
}

/** The endpoint's measured figures of the last hour, if the server sent them. */
export const statOf = (endpoint: ApiEndpoint, stats: readonly EndpointStatDto[] | null | undefined): EndpointStatDto | undefined =>
  stats?.find((s) => s.method === endpoint.method && s.path === endpoint.path);

/** The three documentation examples (spec section 2), for this server's address (the AI clients' configurations: contract/connect.ts). */
export function examples(origin: string) {
  return {
    protocol: [
      `curl -X POST ${origin}/api/mcp/protocol \\`,
      `  -H "Authorization: Bearer $ACCESS_TOKEN" \\`,
      `  -H "Content-Type: application/json" \\`,
      `  -H "Accept: application/json, text/event-stream" \\`,
      `  -d '{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}'`,
    ].join("\n"),
    sse: [
      `curl -N ${origin}/api/sse/stream \\`,
      `  -H "Authorization: Bearer $ACCESS_TOKEN" \\`,
      `  -H "Accept: text/event-stream" \\`,
      `  -H "Cache-Control: no-cache"`,
    ].join("\n"),
    token: [
      `curl -X POST ${origin}/oauth/token \\`,
      `  -H "Content-Type: application/x-www-form-urlencoded" \\`,
      `  -d grant_type=authorization_code \\`,
      `  -d client_id=$CLIENT_ID \\`,
      `  -d client_secret=$CLIENT_SECRET \\`,
      `  -d code=$AUTHORIZATION_CODE \\`,
      `  -d code_verifier=$CODE_VERIFIER \\`,
      `  --data-urlencode redirect_uri=$REDIRECT_URI`,
    ].join("\n"),
  };
}
