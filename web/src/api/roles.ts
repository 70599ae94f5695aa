/**
 * Roles and the permission catalogue: GET /api/roles, GET /api/permissions, POST /api/roles,
 * PUT/DELETE /api/roles/{id}. A role's name and status show on every user's row, and its
 * permissions may be the signed-in user's own, so a role write refetches roles, users and the session.
 */
import { useQuery, type QueryClient } from "@tanstack/react-query";
import { TOASTS } from "@contract/messages";
import type { RoleCreate, RoleDto, RoleUpdate } from "@contract/users";
import type { ApiError } from "./client";
import { apiRequest } from "./client";
import { useApiMutation } from "./mutation";
import { SESSION_QUERY_KEY } from "./session";
import { USERS_QUERY_KEY } from "./users";

export const ROLES_QUERY_KEY = ["/api/roles"] as const;
export const PERMISSIONS_QUERY_KEY = ["/api/permissions"] as const;

/** One entry of the catalogue the roles editor chooses from. */
export interface PermissionCatalogueEntry {
  id: string;
  resource: string;
  action: string;
  description: string | null;
}

export function useRoles(enabled = true) {
  return useQuery<RoleDto[] | null, ApiError>({ queryKey: ROLES_QUERY_KEY, enabled });
}

export function usePermissionCatalogue(enabled = true) {
  return useQuery<PermissionCatalogueEntry[] | null, ApiError>({ queryKey: PERMISSIONS_QUERY_KEY, enabled });
}

function refetchAfterRoleChange(queryClient: QueryClient, { usersToo }: { usersToo: boolean }): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: ROLES_QUERY_KEY, exact: true }),
    // A user's roles list (Manage Roles) and the users table carry role names and status.
    usersToo ? queryClient.invalidateQueries({ queryKey: USERS_QUERY_KEY }) : undefined,
    usersToo ? queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY }) : undefined,
  ]);
}

const roleUrl = (id: string) => `/api/roles/${encodeURIComponent(id)}`;

export const useCreateRole = () =>
  useApiMutation<RoleDto, RoleCreate>({
    request: (body) => apiRequest<RoleDto>("POST", "/api/roles", body),
    success: () => TOASTS.roles.created,
    refresh: (queryClient) => refetchAfterRoleChange(queryClient, { usersToo: false }),
  });

export const useUpdateRole = () =>
  useApiMutation<RoleDto, { id: string; changes: RoleUpdate }>({
    request: ({ id, changes }) => apiRequest<RoleDto>("PUT", roleUrl(id), changes),
    success: () => TOASTS.roles.updated,
    refresh: (queryClient) => refetchAfterRoleChange(queryClient, { usersToo: true }),
  });

export const useDeleteRole = () =>
  useApiMutation<void, { id: string }>({
    request: ({ id }) => apiRequest<void>("DELETE", roleUrl(id)),
    success: () => TOASTS.roles.deleted,
    refresh: (queryClient) => refetchAfterRoleChange(queryClient, { usersToo: true }),
  });
