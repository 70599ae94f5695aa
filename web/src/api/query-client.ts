import { MutationCache, QueryClient } from "@tanstack/react-query";
import { ApiError, getQueryFn } from "./client";
import { SESSION_QUERY_KEY } from "./session";

/** A 4xx will not change on a second try; a 5xx or a network failure might. */
function isClientError(error: unknown): boolean {
  return error instanceof ApiError && error.status >= 400 && error.status < 500;
}

/**
 * Spec section 9: no interval, no refetch on focus, never stale, queries retry once, mutations
 * never. A 401 on any write means the session ended elsewhere: re-check it, which shows the
 * login page (mutations that expect a 401, like sign-in itself, opt out with `meta`).
 */
export const queryClient: QueryClient = new QueryClient({
  defaultOptions: {
    queries: {
      queryFn: getQueryFn({ on401: "returnNull" }),
      refetchInterval: false,
      refetchOnWindowFocus: false,
      staleTime: Infinity,
      retry: (failureCount, error) => !isClientError(error) && failureCount < 1,
    },
    mutations: {
      retry: false,
    },
  },
  mutationCache: new MutationCache({
    onError: (error, _variables, _context, mutation) => {
      if (error instanceof ApiError && error.status === 401 && !mutation.meta?.expects401) {
        void queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
      }
    },
  }),
});
