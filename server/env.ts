import { z } from "zod";
import { LIMITS } from "../contract/limits";

const bool = z
  .enum(["true", "false", "1", "0", "yes", "no"], { error: "must be true or false" })
  .transform((v) => v === "true" || v === "1" || v === "yes");

const csv = z.string().transform((v) =>
  v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean),
);

/**
 * Every setting the server reads, with its default. Read once at start; a bad value stops the
 * start with a message naming the variable. README's configuration table mirrors this.
 */
export const EnvSchema = z.object({
  NODE_ENV: z.enum(["production", "development", "test"]).default("production"),
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  ADMIN_PASSWORD: z
    .string()
    .min(LIMITS.passwordMin, `must be at least ${LIMITS.passwordMin} characters`)
    .max(LIMITS.passwordMax)
    .optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  TRUST_PROXY: bool.default(false),
  SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).max(7 * 24 * 60).default(120),
  SESSION_MAX_HOURS: z.coerce.number().int().min(1).max(30 * 24).default(24),
  CORS_ORIGINS: csv.default(["http://localhost:3000", "http://localhost:5000"]),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(9_000),
});

export type Env = z.infer<typeof EnvSchema>;

export class EnvError extends Error {
  override name = "EnvError";
}

export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  // An empty variable means "not set", as in a shell's `FOO= npm start`.
  const present = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const result = EnvSchema.safeParse(present);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
  throw new EnvError(`Invalid configuration:\n${lines.join("\n")}`);
}
