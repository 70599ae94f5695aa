/**
 * Integrations and server configuration (spec sections 2, 7 and 8; DECISIONS D6, D16, D20):
 * GET/POST /api/admin/atlassian-config and /api/admin/bitbucket-config, POST
 * /api/admin/test-atlassian and /api/admin/test-bitbucket, GET /api/admin/config. A save or a
 * test refetches the stored configs and the integration status lists (spec section 7) and shows
 * the spec's toast; the two config queries are not retried, mutations never are.
 */
import { createElement } from "react";
import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import {
  CONFIG_TOASTS,
  type AtlassianConfigDto,
  type AtlassianConfigInput,
  type AtlassianTestResult,
  type BitbucketConfigDto,
  type BitbucketConfigInput,
  type BitbucketTestResult,
  type ConfigEntry,
} from "@contract/integrations";
import { toast } from "@/hooks/use-toast";
import type { ApiError } from "./client";
import { apiRequest } from "./client";
import { toastFailure } from "./mutation-toasts";

export const ATLASSIAN_CONFIG_QUERY_KEY = ["/api/admin/atlassian-config"] as const;
export const BITBUCKET_CONFIG_QUERY_KEY = ["/api/admin/bitbucket-config"] as const;
export const SERVER_CONFIG_QUERY_KEY = ["/api/admin/config"] as const;
/** The status lists the dashboard and the admin pages poll (spec section 7). */
export const ATLASSIAN_STATUS_QUERY_KEY = ["/api/atlassian-status"] as const;
export const ADMIN_ATLASSIAN_STATUS_QUERY_KEY = ["/api/admin/atlassian-status"] as const;
export const BITBUCKET_STATUS_QUERY_KEY = ["/api/bitbucket-status"] as const;

/** A stored config or a test changed what the integrations report: ask again for all of it. */
function refreshIntegrations(queryClient: QueryClient): Promise<void> {
  return Promise.all(
    [
      ATLASSIAN_CONFIG_QUERY_KEY,
      BITBUCKET_CONFIG_QUERY_KEY,
      ATLASSIAN_STATUS_QUERY_KEY,
      ADMIN_ATLASSIAN_STATUS_QUERY_KEY,
      BITBUCKET_STATUS_QUERY_KEY,
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

/** The server settings in force, secrets masked by the server (D16, D20). */
export function useServerConfig(enabled = true) {
  return useQuery<ConfigEntry[] | null, ApiError>({ queryKey: SERVER_CONFIG_QUERY_KEY, enabled });
}

export function useSaveAtlassianConfig() {
  const queryClient = useQueryClient();
  return useMutation<AtlassianConfigDto, ApiError, AtlassianConfigInput>({
    mutationFn: (body) => apiRequest<AtlassianConfigDto>("POST", "/api/admin/atlassian-config", body),
    onSuccess: async (stored) => {
      toast({ title: CONFIG_TOASTS.savedTitle, description: CONFIG_TOASTS.atlassianSaved });
      if (stored && typeof stored === "object") queryClient.setQueryData(ATLASSIAN_CONFIG_QUERY_KEY, stored);
      await refreshIntegrations(queryClient);
    },
    onError: toastFailure,
  });
}

export function useSaveBitbucketConfig() {
  const queryClient = useQueryClient();
  return useMutation<BitbucketConfigDto, ApiError, BitbucketConfigInput>({
    mutationFn: (body) => apiRequest<BitbucketConfigDto>("POST", "/api/admin/bitbucket-config", body),
    onSuccess: async (stored) => {
      toast({ title: CONFIG_TOASTS.savedTitle, description: CONFIG_TOASTS.bitbucketSaved });
      if (stored && typeof stored === "object") queryClient.setQueryData(BITBUCKET_CONFIG_QUERY_KEY, stored);
      await refreshIntegrations(queryClient);
    },
    onError: toastFailure,
  });
}

/** One ticked or crossed line of a test result: "✓ Jira" or "✗ Jira — reason". */
export interface CheckLine {
  label: string;
  ok: boolean;
  reason?: string | undefined;
}

export const checkLineText = ({ label, ok, reason }: CheckLine): string => (ok ? `✓ ${label}` : `✗ ${label}${reason ? ` — ${reason}` : ""}`);

/** The lines as a list in the toast's description (a .ts file: no JSX here). */
const checkLines = (lines: CheckLine[]) =>
  createElement(
    "ul",
    { className: "grid gap-0.5" },
    lines.map((line) => createElement("li", { key: line.label }, checkLineText(line))),
  );

/**
 * Tests the stored Atlassian config. Spec section 8: "Connection test completed" with Jira and
 * Confluence each ticked or crossed, destructive when either is down; an HTTP failure is
 * "Connection test failed" with the server's message.
 */
export function useTestAtlassian() {
  const queryClient = useQueryClient();
  return useMutation<AtlassianTestResult, ApiError, void>({
    mutationFn: () => apiRequest<AtlassianTestResult>("POST", "/api/admin/test-atlassian"),
    onSuccess: (result) => {
      const lines: CheckLine[] = [
        { label: "Jira", ok: result.jiraConnected, reason: result.jiraError },
        { label: "Confluence", ok: result.confluenceConnected, reason: result.confluenceError },
      ];
      toast({
        variant: result.jiraConnected && result.confluenceConnected ? "default" : "destructive",
        title: CONFIG_TOASTS.testCompleted,
        description: checkLines(lines),
      });
    },
    onError: (error) => {
      toast({ variant: "destructive", title: CONFIG_TOASTS.atlassianTestFailed, description: error.serverMessage ?? error.message });
    },
    onSettled: () => refreshIntegrations(queryClient),
  });
}

/** Tests the stored Bitbucket config: "Connected" ticked or crossed; HTTP failure "Bitbucket connection test failed". */
export function useTestBitbucket() {
  const queryClient = useQueryClient();
  return useMutation<BitbucketTestResult, ApiError, void>({
    mutationFn: () => apiRequest<BitbucketTestResult>("POST", "/api/admin/test-bitbucket"),
    onSuccess: (result) => {
      toast({
        variant: result.connected ? "default" : "destructive",
        title: CONFIG_TOASTS.testCompleted,
        description: checkLines([{ label: "Connected", ok: result.connected, reason: result.error }]),
      });
    },
    onError: (error) => {
      toast({ variant: "destructive", title: CONFIG_TOASTS.bitbucketTestFailed, description: error.serverMessage ?? error.message });
    },
    onSettled: () => refreshIntegrations(queryClient),
  });
}
