import { ADMIN_ROLE } from "../../../contract/permissions";
import type { UserCreate, UserUpdate } from "../../../contract/users";
import { AppError } from "../../lib/app-error";
import { isUniqueViolation } from "../../db/errors";
import type { RoleRow, UserRow } from "../../db/schema";
import { hashPassword } from "../../lib/passwords";
import type { Repos, Transact } from "../../repos";
import type { Clock } from "../../lib/clock";
import type { AuditService } from "../audit/audit.service";
import type { EventBus } from "../../lib/event-bus";
import { createPrivilegeAudit, isAdmin, keysOf, lacking, PrivilegeDenied, type PrivilegedActor } from "./privileges";

export type UserWithRoles = Omit<UserRow, "passwordHash" | "updatedAt"> & { roles: RoleRow[] };
export type UsersService = ReturnType<typeof createUsersService>;

/** The acting user, plus their own session id so that changing one's own password keeps it. */
export type UserActor = PrivilegedActor & { sessionId: string | null };

const LAST_ADMIN = "At least one active administrator is required";

/** What the audit trail keeps of a user: no hash, no secret. */
const snapshot = (u: UserRow) => ({
  username: u.username,
  email: u.email,
  firstName: u.firstName,
  lastName: u.lastName,
  isActive: u.isActive,
});

