/**
 * Users (spec sections 2, 7 and 8): GET /api/users, POST /api/users, PUT/DELETE /api/users/{id},
 * GET/PUT /api/users/{id}/roles. Every write refetches the users list (and the user's roles where
 * they changed) and shows the spec's toast; mutations never retry (query-client defaults).
 */
import { useQuery, type QueryClient } from "@tanstack/react-query";
import { TOASTS } from "@contract/messages";
import type { RoleSummaryDto, UserCreate, UserDto, UserUpdate } from "@contract/users";
import type { ApiError } from "./client";
import { apiRequest } from "./client";
import { useApiMutation } from "./mutation";
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

const refetchUsers = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: USERS_QUERY_KEY, exact: true });
const userUrl = (id: string) => `/api/users/${encodeURIComponent(id)}`;

export const useCreateUser = () =>
  useApiMutation<UserDto, UserCreate>({
    request: (body) => apiRequest<UserDto>("POST", "/api/users", body),
    success: () => TOASTS.users.created,
    refresh: refetchUsers,
  });

export interface UserUpdateVariables {
  id: string;
  changes: UserUpdate;
}

/** The Edit User form's save (the toggle from the row menu is `useSetUserStatus`). */
export const useUpdateUser = () =>
  useApiMutation<UserDto, UserUpdateVariables>({
    request: ({ id, changes }) => apiRequest<UserDto>("PUT", userUrl(id), changes),
    success: () => TOASTS.users.updated,
    refresh: (queryClient, _user, { id }) => Promise.all([refetchUsers(queryClient), refreshSessionIfSelf(queryClient, id)]),
  });

/** Deactivate / Activate from the row menu: PUT with only `isActive` (spec section 7). */
export const useSetUserStatus = () =>
  useApiMutation<UserDto, { id: string; isActive: boolean }>({
    request: ({ id, isActive }) => apiRequest<UserDto>("PUT", userUrl(id), { isActive }),
    success: () => TOASTS.users.statusUpdated,
    refresh: (queryClient, _user, { id }) => Promise.all([refetchUsers(queryClient), refreshSessionIfSelf(queryClient, id)]),
  });

export const useDeleteUser = () =>
  useApiMutation<void, { id: string }>({
    request: ({ id }) => apiRequest<void>("DELETE", userUrl(id)),
    success: () => TOASTS.users.deleted,
    refresh: (queryClient, _nothing, { id }) => {
      queryClient.removeQueries({ queryKey: userRolesQueryKey(id) });
      return refetchUsers(queryClient);
    },
  });

export const useSetUserRoles = () =>
  useApiMutation<RoleSummaryDto[], { id: string; roleIds: string[] }>({
    request: ({ id, roleIds }) => apiRequest<RoleSummaryDto[]>("PUT", `${userUrl(id)}/roles`, { roleIds }),
    success: () => TOASTS.users.rolesUpdated,
    refresh: (queryClient, roles, { id }) => {
      queryClient.setQueryData(userRolesQueryKey(id), roles);
      return Promise.all([refetchUsers(queryClient), refreshSessionIfSelf(queryClient, id)]);
    },
  });
