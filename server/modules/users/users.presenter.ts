import type { SessionUser } from "../../../contract/auth";
import type { UserRow } from "../../db/schema";

/** The only way a user row leaves the server: an allow-list, so the password hash never can. */
export function toSessionUser(row: UserRow): SessionUser {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    profileImageUrl: row.profileImageUrl,
    isActive: row.isActive,
    lastLoginAt: row.lastLoginAt?.toISOString() ?? null,
  };
}
