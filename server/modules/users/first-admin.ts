import type { Logger } from "../../lib/logger";
import { hashPassword } from "../../lib/passwords";
import { randomToken } from "../../lib/tokens";
import { ADMIN_ROLE } from "../../../contract/permissions";
import type { RolesRepo } from "../roles/roles.repo";
import type { UserRolesRepo } from "./user-roles.repo";
import type { UsersRepo } from "./users.repo";

export const FIRST_ADMIN_USERNAME = "admin";

/**
 * docs/decisions.md#first-administrator: the first start on an empty database creates `admin`. Its password is ADMIN_PASSWORD, or
 * generated and printed once; it is never stored anywhere but as an argon2id hash. Safe when two
 * instances start together: the unique username lets only one insert win, and only the winner prints.
 * Needs the built-in roles in place (RolesService.syncBuiltins) to grant `admin`.
 */
export async function ensureFirstAdmin(deps: {
  usersRepo: UsersRepo;
  rolesRepo: RolesRepo;
  userRolesRepo: UserRolesRepo;
  log: Logger;
  adminPassword: string | undefined;
  /** The console's address (PUBLIC_URL), printed with the password. */
  openAt?: string;
  print: (text: string) => void;
}): Promise<void> {
  if ((await deps.usersRepo.count()) > 0) return;
  const password = deps.adminPassword ?? randomToken(18);
  const created = await deps.usersRepo.insertIfUsernameFree({
    username: FIRST_ADMIN_USERNAME,
    passwordHash: await hashPassword(password),
    // A generated password is to be changed: the Dashboard's Get started says so until it is.
    passwordGenerated: !deps.adminPassword,
    isActive: true,
  });
  if (!created) return;
  const adminRole = await deps.rolesRepo.findByName(ADMIN_ROLE);
  if (!adminRole) throw new Error("the built-in admin role is missing: sync the built-in roles first");
  await deps.userRolesRepo.addRole(created.id, adminRole.id);
  deps.log.info({ event: "first_admin_created", username: FIRST_ADMIN_USERNAME }, "created the first administrator");
  if (!deps.adminPassword) {
    deps.print(
      [
        "",
        "  ┌──────────────────────────────────────────────────────────────┐",
        "  │ Bridgekeeper: first administrator created                    │",
        `  │   username: ${FIRST_ADMIN_USERNAME.padEnd(49)}│`,
        `  │   password: ${password.padEnd(49)}│`,
        ...(deps.openAt ? [`  │   open:     ${deps.openAt.padEnd(49)}│`] : []),
        "  │ This password is shown once. Sign in and change it.          │",
        "  └──────────────────────────────────────────────────────────────┘",
        "",
      ].join("\n"),
    );
  }
}
