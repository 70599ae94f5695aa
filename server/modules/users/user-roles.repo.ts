import { and, asc, eq, inArray, sql, type Column, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { permissions, rolePermissions, roles, userRoles, users, type RoleRow } from "../../db/schema";

/** What a user may do: the names of their active roles and the `resource.action` keys those roles grant. */
export interface Grants {
  roles: string[];
  permissions: string[];
}

/**
 * A user's grants as two array columns of one row (subqueries on `userId`, a column of the outer
 * query): the session lookup reads them with the session and the user in one round trip.
 */
export function grantColumns(db: Db, userId: Column): { roleNames: SQL<string[]>; permissionKeys: SQL<string[]> } {
  const activeRole = and(eq(roles.id, userRoles.roleId), eq(roles.isActive, true));
  const names = db.select({ name: roles.name }).from(userRoles).innerJoin(roles, activeRole).where(eq(userRoles.userId, userId));
  const keys = db
    .selectDistinct({ key: sql`${permissions.resource} || '.' || ${permissions.action}` })
    .from(userRoles)
    .innerJoin(roles, activeRole)
    .innerJoin(rolePermissions, eq(rolePermissions.roleId, roles.id))
    .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
    .where(eq(userRoles.userId, userId));
  return { roleNames: sql<string[]>`array(${names})`, permissionKeys: sql<string[]>`array(${keys})` };
}

/** Grants as the service hands them out: sorted (in JS, not by the database's collation). */
export const toGrants = (row: { roleNames: string[]; permissionKeys: string[] }): Grants => ({ roles: [...row.roleNames].sort(), permissions: [...row.permissionKeys].sort() });

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

    /** What the user may do (no user: nothing). */
    async grantsFor(userId: string): Promise<Grants> {
      const [row] = await db.select(grantColumns(db, users.id)).from(users).where(eq(users.id, userId));
      return row ? toGrants(row) : { roles: [], permissions: [] };
    },
  };
}
