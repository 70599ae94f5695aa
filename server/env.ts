import { isIP } from "node:net";
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

const PROXY_KEYWORDS = ["loopback", "linklocal", "uniquelocal"];
const isAddressOrCidr = (v: string): boolean => {
  const [ip, bits, ...rest] = v.split("/");
  if (rest.length > 0 || !ip || isIP(ip) === 0) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d{1,3}$/.test(bits) && n <= (isIP(ip) === 4 ? 32 : 128);
};

/**
 * Which proxies' X-Forwarded-* headers to believe (Express's "trust proxy" forms): `false`, a hop
 * count, or proxies named by `loopback`/`linklocal`/`uniquelocal` and addresses or CIDRs. `true`
 * is refused: it believes the left-most X-Forwarded-For, which the client writes, so every per-IP
 * limit and every audited address would be the attacker's choice.
 */
const trustProxy = z
  .string()
  .trim()
  .transform((v, ctx): false | number | string[] => {
    const lower = v.toLowerCase();
    if (["false", "0", "no"].includes(lower)) return false;
    if (["true", "yes"].includes(lower)) {
      ctx.addIssue({
        code: "custom",
        message:
          "true would trust any client's X-Forwarded-For; name the proxies instead: a hop count (1 for one proxy in front), loopback, or their addresses/CIDRs (10.0.0.0/8,192.168.1.5)",
      });
      return z.NEVER;
    }
    if (/^\d+$/.test(v)) {
      const hops = Number(v);
      if (hops > 10) ctx.addIssue({ code: "custom", message: "at most 10 proxy hops" });
      return hops;
    }
    const entries = v
      .split(",")
      .map((e) => e.trim())
      .filter(Boolean);
    const bad = entries.filter((e) => !PROXY_KEYWORDS.includes(e.toLowerCase()) && !isAddressOrCidr(e));
    if (entries.length === 0 || bad.length > 0) {
      ctx.addIssue({
        code: "custom",
        message: `not a hop count, loopback/linklocal/uniquelocal, or an address/CIDR: ${bad.join(", ") || v}`,
      });
      return z.NEVER;
    }
    return entries.map((e) => (PROXY_KEYWORDS.includes(e.toLowerCase()) ? e.toLowerCase() : e));
  });

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
  /** Several instances on one PostgreSQL: their rate limits and events in Redis instead (optional). */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL")
    .optional(),
  /**
   * Where the rate limits count: "shared" (Redis with REDIS_URL, else PostgreSQL with
   * DATABASE_URL, else memory) or "memory" (each process alone: one instance on PostgreSQL needs
   * no more; the benchmarks compare the two).
   */
  RATE_LIMIT_STORE: z.enum(["shared", "memory"], { error: "must be shared or memory" }).default("shared"),
  ADMIN_PASSWORD: z
    .string()
    .min(LIMITS.passwordMin, `must be at least ${LIMITS.passwordMin} characters`)
    .max(LIMITS.passwordMax)
    .optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  TRUST_PROXY: trustProxy.default(false),
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .default(120),
  SESSION_MAX_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(30 * 24)
    .default(24),
  CORS_ORIGINS: csv.default(["http://localhost:3000", "http://localhost:5000"]),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(9_000),
  /** On SIGTERM, how long the health check answers 503 before the server stops taking requests; unset: 5 s on PostgreSQL, 0 on the embedded database. */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(60_000).optional(),
  /**
   * Key for secrets at rest (docs/decisions.md#secrets-at-rest); otherwise a key file is created in
   * DATA_DIR on first start.
   */
  SECRET_KEY: z.string().min(32, "must be at least 32 characters").optional(),
  BITBUCKET_API_URL: httpUrl.default("https://api.bitbucket.org/2.0"),
  /** Atlassian's authorization server (issue 27: a person links their account with OAuth 2.0 3LO). */
  ATLASSIAN_AUTH_URL: httpUrl.default("https://auth.atlassian.com"),
  /** Atlassian's API gateway: 3LO tokens reach Jira and Confluence at /ex/jira/{cloudId} and /ex/confluence/{cloudId}. */
  ATLASSIAN_API_URL: httpUrl.default("https://api.atlassian.com"),
  /** Bitbucket's OAuth endpoints (/site/oauth2/authorize and /site/oauth2/access_token). */
  BITBUCKET_AUTH_URL: httpUrl.default("https://bitbucket.org"),
  /** SSRF rule (issue 9): upstream calls to loopback, private, link-local or metadata addresses are refused unless allowed. */
  UPSTREAM_ALLOW_PRIVATE: bool.default(false),
  UPSTREAM_ALLOWED_HOSTS: csv
    .refine(
      (list) => list.every((e) => /^[a-z0-9.-]+$/i.test(e) || isAddressOrCidr(e)),
      "must be host names, addresses or CIDRs, comma-separated",
    )
    .default([]),
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  /** The most one chat turn (the AI provider's calls and the tools together) or one provider test may take. */
  AI_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(120_000),
  ATLASSIAN_HOURLY_BUDGET: z.coerce.number().int().min(1).default(1_000),
  BITBUCKET_HOURLY_BUDGET: z.coerce.number().int().min(1).default(1_000),
  /** The most of an integration's hourly budget one caller (an OAuth client and its user) may spend, in percent. */
  UPSTREAM_CLIENT_SHARE_PERCENT: z.coerce.number().int().min(1).max(100).default(50),
  RATE_LIMIT_API_PER_MINUTE: z.coerce.number().int().min(1).default(RATE_LIMIT_DEFAULTS.apiRequestsPerMinute),
  RATE_LIMIT_API_BURST: z.coerce.number().int().min(0).default(RATE_LIMIT_DEFAULTS.apiBurst),
  RATE_LIMIT_OAUTH_REQUESTS: z.coerce.number().int().min(1).default(RATE_LIMIT_DEFAULTS.oauthRequests),
  RATE_LIMIT_OAUTH_WINDOW_MINUTES: z.coerce.number().int().min(1).default(RATE_LIMIT_DEFAULTS.oauthWindowMinutes),
  RATE_LIMIT_SSE_PER_MINUTE: z.coerce.number().int().min(1).default(RATE_LIMIT_DEFAULTS.sseStreamsPerMinute),
  RATE_LIMIT_SSE_MAX_CONCURRENT: z.coerce.number().int().min(1).default(RATE_LIMIT_DEFAULTS.sseMaxConcurrent),
  /** The address clients reach this server at: the OAuth issuer and the tokens' audience. */
  PUBLIC_URL: httpUrl
    .refine((v) => new URL(v).pathname === "/", "must be an origin such as https://bridgekeeper.example.com (no path)")
    .optional(),
  OAUTH_DYNAMIC_REGISTRATION: bool.default(false),
  /** Self-registered clients (RFC 7591) nobody authorized for this long are removed. */
  OAUTH_DYNAMIC_CLIENT_TTL_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** Clients whose client_id is an https URL describe themselves in a metadata document there (MCP 2025-11-25). */
  OAUTH_CLIENT_ID_METADATA_DOCUMENTS: bool.default(true),
  OAUTH_ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(3_600),
  /** A refresh token presented again this soon after its rotation yields the same pair (parallel refreshes); 0 turns it off. */
  OAUTH_REFRESH_GRACE_SECONDS: z.coerce.number().int().min(0).max(60).default(10),
  OAUTH_REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /**
   * Whether requests are recorded in the request log at all (docs/decisions.md#request-log); off,
   * the Logs screen stays empty.
   */
  REQUEST_LOG: bool.default(true),
  /**
   * A bearer token that opens GET /metrics to a Prometheus scraper (issue 12 item 6); without it,
   * only a console session with stats.read may read the metrics. At least 32 characters.
   */
  METRICS_TOKEN: z.string().min(32, "must be at least 32 characters").optional(),
  /** Request log rows older than this are removed (docs/decisions.md#request-log). */
  LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** The 2024-11-05 HTTP+SSE transport (GET /sse, POST /messages) for older MCP clients; deprecated by the protocol. */
  MCP_LEGACY_SSE: bool.default(true),
  /**
   * tools/list and tools/call answered directly (server/mcp/direct-answers.ts). On by default; off,
   * every MCP request is answered by the SDK's handler (an escape hatch, and how tests compare the two).
   */
  MCP_FAST_LANE: bool.default(true),
  /** Tools that delete or merge (destructive): false hides them from every client (issue 11 item 4). */
  MCP_DESTRUCTIVE_TOOLS: bool.default(true),
  /**
   * Long-lived streams (/api/sse/stream, /sse, subscriptions/listen) one process holds at once
   * (docs/decisions.md#rate-limits).
   */
  MCP_MAX_STREAMS: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  /** `npm run demo`: configure both integrations to the sandbox at this URL on start. */
  DEMO_SANDBOX_URL: httpUrl.optional(),
  /** `npm run demo`: which of the sandbox's flavours the integrations are configured to (`datacenter`: Jira, Confluence and Bitbucket Data Center). */
  DEMO_FLAVOUR: z.enum(["cloud", "datacenter"]).default("cloud"),
  /** `npm run demo`: add an AI provider pointed at the fake model server at this URL (the chat works offline). */
  DEMO_AI_URL: httpUrl.optional(),
  /** `npm run demo`: with DEMO_SANDBOX_URL, act as each person's own account and link two console users to two sandbox people. */
  DEMO_PEOPLE: bool.default(false),
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

/** Where clients reach this server: PUBLIC_URL, or localhost on the configured port. */
export const publicUrl = (config: Pick<Env, "PUBLIC_URL" | "PORT">): string => config.PUBLIC_URL ?? `http://localhost:${config.PORT}`;
