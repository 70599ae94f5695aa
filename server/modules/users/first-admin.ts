import type { Logger } from "../../lib/logger";
import { hashPassword } from "../../lib/passwords";
import { randomToken } from "../../lib/tokens";
import type { UsersRepo } from "./users.repo";

export const FIRST_ADMIN_USERNAME = "admin";

/**
 * D2: the first start on an empty database creates `admin`. Its password is ADMIN_PASSWORD, or
 * generated and printed once; it is never stored anywhere but as an argon2id hash. Safe when two
 * instances start together: the unique username lets only one insert win, and only the winner prints.
 */
export async function ensureFirstAdmin(deps: {
  usersRepo: UsersRepo;
  log: Logger;
  adminPassword: string | undefined;
  print: (text: string) => void;
}): Promise<void> {
  if ((await deps.usersRepo.count()) > 0) return;
  const password = deps.adminPassword ?? randomToken(18);
  const created = await deps.usersRepo.insertIfUsernameFree({
    username: FIRST_ADMIN_USERNAME,
    passwordHash: await hashPassword(password),
    isActive: true,
  });
  if (!created) return;
  deps.log.info({ event: "first_admin_created", username: FIRST_ADMIN_USERNAME }, "created the first administrator");
  if (!deps.adminPassword) {
    deps.print(
      [
        "",
        "  ┌──────────────────────────────────────────────────────────────┐",
        "  │ Bridgekeeper: first administrator created                    │",
        `  │   username: ${FIRST_ADMIN_USERNAME.padEnd(49)}│`,
        `  │   password: ${password.padEnd(49)}│`,
        "  │ This password is shown once. Sign in and change it.          │",
        "  └──────────────────────────────────────────────────────────────┘",
        "",
      ].join("\n"),
    );
  }
}
