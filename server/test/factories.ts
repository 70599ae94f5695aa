import { randomBytes } from "node:crypto";
import type { Container } from "../container";
import type { NewUserRow, UserRow } from "../db/schema";
import { hashPassword } from "../lib/passwords";
import type { TestClient } from "./http-client";

export interface BuiltUser {
  row: UserRow;
  password: string;
}

/** A stored user with a known password; every field can be overridden. */
export async function buildUser(
  container: Container,
  overrides: Partial<Omit<NewUserRow, "passwordHash">> & { password?: string } = {},
): Promise<BuiltUser> {
  const suffix = randomBytes(4).toString("hex");
  const { password = `pw-${suffix}-secret`, ...rest } = overrides;
  const row = await container.repos.usersRepo.insertIfUsernameFree({
    username: `user_${suffix}`,
    email: `user_${suffix}@example.test`,
    firstName: "Test",
    lastName: "User",
    isActive: true,
    ...rest,
    passwordHash: await hashPassword(password),
  });
  if (!row) throw new Error(`username ${rest.username} is taken`);
  return { row, password };
}

/** Signs `client` in as `user` and checks that it worked. */
export async function signIn(client: TestClient, user: BuiltUser): Promise<void> {
  const res = await client.post("/api/login", { username: user.row.username, password: user.password });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
}
