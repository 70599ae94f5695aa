/**
 * Acting as the person (issue 27, docs/decisions.md D25): GET /api/account/links (My accounts, any
 * signed-in user), POST /api/account/links/{integration}/authorize and /api-token, DELETE
 * /api/account/links/{integration}; GET and PUT /api/admin/identity (Configuration); GET and DELETE
 * /api/users/{id}/links (User Management). Every write refetches what it changed and shows a toast;
 * mutations never retry (query-client defaults).
 */
import { useMutation, useQuery, type QueryClient } from "@tanstack/react-query";
import {
  INTEGRATION_LABELS,
  type AccountLinkDto,
  type ApiTokenLinkInput,
  type IdentitySettingsDto,
  type IdentitySettingsInput,
  type Integration,
  type MyAccountsDto,
} from "@contract/accounts";
import { TOASTS } from "@contract/messages";
import type { ApiError } from "./client";
import { apiRequest } from "./client";
import { toastFailure, useApiMutation } from "./mutation";

export const MY_ACCOUNTS_QUERY_KEY = ["/api/account/links"] as const;
export const IDENTITY_QUERY_KEY = ["/api/admin/identity"] as const;
export const userLinksQueryKey = (userId: string) => ["/api/users", userId, "links"] as const;

const linkUrl = (integration: Integration) => `/api/account/links/${encodeURIComponent(integration)}`;

/** The toasts of this feature (not in the spec: its own words). */
export const ACCOUNT_TOASTS = {
  linked: (integration: Integration) => `${INTEGRATION_LABELS[integration]} account linked`,
  unlinked: (integration: Integration) => `${INTEGRATION_LABELS[integration]} account unlinked`,
  unlinkedFor: (integration: Integration, username: string) => `${INTEGRATION_LABELS[integration]} account of ${username} unlinked`,
  identitySaved: (integration: Integration) =>
    `${integration === "atlassian" ? "Jira and Confluence" : "Bitbucket"}: who Bridgekeeper acts as has been updated.`,
} as const;

/** The signed-in person's accounts: each integration's mode and their own link. */
export function useMyAccounts(enabled = true) {
  return useQuery<MyAccountsDto | null, ApiError>({ queryKey: MY_ACCOUNTS_QUERY_KEY, enabled });
}

const refreshMine = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: MY_ACCOUNTS_QUERY_KEY, exact: true });

export interface StartLinkVariables {
  integration: Integration;
  /** A console path to come back to after a successful link (My accounts when omitted). */
  returnTo?: string;
}

/**
 * Starts linking with OAuth: the server answers the service's consent address and the browser goes
 * there (it comes back through the server's callback). While the browser leaves, the mutation
 * stays "pending" for the caller (isPending or isSuccess). A refusal (409: linking not offered) is
 * the usual "Error" toast with the server's sentence.
 */
export function useStartLink() {
  return useMutation<{ authorizeUrl: string }, ApiError, StartLinkVariables>({
    mutationFn: ({ integration, returnTo }) =>
      apiRequest<{ authorizeUrl: string }>("POST", `${linkUrl(integration)}/authorize`, returnTo ? { returnTo } : {}),
    onSuccess: ({ authorizeUrl }) => {
      window.location.href = authorizeUrl;
    },
    onError: toastFailure,
  });
}

/** Links a personal API token (the service confirms it first); a refused one comes back as the apiToken field's message. */
export const useLinkApiToken = () =>
  useApiMutation<AccountLinkDto, { integration: Integration; input: ApiTokenLinkInput }>({
    request: ({ integration, input }) => apiRequest<AccountLinkDto>("POST", `${linkUrl(integration)}/api-token`, input),
    success: (_link, { integration }) => ACCOUNT_TOASTS.linked(integration),
    refresh: refreshMine,
  });

/** Unlinks one's own account: Bridgekeeper forgets its tokens. */
export const useUnlinkMine = () =>
  useApiMutation<void, Integration>({
    request: (integration) => apiRequest<void>("DELETE", linkUrl(integration)),
    success: (_none, integration) => ACCOUNT_TOASTS.unlinked(integration),
    refresh: refreshMine,
  });

/** Both integrations' identity settings (config.read); not retried, like the other config queries. */
export function useIdentitySettings(enabled = true) {
  return useQuery<IdentitySettingsDto[] | null, ApiError>({ queryKey: IDENTITY_QUERY_KEY, enabled, retry: false });
}

/** Saves one integration's identity settings (config.write); the answer replaces its entry in the cache. */
export const useSaveIdentity = () =>
  useApiMutation<IdentitySettingsDto, { integration: Integration; input: IdentitySettingsInput }>({
    request: ({ integration, input }) =>
      apiRequest<IdentitySettingsDto>("PUT", `/api/admin/identity/${encodeURIComponent(integration)}`, input),
    success: (_saved, { integration }) => ({ title: TOASTS.config.savedTitle, description: ACCOUNT_TOASTS.identitySaved(integration) }),
    refresh: (queryClient, saved) => {
      queryClient.setQueryData<IdentitySettingsDto[] | null>(IDENTITY_QUERY_KEY, (list) =>
        list ? list.map((entry) => (entry.integration === saved.integration ? saved : entry)) : list,
      );
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: IDENTITY_QUERY_KEY, exact: true }),
        // The signed-in person's own page and warnings follow the mode.
        refreshMine(queryClient),
      ]);
    },
  });

/** A user's links as an administrator sees them (users.read): states, never tokens. Asked again on every open. */
export function useUserLinks(userId: string | undefined) {
  return useQuery<AccountLinkDto[] | null, ApiError>({
    queryKey: userLinksQueryKey(userId ?? ""),
    enabled: userId !== undefined,
    staleTime: 0,
  });
}

/** An administrator unlinks a user's account (users.write). */
export const useUnlinkUserLink = () =>
  useApiMutation<void, { userId: string; username: string; integration: Integration }>({
    request: ({ userId, integration }) =>
      apiRequest<void>("DELETE", `/api/users/${encodeURIComponent(userId)}/links/${encodeURIComponent(integration)}`),
    success: (_none, { integration, username }) => ACCOUNT_TOASTS.unlinkedFor(integration, username),
    refresh: (queryClient, _none, { userId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: userLinksQueryKey(userId), exact: true }),
        // The administrator may have unlinked their own.
        refreshMine(queryClient),
      ]),
  });
