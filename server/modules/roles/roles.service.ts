import { BUILTIN_ROLES, PERMISSION_CATALOGUE, permissionKey } from "../../../contract/permissions";
import type { RoleCreate, RoleUpdate } from "../../../contract/users";
import { AppError } from "../../lib/app-error";
import type { Repos, Transact } from "../../repos";
import type { Actor, AuditService } from "../audit/audit.service";
import type { RoleWithPermissions } from "./roles.repo";
import { isUniqueViolation } from "../../db/errors";

export type RolesService = ReturnType<typeof createRolesService>;

const snapshot = (r: RoleWithPermissions) => ({
  name: r.name,
  description: r.description,
  isActive: r.isActive,
  permissions: r.permissions.map(permissionKey),
});

export function createRolesService(deps: { repos: Repos; transact: Transact; audit: AuditService }) {
  const { repos, transact, audit } = deps;

  /** Permission keys to ids; an unknown key is a 400 naming it. */
  async function permissionIds(keys: string[], r: Repos): Promise<string[]> {
    const all = await r.rolesRepo.listPermissions();
    const byKey = new Map(all.map((p) => [permissionKey(p), p.id]));
    const unknown = keys.filter((k) => !byKey.has(k));
    if (unknown.length > 0) {
      throw new AppError("validation_failed", `Unknown permission: ${unknown.join(", ")}`, { fields: { permissions: `Unknown permission: ${unknown.join(", ")}` } });
    }
    return [...new Set(keys)].map((k) => byKey.get(k)!);
  }

  const nameTaken = () => new AppError("conflict", "A role with this name already exists", { fields: { name: "A role with this name already exists" } });

  async function requireCustom(id: string, r: Repos): Promise<RoleWithPermissions> {
    const role = await r.rolesRepo.findById(id);
    if (!role) throw new AppError("not_found", "Role not found");
    if (role.isBuiltin) throw new AppError("conflict", `The built-in role ${role.name} cannot be changed or deleted`);
    return role;
  }

  return {
    list: () => repos.rolesRepo.list(),
    catalogue: () => repos.rolesRepo.listPermissions(),

    /**
     * At every start: the catalogue's permissions exist, and the built-in roles exist with exactly
     * their permissions (so a new permission reaches admin without a manual step).
     */
    async syncBuiltins(): Promise<void> {
      await transact(async (r) => {
        const stored = await r.rolesRepo.ensurePermissions(PERMISSION_CATALOGUE);
        const idByKey = new Map(stored.map((p) => [permissionKey(p), p.id]));
        for (const [name, def] of Object.entries(BUILTIN_ROLES)) {
          const role =
            (await r.rolesRepo.findByName(name)) ??
            (await r.rolesRepo.insert({ name, description: def.description, isBuiltin: true, isActive: true }));
          await r.rolesRepo.update(role.id, { description: def.description, isBuiltin: true, isActive: true });
          await r.rolesRepo.setPermissions(role.id, def.permissions.map((k) => idByKey.get(k)!));
        }
      });
    },

    async create(input: RoleCreate, actor: Actor): Promise<RoleWithPermissions> {
      try {
        return await transact(async (r) => {
          if (await r.rolesRepo.findByName(input.name)) throw nameTaken();
          const row = await r.rolesRepo.insert({ name: input.name, description: input.description ?? null, isActive: input.isActive, isBuiltin: false });
          await r.rolesRepo.setPermissions(row.id, await permissionIds(input.permissions, r));
          const created = (await r.rolesRepo.findById(row.id))!;
          await audit.record(actor, { action: "role.created", targetType: "role", targetId: row.id, details: { after: snapshot(created) } }, r.auditRepo);
          return created;
        });
      } catch (err) {
        throw isUniqueViolation(err) ? nameTaken() : err;
      }
    },

    async update(id: string, input: RoleUpdate, actor: Actor): Promise<RoleWithPermissions> {
      try {
        return await transact(async (r) => {
          const before = await requireCustom(id, r);
          if (input.name && input.name.toLowerCase() !== before.name.toLowerCase() && (await r.rolesRepo.findByName(input.name))) throw nameTaken();
          await r.rolesRepo.update(id, {
            ...(input.name !== undefined ? { name: input.name } : {}),
            ...(input.description !== undefined ? { description: input.description } : {}),
            ...(input.isActive !== undefined ? { isActive: input.isActive } : {}),
          });
          if (input.permissions !== undefined) await r.rolesRepo.setPermissions(id, await permissionIds(input.permissions, r));
          const after = (await r.rolesRepo.findById(id))!;
          await audit.record(actor, { action: "role.updated", targetType: "role", targetId: id, details: { before: snapshot(before), after: snapshot(after) } }, r.auditRepo);
          return after;
        });
      } catch (err) {
        throw isUniqueViolation(err) ? nameTaken() : err;
      }
    },

    async delete(id: string, actor: Actor): Promise<void> {
      await transact(async (r) => {
        const before = await requireCustom(id, r);
        await r.rolesRepo.delete(id);
        await audit.record(actor, { action: "role.deleted", targetType: "role", targetId: id, details: { before: snapshot(before) } }, r.auditRepo);
      });
    },
  };
}
