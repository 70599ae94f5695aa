import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { permissions, rolePermissions, roles, userRoles, users, type PermissionRow, type RoleRow } from "../../db/schema";

export type RoleWithPermissions = RoleRow & { permissions: PermissionRow[] };
export type RolesRepo = ReturnType<typeof createRolesRepo>;

export function createRolesRepo(db: Db) {
  async function withPermissions(rows: RoleRow[]): Promise<RoleWithPermissions[]> {
    if (rows.length === 0) return [];
    const links = await db
      .select({ roleId: rolePermissions.roleId, permission: permissions })
      .from(rolePermissions)
      .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
      .where(
        inArray(
          rolePermissions.roleId,
          rows.map((r) => r.id),
        ),
      )
      .orderBy(asc(permissions.resource), asc(permissions.action));
    const byRole = new Map<string, PermissionRow[]>();
    for (const { roleId, permission } of links) byRole.set(roleId, [...(byRole.get(roleId) ?? []), permission]);
    return rows.map((r) => ({ ...r, permissions: byRole.get(r.id) ?? [] }));
  }

  return {
    async list(): Promise<RoleWithPermissions[]> {
      return withPermissions(
        await db
          .select()
          .from(roles)
          .orderBy(sql`${roles.isBuiltin} desc`, asc(roles.name)),
      );
    },

    /** Roles without their permissions: what user lists need. */
    async listRows(): Promise<RoleRow[]> {
      return db.select().from(roles);
    },

    async findById(id: string): Promise<RoleWithPermissions | undefined> {
      const rows = await db.select().from(roles).where(eq(roles.id, id)).limit(1);
      return (await withPermissions(rows))[0];
    },

    async findByName(name: string): Promise<RoleRow | undefined> {
      const [row] = await db
        .select()
        .from(roles)
        .where(sql`lower(${roles.name}) = lower(${name})`)
        .limit(1);
      return row;
    },

    async findByIds(ids: string[]): Promise<RoleWithPermissions[]> {
      if (ids.length === 0) return [];
      return withPermissions(await db.select().from(roles).where(inArray(roles.id, ids)));
    },

    async insert(values: typeof roles.$inferInsert): Promise<RoleRow> {
      const [row] = await db.insert(roles).values(values).returning();
      return row!;
    },

    async update(id: string, values: Partial<typeof roles.$inferInsert>): Promise<void> {
      await db
        .update(roles)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(roles.id, id));
    },

    async delete(id: string): Promise<void> {
      await db.delete(roles).where(eq(roles.id, id));
    },

    async setPermissions(roleId: string, permissionIds: string[]): Promise<void> {
      await db.delete(rolePermissions).where(eq(rolePermissions.roleId, roleId));
      if (permissionIds.length > 0) {
        await db.insert(rolePermissions).values(permissionIds.map((permissionId) => ({ roleId, permissionId })));
      }
    },

    async listPermissions(): Promise<PermissionRow[]> {
      return db.select().from(permissions).orderBy(asc(permissions.resource), asc(permissions.action));
    },

    /** Adds the catalogue's pairs that are missing; returns every stored permission. */
    async ensurePermissions(pairs: readonly { resource: string; action: string }[]): Promise<PermissionRow[]> {
      if (pairs.length > 0) {
        await db
          .insert(permissions)
          .values(pairs.map(({ resource, action }) => ({ resource, action })))
          .onConflictDoNothing();
      }
      return db.select().from(permissions);
    },

    /** Serialises changes that could remove the last administrator (no-op lock on PGlite's single connection). */
    async lockRole(name: string): Promise<void> {
      await db.execute(sql`select id from ${roles} where lower(${roles.name}) = lower(${name}) for update`);
    },

    async countActiveHolders(roleName: string): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(distinct ${users.id})::int` })
        .from(userRoles)
        .innerJoin(roles, eq(roles.id, userRoles.roleId))
        .innerJoin(users, eq(users.id, userRoles.userId))
        .where(and(sql`lower(${roles.name}) = lower(${roleName})`, eq(roles.isActive, true), eq(users.isActive, true)));
      return row?.n ?? 0;
    },
  };
}
