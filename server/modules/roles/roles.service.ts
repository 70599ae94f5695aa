import { BUILTIN_ROLES, PERMISSION_CATALOGUE, permissionKey } from "../../../contract/permissions";
import type { RoleCreate, RoleUpdate } from "../../../contract/users";
import { AppError } from "../../lib/app-error";
import type { Repos, Transact } from "../../repos";
import type { Clock } from "../../lib/clock";
import type { AuditService } from "../audit/audit.service";
import type { EventBus } from "../../lib/event-bus";
import { createPrivilegeAudit, isAdmin, keysOf, lacking, PrivilegeDenied, type PrivilegedActor } from "../users/privileges";
import type { RoleWithPermissions } from "./roles.repo";
import { isUniqueViolation } from "../../db/errors";

export type RolesService = ReturnType<typeof createRolesService>;

const snapshot = (r: RoleWithPermissions) => ({
  name: r.name,
  description: r.description,
  isActive: r.isActive,
  permissions: r.permissions.map(permissionKey),
});

export function createRolesService(deps: {
  repos: Repos;
  transact: Transact;
  audit: AuditService;
  clock: Clock;
  /** Told when a change to roles narrowed or revoked OAuth grants. */
  events: EventBus;
}) {
  const { repos, transact, audit } = deps;

  /** Permission keys to ids; an unknown key is a 400 naming it. */
  async function permissionIds(keys: string[], r: Repos): Promise<string[]> {
    const all = await r.rolesRepo.listPermissions();
    const byKey = new Map(all.map((p) => [permissionKey(p), p.id]));
    const unknown = keys.filter((k) => !byKey.has(k));
    if (unknown.length > 0) {
      throw new AppError("validation_failed", `Unknown permission: ${unknown.join(", ")}`, {
        fields: { permissions: `Unknown permission: ${unknown.join(", ")}` },
      });
    }
    return [...new Set(keys)].map((k) => byKey.get(k)!);
  }

  const auditDenials = createPrivilegeAudit(audit);

  /**
   * Runs a change to roles in one transaction, then makes MCP clients' access follow the new
   * permissions (issue 9): grants are narrowed or revoked in the same transaction, and cached
   * token checks are dropped once it committed.
   */
  async function changeRoles<T>(work: (r: Repos) => Promise<T>): Promise<T> {
    let reconciled = 0;
    const result = await transact(async (r) => {
      const value = await work(r);
      reconciled = await r.oauthGrantsRepo.reconcileWithPermissions(deps.clock.now());
      return value;
    });
    if (reconciled > 0) deps.events.emit("user.access-changed", { userId: null, reason: "role permissions changed" });
    return result;
  }

  /**
   * Issue 9: roles.write is not a way up. A non-administrator grants only permissions they hold,
   * and changes or deletes only roles they do not hold whose permissions they hold too.
   */
  async function assertMayChange(
    actor: PrivilegedActor,
    role: RoleWithPermissions,
    action: string,
    r: Repos,
    wanted: string[] = [],
  ): Promise<void> {
    if (isAdmin(actor)) return;
    const entry = { action, targetType: "role", targetId: role.id };
    const held = actor.userId ? ((await r.userRolesRepo.rolesByUser([actor.userId])).get(actor.userId) ?? []) : [];
    if (held.some((h) => h.id === role.id)) throw new PrivilegeDenied(`You cannot change the role ${role.name}: you hold it`, entry);
    const missing = lacking(actor, [...keysOf(role), ...wanted]);
    if (missing.length > 0)
      throw new PrivilegeDenied(`You can only manage roles whose permissions you hold; you lack ${missing.join(", ")}`, {
        ...entry,
        details: { lacking: missing },
      });
  }

  const nameTaken = () =>
    new AppError("conflict", "A role with this name already exists", { fields: { name: "A role with this name already exists" } });

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
      await changeRoles(async (r) => {
        const stored = await r.rolesRepo.ensurePermissions(PERMISSION_CATALOGUE);
        const idByKey = new Map(stored.map((p) => [permissionKey(p), p.id]));
        for (const [name, def] of Object.entries(BUILTIN_ROLES)) {
          const role =
            (await r.rolesRepo.findByName(name)) ??
            (await r.rolesRepo.insert({ name, description: def.description, isBuiltin: true, isActive: true }));
          await r.rolesRepo.update(role.id, { description: def.description, isBuiltin: true, isActive: true });
          await r.rolesRepo.setPermissions(
            role.id,
            def.permissions.map((k) => idByKey.get(k)!),
          );
        }
      });
    },

    async create(input: RoleCreate, actor: PrivilegedActor): Promise<RoleWithPermissions> {
      try {
        return await auditDenials(actor, () =>
          transact(async (r) => {
            const missing = lacking(actor, input.permissions);
            if (missing.length > 0)
              throw new PrivilegeDenied(`You can only grant permissions you hold; you lack ${missing.join(", ")}`, {
                action: "role.created",
                targetType: "role",
                targetId: input.name,
                details: { lacking: missing },
              });
            if (await r.rolesRepo.findByName(input.name)) throw nameTaken();
            const row = await r.rolesRepo.insert({
              name: input.name,
              description: input.description ?? null,
              isActive: input.isActive,
              isBuiltin: false,
            });
            await r.rolesRepo.setPermissions(row.id, await permissionIds(input.permissions, r));
            const created = (await r.rolesRepo.findById(row.id))!;
            await audit.record(
              actor,
              { action: "role.created", targetType: "role", targetId: row.id, details: { after: snapshot(created) } },
              r.auditRepo,
            );
            return created;
          }),
        );
      } catch (err) {
        throw isUniqueViolation(err) ? nameTaken() : err;
      }
    },

    async update(id: string, input: RoleUpdate, actor: PrivilegedActor): Promise<RoleWithPermissions> {
      try {
        return await auditDenials(actor, () =>
          changeRoles(async (r) => {
            const before = await requireCustom(id, r);
            await assertMayChange(actor, before, "role.updated", r, input.permissions ?? []);
            if (input.name && input.name.toLowerCase() !== before.name.toLowerCase() && (await r.rolesRepo.findByName(input.name)))
              throw nameTaken();
            await r.rolesRepo.update(id, {
              ...(input.name !== undefined ? { name: input.name } : {}),
              ...(input.description !== undefined ? { description: input.description } : {}),
              ...(input.isActive !== undefined ? { isActive: input.isActive } : {}),
            });
            if (input.permissions !== undefined) await r.rolesRepo.setPermissions(id, await permissionIds(input.permissions, r));
            const after = (await r.rolesRepo.findById(id))!;
            await audit.record(
              actor,
              { action: "role.updated", targetType: "role", targetId: id, details: { before: snapshot(before), after: snapshot(after) } },
              r.auditRepo,
            );
            return after;
          }),
        );
      } catch (err) {
        throw isUniqueViolation(err) ? nameTaken() : err;
      }
    },

    async delete(id: string, actor: PrivilegedActor): Promise<void> {
      await auditDenials(actor, () =>
        changeRoles(async (r) => {
          const before = await requireCustom(id, r);
          await assertMayChange(actor, before, "role.deleted", r);
          await r.rolesRepo.delete(id);
          await audit.record(
            actor,
            { action: "role.deleted", targetType: "role", targetId: id, details: { before: snapshot(before) } },
            r.auditRepo,
          );
        }),
      );
    },
  };
}
