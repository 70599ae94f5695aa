import { randomBytes } from "node:crypto";
import type { Container } from "../container";
import { AiProviderCreateSchema, type AiProviderCreate } from "../../contract/ai-providers";
import type { AiProviderRow, NewUserRow, UserRow } from "../db/schema";
import { hashPassword } from "../lib/passwords";
import type { TestClient } from "./http-client";

export interface BuiltUser {
  row: UserRow;
  password: string;
}

/**
 * argon2id costs tens of milliseconds a hash by design: a test worker hashes each password once
 * (a hash with its own salt serves every user given that password; the users are still distinct).
 */
const hashes = new Map<string, Promise<string>>();
const hashOnce = (password: string): Promise<string> => {
  let hashed = hashes.get(password);
  if (!hashed) {
    hashed = hashPassword(password);
    hashes.set(password, hashed);
  }
  return hashed;
};

/** A stored user with a known password (shared by users built without one); every field can be overridden. */
export async function buildUser(
  container: Container,
  overrides: Partial<Omit<NewUserRow, "passwordHash">> & { password?: string; roles?: string[] } = {},
): Promise<BuiltUser> {
  const suffix = randomBytes(4).toString("hex");
  const { password = "pw-built-user-secret", roles = [], ...rest } = overrides;
  const row = await container.repos.usersRepo.insertIfUsernameFree({
    username: `user_${suffix}`,
    email: `user_${suffix}@example.test`,
    firstName: "Test",
    lastName: "User",
    isActive: true,
    ...rest,
    passwordHash: await hashOnce(password),
  });
  if (!row) throw new Error(`username ${rest.username} is taken`);
  for (const name of roles) {
    const role = await container.repos.rolesRepo.findByName(name);
    if (!role) throw new Error(`no role ${name}`);
    await container.repos.userRolesRepo.addRole(row.id, role.id);
  }
  return { row, password };
}

/** Signs `client` in as `user` and checks that it worked. */
export async function signIn(client: TestClient, user: BuiltUser): Promise<void> {
  const res = await client.post("/api/login", { username: user.row.username, password: user.password });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
}

/** A new client signed in as a new user holding `roles`. */
export async function signedInAs(
  t: { container: Container; client(): TestClient },
  roles: string[],
  overrides: Parameters<typeof buildUser>[1] = {},
) {
  const user = await buildUser(t.container, { ...overrides, roles });
  const client = t.client();
  await signIn(client, user);
  return { user, client };
}

/** A stored AI provider (an OpenAI one unless overridden), made through the service as the API would. */
export async function buildAiProvider(container: Container, overrides: Partial<AiProviderCreate> = {}): Promise<AiProviderRow> {
  const suffix = randomBytes(4).toString("hex");
  const input = AiProviderCreateSchema.parse({
    name: `Provider ${suffix}`,
    provider: "openai",
    model: "gpt-4o",
    apiKey: `sk-built-${suffix}-key`,
    ...overrides,
  });
  return container.services.aiProviders.create(input, { userId: null, username: "factory", ip: null });
}
