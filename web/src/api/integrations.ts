/**
 * Integrations and server configuration (spec sections 2, 7 and 8;
 * docs/decisions.md#write-only-secrets, #rate-limits, #environment-and-port): GET/POST
 * /api/admin/atlassian-config and /api/admin/bitbucket-config, POST /api/admin/test-atlassian and
 * /api/admin/test-bitbucket, GET /api/admin/config. A save or a test refetches the stored configs
 * and the integration status lists (spec section 7) and shows the spec's toast; the two config
 * queries are not retried, mutations never are.
 */
import { TOASTS } from "@contract/messages";
import { createElement } from "react";
import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import {
  type AtlassianConfigDto,
  type AtlassianConfigInput,
  type AtlassianTestResult,
  type BitbucketConfigDto,
  type BitbucketConfigInput,
  type BitbucketTestResult,
  type ConfigEntry,
} from "@contract/integrations";
import { toast } from "@/hooks/use-toast";
import { IDENTITY_QUERY_KEY } from "./accounts";
import type { ApiError } from "./client";
import { apiRequest } from "./client";
import { useApiMutation } from "./mutation";

export const ATLASSIAN_CONFIG_QUERY_KEY = ["/api/admin/atlassian-config"] as const;
export const BITBUCKET_CONFIG_QUERY_KEY = ["/api/admin/bitbucket-config"] as const;
export const SERVER_CONFIG_QUERY_KEY = ["/api/admin/config"] as const;
/** The status lists the dashboard and the admin pages poll (spec section 7). */
export const ATLASSIAN_STATUS_QUERY_KEY = ["/api/atlassian-status"] as const;
export const ADMIN_ATLASSIAN_STATUS_QUERY_KEY = ["/api/admin/atlassian-status"] as const;
export const BITBUCKET_STATUS_QUERY_KEY = ["/api/bitbucket-status"] as const;

/**
 * A stored config or a test changed what the integrations report: ask again for all of it (the
 * identity settings too: where an integration runs decides how people link, issue 28).
 */
function refreshIntegrations(queryClient: QueryClient): Promise<void> {
  return Promise.all(
    [
      ATLASSIAN_CONFIG_QUERY_KEY,
      BITBUCKET_CONFIG_QUERY_KEY,
      ATLASSIAN_STATUS_QUERY_KEY,
      ADMIN_ATLASSIAN_STATUS_QUERY_KEY,
      BITBUCKET_STATUS_QUERY_KEY,
      IDENTITY_QUERY_KEY,
    ].map((queryKey) => queryClient.invalidateQueries({ queryKey, exact: true })),
  ).then(() => undefined);
}

/** The stored Atlassian config (token never included, only its hint). Spec section 7: no retry. */
export function useAtlassianConfig(enabled = true) {
  return useQuery<AtlassianConfigDto | null, ApiError>({ queryKey: ATLASSIAN_CONFIG_QUERY_KEY, enabled, retry: false });
}

/** The stored Bitbucket config (app password never included, only its hint). No retry. */
export function useBitbucketConfig(enabled = true) {
  return useQuery<BitbucketConfigDto | null, ApiError>({ queryKey: BITBUCKET_CONFIG_QUERY_KEY, enabled, retry: false });
}

/**
 * The server settings in force, secrets masked by the server (docs/decisions.md#rate-limits,
 * #environment-and-port).
 */
export function useServerConfig(enabled = true) {
  return useQuery<ConfigEntry[] | null, ApiError>({ queryKey: SERVER_CONFIG_QUERY_KEY, enabled });
}

/** Saves a stored config: the spec's toast, the answer cached, then everything refetched. */
const useSaveConfig = <Dto, Input>(path: string, queryKey: readonly string[], savedDescription: string) =>
  useApiMutation<Dto, Input>({
    request: (body) => apiRequest<Dto>("POST", path, body),
    success: () => ({ title: TOASTS.config.savedTitle, description: savedDescription }),
    refresh: (queryClient, stored) => {
      if (stored && typeof stored === "object") queryClient.setQueryData(queryKey, stored);
      return refreshIntegrations(queryClient);
    },
  });

export const useSaveAtlassianConfig = () =>
  useSaveConfig<AtlassianConfigDto, AtlassianConfigInput>(
    "/api/admin/atlassian-config",
    ATLASSIAN_CONFIG_QUERY_KEY,
    TOASTS.config.atlassianSaved,
  );

export const useSaveBitbucketConfig = () =>
  useSaveConfig<BitbucketConfigDto, BitbucketConfigInput>(
    "/api/admin/bitbucket-config",
    BITBUCKET_CONFIG_QUERY_KEY,
    TOASTS.config.bitbucketSaved,
  );

/** One ticked or crossed line of a test result: "✓ Jira" or "✗ Jira — reason". */
export interface CheckLine {
  label: string;
  ok: boolean;
  reason?: string | undefined;
}

export const checkLineText = ({ label, ok, reason }: CheckLine): string =>
  ok ? `✓ ${label}` : `✗ ${label}${reason ? ` — ${reason}` : ""}`;

/** The lines as a list in the toast's description (a .ts file: no JSX here). */
const checkLines = (lines: CheckLine[]) =>
  createElement(
    "ul",
    { className: "grid gap-0.5" },
    lines.map((line) => createElement("li", { key: line.label }, checkLineText(line))),
  );

/**
 * Tests a stored config. Spec section 8: "Connection test completed" with each check ticked or
 * crossed, destructive when any is down; an HTTP failure is the integration's own failure title
 * with the server's message. Either way the status lists are asked again.
 */
function useTestConnection<Result>(path: string, linesOf: (result: Result) => CheckLine[], failedTitle: string) {
  const queryClient = useQueryClient();
  return useMutation<Result, ApiError, void>({
    mutationFn: () => apiRequest<Result>("POST", path),
    onSuccess: (result) => {
      const lines = linesOf(result);
      toast({
        variant: lines.every((line) => line.ok) ? "default" : "destructive",
        title: TOASTS.config.testCompleted,
        description: checkLines(lines),
      });
    },
    onError: (error) => {
      toast({ variant: "destructive", title: failedTitle, description: error.serverMessage ?? error.message });
    },
    onSettled: () => refreshIntegrations(queryClient),
  });
}

/** Tests the stored Atlassian config: Jira and Confluence each ticked or crossed; HTTP failure "Connection test failed". */
export const useTestAtlassian = () =>
  useTestConnection<AtlassianTestResult>(
    "/api/admin/test-atlassian",
    (result) => [
      { label: "Jira", ok: result.jiraConnected, reason: result.jiraError },
      { label: "Confluence", ok: result.confluenceConnected, reason: result.confluenceError },
    ],
    TOASTS.config.atlassianTestFailed,
  );

/** Tests the stored Bitbucket config: "Connected" ticked or crossed; HTTP failure "Bitbucket connection test failed". */
export const useTestBitbucket = () =>
  useTestConnection<BitbucketTestResult>(
    "/api/admin/test-bitbucket",
    (result) => [{ label: "Connected", ok: result.connected, reason: result.error }],
    TOASTS.config.bitbucketTestFailed,
  );
