/**
 * Users (spec sections 2, 7 and 8): GET /api/users, POST /api/users, PUT/DELETE /api/users/{id},
 * GET/PUT /api/users/{id}/roles. Every write refetches the users list (and the user's roles where
 * they changed) and shows the spec's toast; mutations never retry (query-client defaults).
 */
import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { RoleSummaryDto, UserCreate, UserDto, UserUpdate } from "@contract/users";
import type { ApiError} from "./client";
import { apiRequest } from "./client";
import { toastFailure, toastSuccess } from "./mutation-toasts";
import { SESSION_QUERY_KEY } from "./session";

export const USERS_QUERY_KEY = ["/api/users"] as const;
export const userRolesQueryKey = (userId: string) => ["/api/users", userId, "roles"] as const;

/** The signed-in user's own name, roles or permissions may have changed: ask the server again. */
function refreshSessionIfSelf(queryClient: QueryClient, userId: string): Promise<void> {
  const session = queryClient.getQueryData<{ user?: { id: string } } | null>(SESSION_QUERY_KEY);
  return session?.user?.id === userId ? queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY }) : Promise.resolve();
}

/** The list; `enabled: false` for a user without users.read, who would only get a 403. */
export function useUsers(enabled = true) {
  return useQuery<UserDto[] | null, ApiError>({ queryKey: USERS_QUERY_KEY, enabled });
}

/** The user's roles, fetched when the Manage Roles dialog opens (spec section 7). */
export function useUserRoles(userId: string | undefined) {
  return useQuery<RoleSummaryDto[] | null, ApiError>({
    queryKey: userRolesQueryKey(userId ?? ""),
    enabled: userId !== undefined,
    // Always ask again on open: another administrator may have changed them meanwhile.
    staleTime: 0,
  });
}

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation<UserDto, ApiError, UserCreate>({
    mutationFn: (body) => apiRequest<UserDto>("POST", "/api/users", body),
    onSuccess: async () => {
      toastSuccess("User created successfully");
      await queryClient.invalidateQueries({ queryKey: USERS_QUERY_KEY, exact: true });
    },
    onError: toastFailure,
  });
}

export interface UserUpdateVariables {
  id: string;
  changes: UserUpdate;
}

/** The Edit User form's save (the toggle from the row menu is `useSetUserStatus`). */
export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation<UserDto, ApiError, UserUpdateVariables>({
    mutationFn: ({ id, changes }) => apiRequest<UserDto>("PUT", `/api/users/${encodeURIComponent(id)}`, changes),
    onSuccess: async (_user, { id }) => {
      toastSuccess("User updated successfully");
      await Promise.all([queryClient.invalidateQueries({ queryKey: USERS_QUERY_KEY, exact: true }), refreshSessionIfSelf(queryClient, id)]);
    },
    onError: toastFailure,
  });
}

/** Deactivate / Activate from the row menu: PUT with only `isActive` (spec section 7). */
export function useSetUserStatus() {
  const queryClient = useQueryClient();
  return useMutation<UserDto, ApiError, { id: string; isActive: boolean }>({
    mutationFn: ({ id, isActive }) => apiRequest<UserDto>("PUT", `/api/users/${encodeURIComponent(id)}`, { isActive }),
    onSuccess: async (_user, { id }) => {
      toastSuccess("User status updated successfully");
      await Promise.all([queryClient.invalidateQueries({ queryKey: USERS_QUERY_KEY, exact: true }), refreshSessionIfSelf(queryClient, id)]);
    },
    onError: toastFailure,
  });
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation<void, ApiError, { id: string }>({
    mutationFn: ({ id }) => apiRequest<void>("DELETE", `/api/users/${encodeURIComponent(id)}`),
    onSuccess: async (_nothing, { id }) => {
      toastSuccess("User deleted successfully");
      queryClient.removeQueries({ queryKey: userRolesQueryKey(id) });
      await queryClient.invalidateQueries({ queryKey: USERS_QUERY_KEY, exact: true });
    },
    onError: toastFailure,
  });
}

export function useSetUserRoles() {
  const queryClient = useQueryClient();
  return useMutation<RoleSummaryDto[], ApiError, { id: string; roleIds: string[] }>({
    mutationFn: ({ id, roleIds }) => apiRequest<RoleSummaryDto[]>("PUT", `/api/users/${encodeURIComponent(id)}/roles`, { roleIds }),
    onSuccess: async (roles, { id }) => {
      toastSuccess("User roles updated successfully");
      queryClient.setQueryData(userRolesQueryKey(id), roles);
      await Promise.all([queryClient.invalidateQueries({ queryKey: USERS_QUERY_KEY, exact: true }), refreshSessionIfSelf(queryClient, id)]);
    },
    onError: toastFailure,
  });
}
