import { useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { TOASTS } from "@contract/messages";
import { toast } from "@/hooks/use-toast";
import type { ApiError } from "./client";

/** A success toast: the spec's one-line title, or a title with a description. */
export type SuccessToast = string | { title: string; description?: string };

export interface ApiMutationOptions<TData, TVars> {
  request: (vars: TVars) => Promise<TData>;
  /** The toast on success (spec section 8); none when omitted. */
  success?: (data: TData, vars: TVars) => SuccessToast;
  /** What to ask again or update in the cache once the write is done (awaited, so the screen shows it). */
  refresh?: (queryClient: QueryClient, data: TData, vars: TVars) => Promise<unknown> | void;
  /** The failure toast's title and text; spec section 8's "Error" with the server's message by default. */
  failure?: (error: ApiError) => { title: string; description: string };
}

/** Spec section 8: failures are a destructive toast titled "Error" with the server's message. */
export function toastFailure(error: ApiError): void {
  toast({ variant: "destructive", title: TOASTS.errorTitle, description: error.serverMessage ?? error.message });
}

/**
 * Every console write goes through this: the request, the spec's toast, then the refresh of what
 * the write changed. Mutations never retry (query-client defaults); a caller's own `onError` in
 * `mutate(vars, { onError })` still runs, for field messages.
 */
export function useApiMutation<TData, TVars = void>({ request, success, refresh, failure }: ApiMutationOptions<TData, TVars>) {
  const queryClient = useQueryClient();
  return useMutation<TData, ApiError, TVars>({
    mutationFn: request,
    onSuccess: async (data, vars) => {
      if (success) {
        const shown = success(data, vars);
        toast(typeof shown === "string" ? { title: shown } : shown);
      }
      await refresh?.(queryClient, data, vars);
    },
    onError: failure ? (error) => toast({ variant: "destructive", ...failure(error) }) : toastFailure,
  });
}
