import { z } from "zod";
import { LIMITS, RATE_LIMIT_DEFAULTS } from "../contract/limits";

const bool = z
  .enum(["true", "false", "1", "0", "yes", "no"], { error: "must be true or false" })
  .transform((v) => v === "true" || v === "1" || v === "yes");

const csv = z.string().transform((v) =>
  v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean),
);

const httpUrl = z
  .string()
  .regex(/^https?:\/\/[^/\s]+/, "must be an http:// or https:// URL")
  .transform((v) => v.replace(/\/+$/, ""));

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
  /** Key for secrets at rest (D5); otherwise a key file is created in DATA_DIR on first start. */
  SECRET_KEY: z.string().min(32, "must be at least 32 characters").optional(),
  BITBUCKET_API_URL: httpUrl.default("https://api.bitbucket.org/2.0"),
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  ATLASSIAN_HOURLY_BUDGET: z.coerce.number().int().min(1).default(1_000),
  BITBUCKET_HOURLY_BUDGET: z.coerce.number().int().min(1).default(1_000),
  RATE_LIMIT_API_PER_MINUTE: z.coerce.number().int().min(1).default(RATE_LIMIT_DEFAULTS.apiRequestsPerMinute),
  RATE_LIMIT_API_BURST: z.coerce.number().int().min(0).default(RATE_LIMIT_DEFAULTS.apiBurst),
  RATE_LIMIT_OAUTH_REQUESTS: z.coerce.number().int().min(1).default(RATE_LIMIT_DEFAULTS.oauthRequests),
  RATE_LIMIT_OAUTH_WINDOW_MINUTES: z.coerce.number().int().min(1).default(RATE_LIMIT_DEFAULTS.oauthWindowMinutes),
  RATE_LIMIT_SSE_PER_MINUTE: z.coerce.number().int().min(1).default(RATE_LIMIT_DEFAULTS.sseStreamsPerMinute),
  RATE_LIMIT_SSE_MAX_CONCURRENT: z.coerce.number().int().min(1).default(RATE_LIMIT_DEFAULTS.sseMaxConcurrent),
  /** The address clients reach this server at: the OAuth issuer and the tokens' audience. */
  PUBLIC_URL: httpUrl.refine((v) => new URL(v).pathname === "/", "must be an origin such as https://bridgekeeper.example.com (no path)").optional(),
  OAUTH_DYNAMIC_REGISTRATION: bool.default(false),
  OAUTH_ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(3_600),
  OAUTH_REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /** `npm run demo`: configure both integrations to the sandbox at this URL on start. */
  DEMO_SANDBOX_URL: httpUrl.optional(),
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
