import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import { permissions, rolePermissions, roles, userRoles, type RoleRow } from "../../db/schema";

export type UserRolesRepo = ReturnType<typeof createUserRolesRepo>;

export function createUserRolesRepo(db: Db) {
  return {
    /** Roles of each given user (all users when `userIds` is undefined), by user id. */
    async rolesByUser(userIds?: string[]): Promise<Map<string, RoleRow[]>> {
      if (userIds && userIds.length === 0) return new Map();
      const rows = await db
        .select({ userId: userRoles.userId, role: roles })
        .from(userRoles)
        .innerJoin(roles, eq(roles.id, userRoles.roleId))
        .where(userIds ? inArray(userRoles.userId, userIds) : undefined)
        .orderBy(asc(roles.name));
      const map = new Map<string, RoleRow[]>();
      for (const { userId, role } of rows) {
        const list = map.get(userId);
        if (list) list.push(role);
        else map.set(userId, [role]);
      }
      return map;
    },

    async setRoles(userId: string, roleIds: string[]): Promise<void> {
      await db.delete(userRoles).where(eq(userRoles.userId, userId));
      if (roleIds.length > 0) await db.insert(userRoles).values(roleIds.map((roleId) => ({ userId, roleId })));
    },

    async addRole(userId: string, roleId: string): Promise<void> {
      await db.insert(userRoles).values({ userId, roleId }).onConflictDoNothing();
    },

    /** What the user may do: the permissions of their active roles, and those roles' names. */
    async grantsFor(userId: string): Promise<{ roles: string[]; permissions: string[] }> {
      const rows = await db
        .select({ role: roles.name, resource: permissions.resource, action: permissions.action })
        .from(userRoles)
        .innerJoin(roles, and(eq(roles.id, userRoles.roleId), eq(roles.isActive, true)))
        .leftJoin(rolePermissions, eq(rolePermissions.roleId, roles.id))
        .leftJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
        .where(eq(userRoles.userId, userId));
      const roleNames = new Set<string>();
      const keys = new Set<string>();
      for (const r of rows) {
        roleNames.add(r.role);
        if (r.resource && r.action) keys.add(`${r.resource}.${r.action}`);
      }
      return { roles: [...roleNames].sort(), permissions: [...keys].sort() };
    },
  };
}
