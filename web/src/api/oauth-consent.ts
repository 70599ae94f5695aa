import { useMutation, useQuery } from "@tanstack/react-query";
import type { ConsentRequestDto } from "@contract/oauth";
import { apiRequest, type ApiError } from "./client";

/** GET /api/oauth/requests/{id}: the authorization request the consent page asks about. */
export function useConsentRequest(id: string) {
  return useQuery<ConsentRequestDto | null, ApiError>({ queryKey: ["/api/oauth/requests", id], retry: false });
}

/** The answer; the server says where the browser goes next (back to the client). */
export function useConsentDecision(id: string) {
  return useMutation<{ redirectTo: string }, ApiError, boolean>({
    mutationFn: (approve) =>
      apiRequest<{ redirectTo: string }>("POST", `/api/oauth/requests/${encodeURIComponent(id)}/decision`, { approve }),
    onSuccess: ({ redirectTo }) => window.location.assign(redirectTo),
  });
}
