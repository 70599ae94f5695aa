/**
 * Roles and the permission catalogue: GET /api/roles, GET /api/permissions, POST /api/roles,
 * PUT/DELETE /api/roles/{id}. A role's name and status show on every user's row, and its
 * permissions may be the signed-in user's own, so a role write refetches roles, users and the session.
 */
import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { RoleCreate, RoleDto, RoleUpdate } from "@contract/users";
import type { ApiError} from "./client";
import { apiRequest } from "./client";
import { toastFailure, toastSuccess } from "./mutation-toasts";
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

export function useCreateRole() {
  const queryClient = useQueryClient();
  return useMutation<RoleDto, ApiError, RoleCreate>({
    mutationFn: (body) => apiRequest<RoleDto>("POST", "/api/roles", body),
    onSuccess: async () => {
      toastSuccess("Role created successfully");
      await refetchAfterRoleChange(queryClient, { usersToo: false });
    },
    onError: toastFailure,
  });
}

export function useUpdateRole() {
  const queryClient = useQueryClient();
  return useMutation<RoleDto, ApiError, { id: string; changes: RoleUpdate }>({
    mutationFn: ({ id, changes }) => apiRequest<RoleDto>("PUT", `/api/roles/${encodeURIComponent(id)}`, changes),
    onSuccess: async () => {
      toastSuccess("Role updated successfully");
      await refetchAfterRoleChange(queryClient, { usersToo: true });
    },
    onError: toastFailure,
  });
}

export function useDeleteRole() {
  const queryClient = useQueryClient();
  return useMutation<void, ApiError, { id: string }>({
    mutationFn: ({ id }) => apiRequest<void>("DELETE", `/api/roles/${encodeURIComponent(id)}`),
    onSuccess: async () => {
      toastSuccess("Role deleted successfully");
      await refetchAfterRoleChange(queryClient, { usersToo: true });
    },
    onError: toastFailure,
  });
}
