import { and, asc, eq, inArray, sql, type Column } from "drizzle-orm";
import type { Db } from "../../db/client";
import { permissions, rolePermissions, roles, userRoles, users, type RoleRow } from "../../db/schema";

/** What a user may do: the names of their active roles and the `resource.action` keys those roles grant. */
export interface Grants {
  roles: string[];
  permissions: string[];
}

/**
 * A user's grants as one row of two arrays, for a lateral join on `userId` (a column of the outer
 * query): the session lookup reads them with the session and the user in one round trip.
 */
export function grantsOf(db: Db, userId: Column) {
  return db
    .select({
      roleNames: sql<string[]>`coalesce(array_agg(distinct ${roles.name}), '{}')`.as("role_names"),
      permissionKeys: sql<
        string[]
      >`coalesce(array_remove(array_agg(distinct ${permissions.resource} || '.' || ${permissions.action}), null), '{}')`.as(
        "permission_keys",
      ),
    })
    .from(userRoles)
    .innerJoin(roles, and(eq(roles.id, userRoles.roleId), eq(roles.isActive, true)))
    .leftJoin(rolePermissions, eq(rolePermissions.roleId, roles.id))
    .leftJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
    .where(eq(userRoles.userId, userId))
    .as("grants");
}

/** Grants as the service hands them out: sorted (in JS, not by the database's collation). */
export const toGrants = (row: { roleNames: string[]; permissionKeys: string[] }): Grants => ({
  roles: [...row.roleNames].sort(),
  permissions: [...row.permissionKeys].sort(),
});

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
      const grants = grantsOf(db, users.id);
      const [row] = await db
        .select({ roleNames: grants.roleNames, permissionKeys: grants.permissionKeys })
        .from(users)
        .leftJoinLateral(grants, sql`true`)
        .where(eq(users.id, userId));
      return row ? toGrants(row) : { roles: [], permissions: [] };
    },
  };
}
