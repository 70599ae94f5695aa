import { useQuery, type QueryClient } from "@tanstack/react-query";
import type { SessionResponse } from "@contract/auth";
import { TIMINGS } from "@contract/limits";
import type { LogEntryDto } from "@contract/logs";
import type { ApiError } from "@/api/client";
import { ATLASSIAN_STATUS_QUERY_KEY, BITBUCKET_STATUS_QUERY_KEY } from "@/api/integrations";
import { SESSION_QUERY_KEY } from "@/api/session";
import { STATS_QUERY_KEY, TRAFFIC_QUERY_KEY } from "@/api/stats";

/** Spec §9: recent activity shows 5 entries. */
export const RECENT_ACTIVITY_LIMIT = 5;

/**
 * The request (the default query function GETs the key): the newest five entries of client
 * traffic (MCP, OAuth, proxy), newest first; not the console's own polling.
 */
export const RECENT_ACTIVITY_QUERY_KEY = [`/api/admin/logs?limit=${RECENT_ACTIVITY_LIMIT}&source=traffic`] as const;

/**
 * Recent Activity (spec §2, §7): GET /api/admin/logs?limit=5&source=traffic, polled with the logs
 * (30 s). Only for users who may read the logs; for anyone else it would be a 403.
 */
export function useRecentActivity({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery<LogEntryDto[] | null, ApiError>({ queryKey: RECENT_ACTIVITY_QUERY_KEY, enabled, refetchInterval: TIMINGS.logsPollMs });
}

/**
 * Starts the dashboard's requests as soon as its code arrives. On a first visit React reveals the
 * lazily loaded page up to 300 ms later (Suspense's reveal throttle), and the queries would only
 * start then; the hooks pick up these requests in flight. Only what the user may read
 * (docs/decisions.md#roles-and-permissions), from the session the shell has already loaded.
 */
export function prefetchDashboard(client: QueryClient): void {
  const permissions = client.getQueryData<SessionResponse | null>(SESSION_QUERY_KEY)?.user.permissions ?? [];
  const keys = [
    ...(permissions.includes("stats.read")
      ? [STATS_QUERY_KEY, ATLASSIAN_STATUS_QUERY_KEY, BITBUCKET_STATUS_QUERY_KEY, TRAFFIC_QUERY_KEY]
      : []),
    ...(permissions.includes("logs.read") ? [RECENT_ACTIVITY_QUERY_KEY] : []),
  ];
  for (const queryKey of keys) void client.prefetchQuery({ queryKey });
}
