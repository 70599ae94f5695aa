import { ADMIN_ROLE, permissionKey } from "../../../contract/permissions";
import { AppError } from "../../lib/app-error";
import type { Actor, AuditService } from "../audit/audit.service";

/** What the acting user holds, read from their active roles for this request. */
export interface Privileges {
  permissions: ReadonlySet<string>;
  roles: readonly string[];
}

/** The acting user of a change to users or roles: who, from where, and what they hold. */
export type PrivilegedActor = Actor & { privileges: Privileges };

export const isAdmin = (actor: PrivilegedActor): boolean => actor.privileges.roles.includes(ADMIN_ROLE);

/** The permissions among `keys` the actor does not hold (none, for an administrator). */
export function lacking(actor: PrivilegedActor, keys: Iterable<string>): string[] {
  if (isAdmin(actor)) return [];
  return [...new Set(keys)].filter((k) => !actor.privileges.permissions.has(k)).sort();
}

export const keysOf = (role: { permissions: { resource: string; action: string }[] }): string[] => role.permissions.map(permissionKey);

/** A refusal for lack of privileges, carrying what the audit trail should keep of it. */
export class PrivilegeDenied extends AppError {
  constructor(
    message: string,
    readonly entry: { action: string; targetType: string; targetId: string; details?: Record<string, unknown> },
  ) {
    super("forbidden", message);
  }
}

/**
 * No escalation through users and roles (issue 9): nobody hands on, or takes over, more than they
 * hold. Checks throw PrivilegeDenied inside the change's transaction, so nothing is written; this
 * records the refusal once the transaction is over (outcome "failure") and passes the 403 on.
 */
export function createPrivilegeAudit(audit: AuditService) {
  return async function auditDenials<T>(actor: Actor, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (err instanceof PrivilegeDenied) {
        await audit.record(actor, {
          ...err.entry,
          outcome: "failure",
          details: { reason: "insufficient_privileges", message: err.message, ...err.entry.details },
        });
      }
      throw err;
    }
  };
}