export function createUsersService(deps: {
  repos: Repos;
  transact: Transact;
  audit: AuditService;
  clock: Clock;
  /** Told when a user's OAuth access ended or narrowed (deactivated, deleted, roles changed). */
  events: EventBus;
}) {
  const { repos, transact, audit } = deps;
  const auditDenials = createPrivilegeAudit(audit);

  /**
   * Issue 9: users.write is not a way into a stronger account. A non-administrator may not change
   * (password, roles, status, anything) or delete a user who holds a permission they lack.
   */
  async function assertMayManage(r: Repos, actor: UserActor, targetId: string, action: string): Promise<void> {
    if (isAdmin(actor)) return;
    const missing = lacking(actor, (await r.userRolesRepo.grantsFor(targetId)).permissions);
    if (missing.length > 0) {
      throw new PrivilegeDenied(`You cannot change a user who holds permissions you lack (${missing.join(", ")})`, {
        action,
        targetType: "user",
        targetId,
        details: { lacking: missing },
      });
    }
  }

  async function assertUnique(r: Repos, values: { username?: string | undefined; email?: string | null | undefined }, selfId?: string) {
    const fields: Record<string, string> = {};
    if (values.username) {
      const other = await r.usersRepo.findByUsername(values.username);
      if (other && other.id !== selfId) fields.username = "Username is already taken";
    }
    if (values.email) {
      const other = await r.usersRepo.findByEmail(values.email);
      if (other && other.id !== selfId) fields.email = "Email is already in use";
    }
    if (Object.keys(fields).length > 0) throw new AppError("conflict", Object.values(fields).join("; "), { fields });
  }

  /** Re-checks the lock-out rule inside a transaction that changed users or assignments. */
  async function assertAdminRemains(r: Repos) {
    if ((await r.rolesRepo.countActiveHolders(ADMIN_ROLE)) === 0) throw new AppError("conflict", LAST_ADMIN);
  }

  async function requireUser(r: Repos, id: string): Promise<UserRow> {
    const user = await r.usersRepo.findById(id);
    if (!user) throw new AppError("not_found", "User not found");
    return user;
  }

  const conflictFromDb = (err: unknown) =>
    isUniqueViolation(err)
      ? new AppError("conflict", "Username or email is already in use", { fields: { username: "Username or email is already in use" } })
      : err;

  return {
    async list(): Promise<UserWithRoles[]> {
      const [users, roles] = await Promise.all([repos.usersRepo.listWithRoleIds(), repos.rolesRepo.listRows()]);
      const byId = new Map(roles.map((r) => [r.id, r]));
      return users.map(({ roleIds, ...u }) => ({
        ...u,
        roles: roleIds
          .map((id) => byId.get(id))
          .filter((r): r is RoleRow => r !== undefined)
          .sort((a, b) => a.name.localeCompare(b.name)),
      }));
    },

    async get(id: string): Promise<UserWithRoles> {
      const user = await requireUser(repos, id);
      return { ...user, roles: (await repos.userRolesRepo.rolesByUser([id])).get(id) ?? [] };
    },

    async create(input: UserCreate, actor: UserActor): Promise<UserWithRoles> {
      const passwordHash = await hashPassword(input.password);
      try {
        return await transact(async (r) => {
          await assertUnique(r, input);
          const row = await r.usersRepo.insertIfUsernameFree({
            username: input.username,
            email: input.email,
            firstName: input.firstName ?? null,
            lastName: input.lastName ?? null,
            isActive: input.isActive,
            passwordHash,
          });
          if (!row) throw new AppError("conflict", "Username is already taken", { fields: { username: "Username is already taken" } });
          await audit.record(
            actor,
            { action: "user.created", targetType: "user", targetId: row.id, details: { after: snapshot(row) } },
            r.auditRepo,
          );
          return { ...row, roles: [] };
        });
      } catch (err) {
        throw conflictFromDb(err);
      }
    },

    /**
     * Any subset of fields. Deactivating ends the user's sessions; a new password ends their
     * other sessions (all of them when someone else changed it).
     */
    async update(id: string, input: UserUpdate, actor: UserActor): Promise<UserWithRoles> {
      const passwordHash = input.password ? await hashPassword(input.password) : undefined;
      try {
        const action = input.isActive !== undefined && Object.keys(input).length === 1 ? "user.status_changed" : "user.updated";
        const updated = await auditDenials(actor, () =>
          transact(async (r) => {
            const before = await requireUser(r, id);
            await assertMayManage(r, actor, id, action);
            await assertUnique(r, input, id);
            if (input.isActive === false) await r.rolesRepo.lockRole(ADMIN_ROLE);
            const after = (await r.usersRepo.update(id, {
              ...(input.username !== undefined ? { username: input.username } : {}),
              ...(input.email !== undefined ? { email: input.email } : {}),
              ...(input.firstName !== undefined ? { firstName: input.firstName } : {}),
              ...(input.lastName !== undefined ? { lastName: input.lastName } : {}),
              ...(input.isActive !== undefined ? { isActive: input.isActive } : {}),
              ...(passwordHash ? { passwordHash, passwordGenerated: false } : {}),
            }))!;
            let unlinked: string[] = [];
            if (before.isActive && !after.isActive) {
              await assertAdminRemains(r);
              await r.sessionsRepo.deleteForUser(id);
              // docs/decisions.md#inactive-users for MCP clients too: what the user consented to ends with the account.
              await r.oauthGrantsRepo.revokeGrantsOfUser(id, "user deactivated", deps.clock.now());
              // Issue 27 item 5: their linked upstream accounts go too (the tokens with them).
              unlinked = (await r.accountsRepo.deleteLinksOfUser(id)).map((link) => link.integration);
            }
            if (passwordHash) await r.sessionsRepo.deleteForUser(id, actor.userId === id ? (actor.sessionId ?? undefined) : undefined);
            await audit.record(
              actor,
              {
                action,
                targetType: "user",
                targetId: id,
                details: {
                  before: snapshot(before),
                  after: snapshot(after),
                  ...(passwordHash ? { passwordChanged: true } : {}),
                  ...(unlinked.length > 0 ? { unlinkedAccounts: unlinked } : {}),
                },
              },
              r.auditRepo,
            );
            return after;
          }),
        );
        if (input.isActive === false) deps.events.emit("user.access-changed", { userId: id, reason: "user deactivated" });
        return { ...updated, roles: (await repos.userRolesRepo.rolesByUser([id])).get(id) ?? [] };
      } catch (err) {
        throw conflictFromDb(err);
      }
    },

    async delete(id: string, actor: UserActor): Promise<void> {
      if (actor.userId === id) throw new AppError("conflict", "You cannot delete your own account");
      await auditDenials(actor, () =>
        transact(async (r) => {
          const before = await requireUser(r, id);
          await assertMayManage(r, actor, id, "user.deleted");
          await r.rolesRepo.lockRole(ADMIN_ROLE);
          await r.usersRepo.delete(id); // sessions and role assignments go with it (ON DELETE CASCADE)
          await assertAdminRemains(r);
          await audit.record(
            actor,
            { action: "user.deleted", targetType: "user", targetId: id, details: { before: snapshot(before) } },
            r.auditRepo,
          );
        }),
      );
      deps.events.emit("user.access-changed", { userId: id, reason: "user deleted" }); // their OAuth grants went with them (ON DELETE CASCADE)
    },

    async roles(id: string): Promise<RoleRow[]> {
      await requireUser(repos, id);
      return (await repos.userRolesRepo.rolesByUser([id])).get(id) ?? [];
    },

    async setRoles(id: string, roleIds: string[], actor: UserActor): Promise<RoleRow[]> {
      const wanted = [...new Set(roleIds)];
      let changedAccess = false;
      const after = await auditDenials(actor, () =>
        transact(async (r) => {
          await requireUser(r, id);
          await assertMayManage(r, actor, id, "user.roles_changed");
          const found = await r.rolesRepo.findByIds(wanted);
          const missing = wanted.filter((rid) => !found.some((f) => f.id === rid));
          if (missing.length > 0) {
            throw new AppError("validation_failed", `Unknown role: ${missing.join(", ")}`, {
              fields: { roleIds: `Unknown role: ${missing.join(", ")}` },
            });
          }
          await r.rolesRepo.lockRole(ADMIN_ROLE);
          const before = (await r.userRolesRepo.rolesByUser([id])).get(id) ?? [];
          // Only an administrator hands out admin, or any role carrying a permission the actor lacks.
          for (const role of found.filter((f) => !before.some((b) => b.id === f.id))) {
            const entry = { action: "user.roles_changed", targetType: "user", targetId: id, details: { role: role.name } };
            if (role.name === ADMIN_ROLE && !isAdmin(actor))
              throw new PrivilegeDenied("Only an administrator can assign the admin role", entry);
            const missing = lacking(actor, keysOf(role));
            if (missing.length > 0)
              throw new PrivilegeDenied(
                `You cannot assign the role ${role.name}: it carries permissions you lack (${missing.join(", ")})`,
                { ...entry, details: { ...entry.details, lacking: missing } },
              );
          }
          await r.userRolesRepo.setRoles(id, wanted);
          await assertAdminRemains(r);
          // Their MCP clients' access follows the new roles at once (narrowed or revoked).
          changedAccess = (await r.oauthGrantsRepo.reconcileWithPermissions(deps.clock.now())) > 0;
          const after = (await r.userRolesRepo.rolesByUser([id])).get(id) ?? [];
          await audit.record(
            actor,
            {
              action: "user.roles_changed",
              targetType: "user",
              targetId: id,
              details: { before: before.map((x) => x.name), after: after.map((x) => x.name) },
            },
            r.auditRepo,
          );
          return after;
        }),
      );
      if (changedAccess) deps.events.emit("user.access-changed", { userId: id, reason: "roles changed" });
      return after;
    },
  };
}
