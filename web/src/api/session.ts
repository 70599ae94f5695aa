import { TOASTS } from "@contract/messages";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { navigate } from "wouter/use-browser-location";
import { TIMINGS } from "@contract/limits";
import type { Login, SessionResponse, SessionUser } from "@contract/auth";
import { toast } from "@/hooks/use-toast";
import { ApiError, apiRequest, getQueryFn } from "./client";

/** The session query's key, which is also its URL (the default query function GETs the key). */
export const SESSION_QUERY_KEY = ["/api/session"] as const;

export interface SessionState {
  user: SessionUser | null;
  /** True until the first answer (or failure) for the session arrives. */
  isLoading: boolean;
  /** Spec section 4: session data exists and there is no error. */
  isAuthenticated: boolean;
  error: Error | null;
}

/** GET /api/session: not retried, cached 5 minutes; a 401 means "signed out" (null), not an error. */
export function useSession(): SessionState {
  const query = useQuery<SessionResponse | null>({
    queryKey: SESSION_QUERY_KEY,
    queryFn: getQueryFn<SessionResponse>({ on401: "returnNull" }),
    staleTime: TIMINGS.sessionStaleMs,
    retry: false,
  });
  const user = query.data?.user ?? null;
  return {
    user,
    isLoading: query.isLoading,
    isAuthenticated: user !== null && !query.error,
    error: query.error,
  };
}

/**
 * POST /api/login. On success the session cache is filled and invalidated; from /login the browser
 * goes to /, from any other path it stays (docs/decisions.md#sign-in-and-deep-links: a deep link
 * survives sign-in).
 */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation<SessionResponse, ApiError, Login>({
    mutationFn: (credentials) => apiRequest<SessionResponse>("POST", "/api/login", credentials),
    meta: { expects401: true },
    onSuccess: async (data) => {
      queryClient.setQueryData(SESSION_QUERY_KEY, data);
      if (/^\/login\/?$/i.test(window.location.pathname)) navigate("/", { replace: true });
      await queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
    },
  });
}

/**
 * POST /api/logout. On success every cached query is dropped (no data of the previous user
 * survives), the login page shows at once, and after ~100 ms the address becomes /login.
 */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation<void, ApiError, void>({
    mutationFn: async () => {
      try {
        await apiRequest<void>("POST", "/api/logout");
      } catch (error) {
        // A 401 means the session had already ended: the user is signed out, which is the goal.
        if (!(error instanceof ApiError && error.status === 401)) throw error;
      }
    },
    meta: { expects401: true },
    onSuccess: () => {
      // Signed out first, through the live session query, so every observer re-renders to the
      // login page; only then drop the rest. (clear() first would detach the session observers
      // from the query they watch, leaving the shell on screen until something else re-rendered.)
      queryClient.setQueryData(SESSION_QUERY_KEY, null);
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_QUERY_KEY[0] });
      queryClient.getMutationCache().clear();
      window.setTimeout(() => navigate("/login"), TIMINGS.logoutRedirectDelayMs);
    },
    onError: (error) => {
      toast({
        variant: "destructive",
        title: TOASTS.session.logoutFailedTitle,
        description: error.serverMessage ?? TOASTS.session.logoutFailed,
      });
    },
  });
}
