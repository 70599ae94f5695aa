/** GET /api/setup-status (issue 25): the Dashboard's Get started, re-read whenever the Dashboard is shown, with the integration status, and when the window regains focus. */
import { useQuery } from "@tanstack/react-query";
import { TIMINGS } from "@contract/limits";
import type { SetupStatusDto } from "@contract/setup";
import type { ApiError } from "./client";

export const SETUP_STATUS_QUERY_KEY = ["/api/setup-status"] as const;

export const useSetupStatus = ({ enabled = true }: { enabled?: boolean } = {}) =>
  useQuery<SetupStatusDto | null, ApiError>({
    queryKey: SETUP_STATUS_QUERY_KEY,
    enabled,
    staleTime: 0,
    refetchInterval: TIMINGS.integrationStatusPollMs,
    refetchOnWindowFocus: true,
  });
