/**
 * The SSE Connections screen (spec sections 2, 3 and 7; docs/decisions.md#mcp-transports): GET
 * /api/admin/sse-connections, polled every 10 s, and beyond the spec DELETE
 * /api/admin/sse-connections/{connectionId} to end a live one.
 */
import { useQuery, type QueryClient } from "@tanstack/react-query";
import type { SseConnectionDto } from "@contract/connections";
import { TIMINGS } from "@contract/limits";
import { TOASTS } from "@contract/messages";
import type { ApiError } from "./client";
import { apiRequest } from "./client";
import { useApiMutation } from "./mutation";
import { ADMIN_STATS_QUERY_KEY, STATS_QUERY_KEY } from "./stats";

export const SSE_CONNECTIONS_QUERY_KEY = ["/api/admin/sse-connections"] as const;

/** The registry's rows, live ones first; `enabled: false` for a user without sse-connections.read. */
export function useSseConnections(enabled = true) {
  return useQuery<SseConnectionDto[] | null, ApiError>({
    queryKey: SSE_CONNECTIONS_QUERY_KEY,
    enabled,
    refetchInterval: TIMINGS.sseConnectionsPollMs,
  });
}

const refreshAfterEnd = (queryClient: QueryClient) =>
  Promise.all(
    [SSE_CONNECTIONS_QUERY_KEY, STATS_QUERY_KEY, ADMIN_STATS_QUERY_KEY].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey, exact: true }),
    ),
  );

/** Ends a live stream at once (its client gets an `error` event); audited on the server. */
export const useEndConnection = () =>
  useApiMutation<void, SseConnectionDto>({
    request: (connection) => apiRequest<void>("DELETE", `/api/admin/sse-connections/${encodeURIComponent(connection.connectionId)}`),
    success: (_nothing, connection) => ({
      title: TOASTS.connections.endedTitle,
      description: TOASTS.connections.ended(connection.clientId),
    }),
    refresh: refreshAfterEnd,
  });
