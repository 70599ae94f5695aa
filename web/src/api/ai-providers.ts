/**
 * AI providers (spec sections 2, 7 and 8; docs/decisions.md#write-only-secrets): GET/POST
 * /api/ai-providers, PATCH/DELETE /api/ai-providers/{id}, and beyond the spec POST
 * /api/ai-providers/{id}/test. The list loads once (spec section 7: "on load"); every write
 * refetches it and shows the spec's toast, a failure titled with the spec's sentence and described
 * by the server's reason. Mutations never retry.
 */
import { useMutation, useQuery, type QueryClient } from "@tanstack/react-query";
import type { AiProvider, AiProviderCreate, AiProviderTestResult, AiProviderUpdate } from "@contract/ai-providers";
import { TOASTS } from "@contract/messages";
import type { ApiError } from "./client";
import { apiRequest } from "./client";
import { CHAT_PROVIDERS_QUERY_KEY } from "./chat";
import { toastFailure, useApiMutation } from "./mutation";

export const AI_PROVIDERS_QUERY_KEY = ["/api/ai-providers"] as const;

const providerUrl = (id: string) => `/api/ai-providers/${encodeURIComponent(id)}`;

/** This list and the chat's own list of active providers: a change here changes what the chat may offer. */
const refetchProviders = (queryClient: QueryClient): Promise<unknown> =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: AI_PROVIDERS_QUERY_KEY, exact: true }),
    queryClient.invalidateQueries({ queryKey: CHAT_PROVIDERS_QUERY_KEY }),
  ]);

/** Puts one changed provider into the cached list at once, before the refetch answers. */
function replaceInList(queryClient: QueryClient, changed: AiProvider): void {
  queryClient.setQueryData<AiProvider[] | null>(AI_PROVIDERS_QUERY_KEY, (list) => list?.map((p) => (p.id === changed.id ? changed : p)));
}

/** The list, newest first; `enabled: false` for a user without ai-providers.read (it would be a 403). */
export function useAiProviders(enabled = true) {
  return useQuery<AiProvider[] | null, ApiError>({ queryKey: AI_PROVIDERS_QUERY_KEY, enabled });
}

const T = TOASTS.aiProviders;
/** Spec section 8's failure sentence as the title, the server's reason under it. */
const failed = (title: string) => (error: ApiError) => ({ title, description: error.serverMessage ?? error.message });

export const useCreateAiProvider = () =>
  useApiMutation<AiProvider, AiProviderCreate>({
    request: (body) => apiRequest<AiProvider>("POST", "/api/ai-providers", body),
    success: () => T.created,
    failure: failed(T.createFailed),
    refresh: refetchProviders,
  });

export interface AiProviderUpdateVariables {
  id: string;
  changes: AiProviderUpdate;
}

/** The Edit form's save; a blank or absent key keeps the stored one (docs/decisions.md#write-only-secrets). */
export const useUpdateAiProvider = () =>
  useApiMutation<AiProvider, AiProviderUpdateVariables>({
    request: ({ id, changes }) => apiRequest<AiProvider>("PATCH", providerUrl(id), changes),
    success: () => T.updated,
    failure: failed(T.updateFailed),
    refresh: (queryClient, provider) => {
      replaceInList(queryClient, provider);
      return refetchProviders(queryClient);
    },
  });

/**
 * The card's switch: PATCH with only `isActive` (spec section 7). The answer goes into the list at
 * once and the refetch is not waited for, so the switch is free for the next press as soon as
 * the server has answered.
 */
export const useSetAiProviderActive = () =>
  useApiMutation<AiProvider, { id: string; isActive: boolean }>({
    request: ({ id, isActive }) => apiRequest<AiProvider>("PATCH", providerUrl(id), { isActive }),
    success: () => T.statusUpdated,
    failure: failed(T.statusFailed),
    refresh: (queryClient, provider) => {
      replaceInList(queryClient, provider);
      void refetchProviders(queryClient);
    },
  });

export const useDeleteAiProvider = () =>
  useApiMutation<void, { id: string }>({
    request: ({ id }) => apiRequest<void>("DELETE", providerUrl(id)),
    success: () => T.deleted,
    failure: failed(T.deleteFailed),
    refresh: refetchProviders,
  });

/**
 * The Test action: a one-token call with the stored key. The provider's answer or its refusal is
 * the result (shown on the card), not an error; only a failing request (gone, no permission) is.
 */
export const useTestAiProvider = () =>
  // `version`: the provider's updatedAt when tested; a result is about the provider as it was then.
  useMutation<AiProviderTestResult, ApiError, { id: string; version: string }>({
    mutationFn: ({ id }) => apiRequest<AiProviderTestResult>("POST", `${providerUrl(id)}/test`),
    onError: toastFailure,
  });
