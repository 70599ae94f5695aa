/**
 * OAuth clients (spec sections 2, 7 and 8; DECISIONS D7, D13): GET/POST /api/admin/oauth-clients,
 * DELETE /api/admin/oauth-clients/{clientId}, and beyond the spec PATCH .../{clientId} (activate or
 * deactivate) and POST .../{clientId}/secret (a new secret). The list loads once (spec section 7:
 * "on load"); every write refetches it and shows a toast; mutations never retry (query-client
 * defaults).
 */
import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { OAUTH_CLIENT_TOASTS, type OAuthClientCreate, type OAuthClientDto } from "@contract/oauth";
import type { ClientPolicy, ClientPolicyInput } from "@contract/policy";
import { toast } from "@/hooks/use-toast";
import type { ApiError } from "./client";
import { apiRequest } from "./client";
import { toastFailure } from "./mutation-toasts";

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

export function useCreateOAuthClient() {
  const queryClient = useQueryClient();
  return useMutation<OAuthClientDto, ApiError, OAuthClientCreate>({
    mutationFn: (body) => apiRequest<OAuthClientDto>("POST", "/api/admin/oauth-clients", body),
    onSuccess: async () => {
      toast({ title: OAUTH_CLIENT_TOASTS.createdTitle, description: OAUTH_CLIENT_TOASTS.created });
      await refetchClients(queryClient);
    },
    onError: toastFailure,
  });
}

export function useDeleteOAuthClient() {
  const queryClient = useQueryClient();
  return useMutation<void, ApiError, { clientId: string }>({
    mutationFn: ({ clientId }) => apiRequest<void>("DELETE", clientUrl(clientId)),
    onSuccess: async () => {
      toast({ title: OAUTH_CLIENT_TOASTS.deletedTitle, description: OAUTH_CLIENT_TOASTS.deleted });
      await refetchClients(queryClient);
    },
    onError: toastFailure,
  });
}

/** Activate or deactivate (beyond the spec): an inactive client gets no tokens and its tokens stop working. */
export function useSetOAuthClientActive() {
  const queryClient = useQueryClient();
  return useMutation<OAuthClientDto, ApiError, { clientId: string; isActive: boolean }>({
    mutationFn: ({ clientId, isActive }) => apiRequest<OAuthClientDto>("PATCH", clientUrl(clientId), { isActive }),
    onSuccess: async (client, { isActive }) => {
      toast(
        isActive
          ? { title: "Client activated", description: `${client.name} can obtain tokens again.` }
          : { title: "Client deactivated", description: `${client.name} gets no tokens and its tokens no longer work.` },
      );
      replaceInList(queryClient, client);
      await refetchClients(queryClient);
    },
    onError: toastFailure,
  });
}

/** A new secret (beyond the spec): the old one stops working at once. Answers the client with it. */
export function useRegenerateOAuthClientSecret() {
  const queryClient = useQueryClient();
  return useMutation<OAuthClientDto, ApiError, { clientId: string }>({
    mutationFn: ({ clientId }) => apiRequest<OAuthClientDto>("POST", `${clientUrl(clientId)}/secret`),
    onSuccess: async (client) => {
      toast({ title: "Secret regenerated", description: `${client.name} has a new client secret; the old one no longer works.` });
      replaceInList(queryClient, client);
      await refetchClients(queryClient);
    },
    onError: toastFailure,
  });
}

/** What the client's AI may touch (issue 11): PUT .../policy; its tokens follow at once. */
export function useSetOAuthClientPolicy() {
  const queryClient = useQueryClient();
  return useMutation<ClientPolicy, ApiError, { client: OAuthClientDto; policy: ClientPolicyInput }>({
    mutationFn: ({ client, policy }) => apiRequest<ClientPolicy>("PUT", `${clientUrl(client.clientId)}/policy`, policy),
    onSuccess: async (policy, { client }) => {
      toast({ title: "Policy saved", description: `${client.name}'s tools follow the new policy from its next request.` });
      replaceInList(queryClient, { ...client, policy });
      await refetchClients(queryClient);
    },
    onError: toastFailure,
  });
}
