import { z } from "zod";
import { line, nfkc } from "./text";
import { LIMITS } from "./limits";

/** Spec section 5: username and password required. Bounds keep argon2 and the log safe. */
export const LoginSchema = z.object({
  // The same normal form as stored usernames (contract/users.ts), so the two always meet.
  username: nfkc(
    line({ error: "Username is required" })
      .trim()
      .min(1, "Username is required")
      .max(LIMITS.usernameMax, `Username must be at most ${LIMITS.usernameMax} characters`),
    { error: "Username is required" },
  ),
  password: line({ error: "Password is required" })
    .min(1, "Password is required")
    .max(LIMITS.passwordMax, `Password must be at most ${LIMITS.passwordMax} characters`),
});
export type Login = z.infer<typeof LoginSchema>;

/** What `GET /api/session` and `POST /api/login` return about the signed-in user. */
export interface SessionUser {
  id: string;
  username: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
  isActive: boolean;
  lastLoginAt: string | null;
  /** Names of the user's active roles. */
  roles: string[];
  /** `resource.action` keys the user holds (contract/permissions.ts): the console hides what is not allowed. */
  permissions: string[];
}

export interface SessionResponse {
  user: SessionUser;
}

/** Login failure text the console falls back to when the server sends no message (spec section 5). */
export const LOGIN_FAILED_MESSAGE = "Invalid credentials";
