import { CONFIG_KEYS, type ConfigEntry } from "../../../contract/integrations";
import { publicUrl, type Env } from "../../env";

export type SettingsConfig = Pick<
  Env,
  | "PORT"
  | "PUBLIC_URL"
  | "NODE_ENV"
  | "SECRET_KEY"
  | "DATABASE_URL"
  | "DATA_DIR"
  | "CORS_ORIGINS"
  | "BITBUCKET_API_URL"
  | "UPSTREAM_TIMEOUT_MS"
  | "ATLASSIAN_HOURLY_BUDGET"
  | "BITBUCKET_HOURLY_BUDGET"
  | "RATE_LIMIT_API_PER_MINUTE"
  | "RATE_LIMIT_API_BURST"
  | "RATE_LIMIT_OAUTH_REQUESTS"
  | "RATE_LIMIT_OAUTH_WINDOW_MINUTES"
  | "RATE_LIMIT_SSE_PER_MINUTE"
  | "RATE_LIMIT_SSE_MAX_CONCURRENT"
  | "MCP_MAX_STREAMS"
  | "MCP_LEGACY_SSE"
  | "REQUEST_LOG"
  | "LOG_RETENTION_DAYS"
>;

const MASK = "••••••••";

/** postgres://user:secret@host/db -> postgres://user:••••••••@host/db; nothing else of it is secret. */
export function maskDatabaseUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = MASK;
    for (const key of [...u.searchParams.keys()]) if (/pass|secret|key/i.test(key)) u.searchParams.set(key, MASK);
    return decodeURIComponent(u.toString());
  } catch {
    return MASK;
  }
}

/** GET /api/admin/config: the settings the server runs with (docs/decisions.md#rate-limits, #environment-and-port), secrets masked. */
export function serverSettings(config: SettingsConfig): ConfigEntry[] {
  return [
    { key: CONFIG_KEYS.port, value: String(config.PORT) },
    { key: CONFIG_KEYS.publicUrl, value: config.PUBLIC_URL ?? `${publicUrl(config)} (default: PUBLIC_URL is not set)` },
    { key: CONFIG_KEYS.nodeEnv, value: config.NODE_ENV },
    {
      key: CONFIG_KEYS.secretKey,
      value: config.SECRET_KEY ? `${MASK} (SECRET_KEY)` : `${MASK} (key file in the data directory)`,
      masked: true,
    },
    {
      key: CONFIG_KEYS.databaseUrl,
      value: config.DATABASE_URL ? maskDatabaseUrl(config.DATABASE_URL) : `embedded PGlite in ${config.DATA_DIR}`,
      masked: Boolean(config.DATABASE_URL),
    },
    { key: CONFIG_KEYS.corsOrigins, value: config.CORS_ORIGINS.join(",") },
    { key: CONFIG_KEYS.bitbucketApiUrl, value: config.BITBUCKET_API_URL },
    { key: CONFIG_KEYS.upstreamTimeoutMs, value: String(config.UPSTREAM_TIMEOUT_MS) },
    { key: CONFIG_KEYS.atlassianHourlyBudget, value: String(config.ATLASSIAN_HOURLY_BUDGET) },
    { key: CONFIG_KEYS.bitbucketHourlyBudget, value: String(config.BITBUCKET_HOURLY_BUDGET) },
    { key: CONFIG_KEYS.apiRequestsPerMinute, value: String(config.RATE_LIMIT_API_PER_MINUTE) },
    { key: CONFIG_KEYS.apiBurst, value: String(config.RATE_LIMIT_API_BURST) },
    { key: CONFIG_KEYS.oauthRequests, value: String(config.RATE_LIMIT_OAUTH_REQUESTS) },
    { key: CONFIG_KEYS.oauthWindowMinutes, value: String(config.RATE_LIMIT_OAUTH_WINDOW_MINUTES) },
    { key: CONFIG_KEYS.sseStreamsPerMinute, value: String(config.RATE_LIMIT_SSE_PER_MINUTE) },
    { key: CONFIG_KEYS.sseMaxConcurrent, value: String(config.RATE_LIMIT_SSE_MAX_CONCURRENT) },
    { key: CONFIG_KEYS.mcpMaxStreams, value: String(config.MCP_MAX_STREAMS) },
    { key: CONFIG_KEYS.mcpLegacySse, value: String(config.MCP_LEGACY_SSE) },
    { key: CONFIG_KEYS.requestLog, value: String(config.REQUEST_LOG) },
    { key: CONFIG_KEYS.logRetentionDays, value: String(config.LOG_RETENTION_DAYS) },
  ];
}
