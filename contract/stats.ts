/** `GET /api/stats` and `GET /api/admin/stats` (spec §3 Stats, D14): every figure measured by the server. */
export interface StatsDto {
  /** "Running" while the server and its database answer; otherwise what is wrong (the dashboard then reads "Unhealthy"). */
  serverStatus: string;
  /** Seconds since the process started. */
  uptime: number;
  /** Open long-lived streams across every instance (the connection registry's active rows). Null when the database does not answer. */
  activeSSEConnections: number | null;
  totalOAuthClients: number | null;
  /** Live grants: unexpired, unrevoked (D13). */
  activeOAuthSessions: number | null;
  /** Requests logged in the last 60 minutes (counted by whole minutes). */
  apiRequestsPerHour: number | null;
  /** 429 answers among them. */
  rateLimitHits: number | null;
}

export const SERVER_RUNNING = "Running";
