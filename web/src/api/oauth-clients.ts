/**
 * OAuth clients (spec sections 2, 7 and 8; docs/decisions.md#oauth-client-secrets,
 * #oauth-authorization-server): GET/POST /api/admin/oauth-clients, DELETE
 * /api/admin/oauth-clients/{clientId}, and beyond the spec PATCH .../{clientId} (activate or
 * deactivate) and POST .../{clientId}/secret (a new secret). The list loads once (spec section 7:
 * "on load"); every write refetches it and shows a toast; mutations never retry (query-client
 * defaults).
 */
import { useQuery, type QueryClient } from "@tanstack/react-query";
import { TOASTS } from "@contract/messages";
import type { OAuthClientCreate, OAuthClientDto } from "@contract/oauth";
import type { ClientPolicy, ClientPolicyInput } from "@contract/policy";
import type { ApiError } from "./client";
import { apiRequest } from "./client";
import { useApiMutation } from "./mutation";

export const OAUTH_CLIENTS_QUERY_KEY = ["/api/admin/oauth-clients"] as const;

const clientUrl = (clientId: string) => `/api/admin/oauth-clients/${encodeURIComponent(clientId)}`;

const refetchClients = (queryClient: QueryClient): Promise<void> =>
  queryClient.invalidateQueries({ queryKey: OAUTH_CLIENTS_QUERY_KEY, exact: true });

/** Puts one changed client into the cached list at once, before the refetch answers. */
function replaceInList(queryClient: QueryClient, changed: OAuthClientDto): void {
  queryClient.setQueryData<OAuthClientDto[] | null>(OAUTH_CLIENTS_QUERY_KEY, (list) =>
    list?.map((client) => (client.clientId === changed.clientId ? changed : client)),
  );
}

/** The list, newest first; `enabled: false` for a user without oauth-clients.read (it would be a 403). */
export function useOAuthClients(enabled = true) {
  return useQuery<OAuthClientDto[] | null, ApiError>({ queryKey: OAUTH_CLIENTS_QUERY_KEY, enabled });
}

const T = TOASTS.oauthClients;

export const useCreateOAuthClient = () =>
  useApiMutation<OAuthClientDto, OAuthClientCreate>({
    request: (body) => apiRequest<OAuthClientDto>("POST", "/api/admin/oauth-clients", body),
    success: () => ({ title: T.createdTitle, description: T.created }),
    refresh: refetchClients,
  });

export const useDeleteOAuthClient = () =>
  useApiMutation<void, { clientId: string }>({
    request: ({ clientId }) => apiRequest<void>("DELETE", clientUrl(clientId)),
    success: () => ({ title: T.deletedTitle, description: T.deleted }),
    refresh: refetchClients,
  });

/** Activate or deactivate (beyond the spec): an inactive client gets no tokens and its tokens stop working. */
export const useSetOAuthClientActive = () =>
  useApiMutation<OAuthClientDto, { clientId: string; isActive: boolean }>({
    request: ({ clientId, isActive }) => apiRequest<OAuthClientDto>("PATCH", clientUrl(clientId), { isActive }),
    success: (client, { isActive }) => (isActive ? T.activated(client.name) : T.deactivated(client.name)),
    refresh: (queryClient, client) => {
      replaceInList(queryClient, client);
      return refetchClients(queryClient);
    },
  });

/** A new secret (beyond the spec): the old one stops working at once. Answers the client with it. */
export const useRegenerateOAuthClientSecret = () =>
  useApiMutation<OAuthClientDto, { clientId: string }>({
    request: ({ clientId }) => apiRequest<OAuthClientDto>("POST", `${clientUrl(clientId)}/secret`),
    success: (client) => T.secretRegenerated(client.name),
    refresh: (queryClient, client) => {
      replaceInList(queryClient, client);
      return refetchClients(queryClient);
    },
  });

/** What the client's AI may touch (issue 11): PUT .../policy; its tokens follow at once. */
export const useSetOAuthClientPolicy = () =>
  useApiMutation<ClientPolicy, { client: OAuthClientDto; policy: ClientPolicyInput }>({
    request: ({ client, policy }) => apiRequest<ClientPolicy>("PUT", `${clientUrl(client.clientId)}/policy`, policy),
    success: (_policy, { client }) => T.policySaved(client.name),
    refresh: (queryClient, policy, { client }) => {
      replaceInList(queryClient, { ...client, policy });
      return refetchClients(queryClient);
    },
  });
