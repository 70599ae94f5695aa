/**
 * `GET /api/stats` and `GET /api/admin/stats` (spec §3 Stats): every figure measured by the server
 * (docs/decisions.md#measured-numbers).
 */
export interface StatsDto {
  /** "Running" while the server and its database answer; otherwise what is wrong (the dashboard then reads "Unhealthy"). */
  serverStatus: string;
  /** Seconds since the process started. */
  uptime: number;
  /** Open long-lived streams across every instance (the connection registry's active rows). Null when the database does not answer. */
  activeSSEConnections: number | null;
  totalOAuthClients: number | null;
  /** Live grants: unexpired, unrevoked (docs/decisions.md#oauth-authorization-server). */
  activeOAuthSessions: number | null;
  /** Requests logged in the last 60 minutes (counted by whole minutes). */
  apiRequestsPerHour: number | null;
  /** 429 answers among them. */
  rateLimitHits: number | null;
  /**
   * The instances serving on this database (one with the embedded database), oldest first: the
   * figures above are theirs together. Null when the database does not answer.
   */
  instances: InstanceDto[] | null;
}

/** One live instance (a process seen within the last 45 s). */
export interface InstanceDto {
  /** hostname:pid:random, as the SSE Connections screen names a stream's holder. */
  id: string;
  version: string;
  hostname: string;
  startedAt: string;
  /** Seconds since it started. */
  uptime: number;
  lastSeenAt: string;
  /** Streams it holds now. */
  openStreams: number;
  /** The instance that answered this request. */
  current: boolean;
}

export const SERVER_RUNNING = "Running";

/**
 * The endpoints the API Endpoints screen and the dashboard card list (spec §2), plus `/mcp`, in
 * the screen's order. `match` says how a logged request is counted as one of them: its exact
 * path, or any path under `path` without the `*`. `stream`: the screen shows the open stream
 * count instead of a response time.
 */
export const API_ENDPOINTS = [
  { method: "GET", path: "/api/mcp/health", description: "Server health check", match: "exact" },
  { method: "POST", path: "/mcp", description: "MCP endpoint (Streamable HTTP, every protocol revision)", match: "exact" },
  { method: "POST", path: "/api/mcp/protocol", description: "MCP protocol handler (JSON-RPC 2.0)", match: "exact" },
  { method: "SSE", path: "/api/sse/stream", description: "Server-Sent Events stream", match: "exact", stream: true },
  { method: "POST", path: "/oauth/token", description: "OAuth token endpoint", match: "exact" },
  { method: "GET", path: "/oauth/authorize", description: "OAuth authorization endpoint", match: "exact" },
  { method: "GET", path: "/api/atlassian/jira/*", description: "Jira REST API proxy", match: "prefix", service: "jira" },
  { method: "GET", path: "/api/atlassian/confluence/*", description: "Confluence REST API proxy", match: "prefix", service: "confluence" },
  { method: "GET", path: "/api/bitbucket/*", description: "Bitbucket REST API proxy", match: "prefix", service: "bitbucket" },
  { method: "GET", path: "/api/admin/stats", description: "Server statistics", match: "exact" },
  { method: "GET", path: "/api/admin/oauth-clients", description: "OAuth client management", match: "exact" },
  { method: "GET", path: "/api/admin/logs", description: "Request logs", match: "exact" },
] as const satisfies readonly {
  method: string;
  path: string;
  description: string;
  match: "exact" | "prefix";
  stream?: boolean;
  service?: "jira" | "confluence" | "bitbucket";
}[];

export type ApiEndpoint = (typeof API_ENDPOINTS)[number];

/**
 * `GET /api/admin/endpoint-stats`: per endpoint of API_ENDPOINTS, what the last hour measured
 * (docs/decisions.md#measured-numbers).
 */
export interface EndpointStatDto {
  method: string;
  path: string;
  /** Requests logged in the last hour. */
  requests: number;
  /** Median response time in ms over them; null when none was seen (the screen shows a dash). */
  medianMs: number | null;
}

/** `GET /api/admin/stats/traffic`: the last 60 minutes, oldest first, one entry per minute (the dashboard's charts). */
export interface TrafficMinuteDto {
  /** The minute's start (ISO). */
  minute: string;
  /** Requests logged (every instance). */
  requests: number;
  /** Those answered 400 or above. */
  errors: number;
  /** Calls this instance made to each service. */
  upstream: { jira: number; confluence: number; bitbucket: number };
}
