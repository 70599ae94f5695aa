import { z } from "zod";
import { hasBidiControls, line, multiline, nfkc, TEXT_MESSAGES } from "./text";
import { LIMITS } from "./limits";

/** Spec section 5 messages, word for word. */
export const USER_MESSAGES = {
  email: "Please enter a valid email address",
  username: `Username must be at least ${LIMITS.usernameMin} characters`,
  password: `Password must be at least ${LIMITS.passwordMin} characters`,
  passwordsMismatch: "Passwords don't match",
} as const;

const email = line({ error: USER_MESSAGES.email })
  .trim()
  .max(254, "Email must be at most 254 characters")
  .pipe(z.email(USER_MESSAGES.email));
/** NFKC-normalised, one line, no spaces, no bidirectional controls (issue 9). */
export const username = nfkc(
  line({ error: USER_MESSAGES.username })
    .trim()
    .min(LIMITS.usernameMin, USER_MESSAGES.username)
    .max(LIMITS.usernameMax, `Username must be at most ${LIMITS.usernameMax} characters`)
    .regex(/^[^\s]+$/, "Username cannot contain spaces")
    .refine((v) => !hasBidiControls(v), TEXT_MESSAGES.bidi),
  { error: USER_MESSAGES.username },
);
const password = line({ error: USER_MESSAGES.password })
  .min(LIMITS.passwordMin, USER_MESSAGES.password)
  .max(LIMITS.passwordMax, `Password must be at most ${LIMITS.passwordMax} characters`);
const name = line()
  .trim()
  .max(100, "Must be at most 100 characters")
  .transform((v) => (v === "" ? null : v))
  .nullish();

/** POST /api/users (no confirmPassword: the form checks that). */
export const UserCreateSchema = z.object({
  email,
  username,
  password,
  firstName: name,
  lastName: name,
  isActive: z.boolean().default(true),
});
export type UserCreate = z.infer<typeof UserCreateSchema>;

/** PUT /api/users/{id}: any subset, e.g. only `isActive` to toggle; an empty password is omitted. */
export const UserUpdateSchema = z.object({
  email: email.optional(),
  username: username.optional(),
  firstName: name,
  lastName: name,
  isActive: z.boolean().optional(),
  password: z.preprocess((v) => (v === "" || v === null ? undefined : v), password.optional()),
});
export type UserUpdate = z.infer<typeof UserUpdateSchema>;

/** The console's create form: the server schema plus the confirmation (spec section 5). */
export const UserCreateFormSchema = UserCreateSchema.extend({
  confirmPassword: z.string(),
  isActive: z.boolean(),
}).refine((v) => v.password === v.confirmPassword, { message: USER_MESSAGES.passwordsMismatch, path: ["confirmPassword"] });

/** The console's edit form: password optional, but both or neither, and matching. */
export const UserEditFormSchema = z
  .object({
    email,
    username,
    firstName: name,
    lastName: name,
    isActive: z.boolean(),
    password: z.union([z.literal(""), password]),
    confirmPassword: z.string(),
  })
  .refine((v) => v.password === v.confirmPassword, { message: USER_MESSAGES.passwordsMismatch, path: ["confirmPassword"] });

export const UserRolesUpdateSchema = z.object({
  roleIds: z.array(z.uuid("Unknown role"), { error: "roleIds must be a list of role ids" }).max(100),
});

export interface PermissionDto {
  id: string;
  resource: string;
  action: string;
}

export interface RoleSummaryDto {
  id: string;
  name: string;
  description: string | null;
  isActive: boolean;
}

export interface RoleDto extends RoleSummaryDto {
  isBuiltin: boolean;
  permissions: PermissionDto[];
  createdAt: string;
}

export interface UserDto {
  id: string;
  email: string | null;
  username: string;
  firstName: string | null;
  lastName: string | null;
  isActive: boolean;
  profileImageUrl: string | null;
  lastLoginAt: string | null;
  createdAt: string;
  roles: RoleSummaryDto[];
}

const roleName = line({ error: "Name is required" })
  .trim()
  .min(1, "Name is required")
  .max(64, "Name must be at most 64 characters")
  .regex(/^[A-Za-z0-9][A-Za-z0-9 _.-]*$/, "Use letters, digits, spaces, dots, dashes and underscores");

export const RoleCreateSchema = z.object({
  name: roleName,
  description: multiline().trim().max(500, "Description must be at most 500 characters").nullish(),
  isActive: z.boolean().default(true),
  permissions: z.array(line().max(100), { error: "permissions must be a list" }).max(200).default([]),
});
export type RoleCreate = z.infer<typeof RoleCreateSchema>;

export const RoleUpdateSchema = RoleCreateSchema.partial();
export type RoleUpdate = z.infer<typeof RoleUpdateSchema>;
