import type { SessionUser } from "../../../contract/auth";
import type { RoleDto, RoleSummaryDto, UserDto } from "../../../contract/users";
import type { RoleRow, UserRow } from "../../db/schema";
import type { RoleWithPermissions } from "../roles/roles.repo";

// The only ways user and role rows leave the server: allow-lists, so a password hash never can.

export function toSessionUser(row: UserRow, grants: { roles: string[]; permissions: string[] }): SessionUser {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    profileImageUrl: row.profileImageUrl,
    isActive: row.isActive,
    lastLoginAt: row.lastLoginAt?.toISOString() ?? null,
    roles: grants.roles,
    permissions: grants.permissions,
  };
}

export const toRoleSummary = (r: RoleRow): RoleSummaryDto => ({ id: r.id, name: r.name, description: r.description, isActive: r.isActive });

export const toRoleDto = (r: RoleWithPermissions): RoleDto => ({
  ...toRoleSummary(r),
  isBuiltin: r.isBuiltin,
  createdAt: r.createdAt.toISOString(),
  permissions: r.permissions.map((p) => ({ id: p.id, resource: p.resource, action: p.action })),
});

export const toUserDto = (u: Omit<UserRow, "passwordHash" | "updatedAt"> & { roles: RoleRow[] }): UserDto => ({
  id: u.id,
  email: u.email,
  username: u.username,
  firstName: u.firstName,
  lastName: u.lastName,
  isActive: u.isActive,
  profileImageUrl: u.profileImageUrl,
  lastLoginAt: u.lastLoginAt?.toISOString() ?? null,
  createdAt: u.createdAt.toISOString(),
  roles: u.roles.map(toRoleSummary),
});
