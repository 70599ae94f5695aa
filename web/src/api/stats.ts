/**
 * What the observability screens read (spec sections 2, 3, 7 and 9;
 * docs/decisions.md#measured-numbers): the stats, the integration status lists, the per-endpoint
 * figures and the last hour's traffic. Each polls at the spec's interval; `enabled: false` for a
 * user without the read permission (it would be a 403).
 */
import { useQuery } from "@tanstack/react-query";
import type { AtlassianStatusDto, BitbucketStatusDto } from "@contract/integrations";
import { TIMINGS } from "@contract/limits";
import type { EndpointStatDto, StatsDto, TrafficMinuteDto } from "@contract/stats";
import type { ApiError } from "./client";
import { ADMIN_ATLASSIAN_STATUS_QUERY_KEY, ATLASSIAN_STATUS_QUERY_KEY, BITBUCKET_STATUS_QUERY_KEY } from "./integrations";

/** The dashboard reads /api/stats, the admin pages /api/admin/stats (spec section 7). */
export const STATS_QUERY_KEY = ["/api/stats"] as const;
export const ADMIN_STATS_QUERY_KEY = ["/api/admin/stats"] as const;
export const ENDPOINT_STATS_QUERY_KEY = ["/api/admin/endpoint-stats"] as const;
export const TRAFFIC_QUERY_KEY = ["/api/admin/stats/traffic"] as const;

export function useStats({ admin = false, enabled = true }: { admin?: boolean; enabled?: boolean } = {}) {
  return useQuery<StatsDto | null, ApiError>({
    queryKey: admin ? ADMIN_STATS_QUERY_KEY : STATS_QUERY_KEY,
    enabled,
    refetchInterval: TIMINGS.statsPollMs,
  });
}

export function useAtlassianStatus({ admin = false, enabled = true }: { admin?: boolean; enabled?: boolean } = {}) {
  return useQuery<AtlassianStatusDto | null, ApiError>({
    queryKey: admin ? ADMIN_ATLASSIAN_STATUS_QUERY_KEY : ATLASSIAN_STATUS_QUERY_KEY,
    enabled,
    refetchInterval: TIMINGS.integrationStatusPollMs,
  });
}

export function useBitbucketStatus({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery<BitbucketStatusDto | null, ApiError>({
    queryKey: BITBUCKET_STATUS_QUERY_KEY,
    enabled,
    refetchInterval: TIMINGS.integrationStatusPollMs,
  });
}

/**
 * Per endpoint of the API Endpoints list: the last hour's requests and median
 * (docs/decisions.md#measured-numbers), polled with the stats.
 */
export function useEndpointStats({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery<EndpointStatDto[] | null, ApiError>({
    queryKey: ENDPOINT_STATS_QUERY_KEY,
    enabled,
    refetchInterval: TIMINGS.statsPollMs,
  });
}

/** The dashboard's charts: 60 minutes of requests, errors and upstream calls, polled with the stats. */
export function useTraffic({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery<TrafficMinuteDto[] | null, ApiError>({ queryKey: TRAFFIC_QUERY_KEY, enabled, refetchInterval: TIMINGS.statsPollMs });
}
