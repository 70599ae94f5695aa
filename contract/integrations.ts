import { z } from "zod";
import { line, siteUrl } from "./text";

/** Spec section 5 messages for the two integration forms, word for word. */
export const INTEGRATION_MESSAGES = {
  instanceUrl: "Must be a valid URL",
  apiToken: "API token is required",
  email: "Email or username is required",
  workspace: "Workspace is required",
  username: "Username is required",
  appPassword: "App password is required",
} as const;

const requiredText = (message: string, max = 255) =>
  line({ error: message }).trim().min(1, message).max(max, `Must be at most ${max} characters`);

/** An http(s) URL: what the connectors can call. */
const instanceUrl = siteUrl(INTEGRATION_MESSAGES.instanceUrl);

/**
 * A secret field on save: blank keeps the stored one (docs/decisions.md#write-only-secrets), so the
 * server accepts "" or nothing.
 */
const secretOnSave = line()
  .max(4096, "Must be at most 4096 characters")
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()));

/** POST /api/admin/atlassian-config. A blank apiToken keeps the stored token (400 when none is stored). */
export const AtlassianConfigInputSchema = z.object({
  instanceUrl,
  email: requiredText(INTEGRATION_MESSAGES.email),
  apiToken: secretOnSave,
  isActive: z.boolean().default(true),
});
export type AtlassianConfigInput = z.input<typeof AtlassianConfigInputSchema>;

/** POST /api/admin/bitbucket-config. A blank appPassword keeps the stored one (400 when none is stored). */
export const BitbucketConfigInputSchema = z.object({
  workspace: requiredText(INTEGRATION_MESSAGES.workspace, 100),
  username: requiredText(INTEGRATION_MESSAGES.username),
  appPassword: secretOnSave,
  isActive: z.boolean().default(true),
});
export type BitbucketConfigInput = z.input<typeof BitbucketConfigInputSchema>;

/**
 * The console's forms: the secret is required unless one is stored already (then blank keeps it).
 */
export const atlassianConfigFormSchema = (hasStoredToken: boolean) =>
  AtlassianConfigInputSchema.extend({
    apiToken: hasStoredToken ? line() : line().trim().min(1, INTEGRATION_MESSAGES.apiToken),
    isActive: z.boolean(),
  });
export type AtlassianConfigForm = z.infer<ReturnType<typeof atlassianConfigFormSchema>>;

export const bitbucketConfigFormSchema = (hasStoredPassword: boolean) =>
  BitbucketConfigInputSchema.extend({
    appPassword: hasStoredPassword ? line() : line().trim().min(1, INTEGRATION_MESSAGES.appPassword),
    isActive: z.boolean(),
  });
export type BitbucketConfigForm = z.infer<ReturnType<typeof bitbucketConfigFormSchema>>;

/**
 * GET /api/admin/atlassian-config. The token itself never leaves the server
 * (docs/decisions.md#write-only-secrets): only a hint.
 */
export interface AtlassianConfigDto {
  configured: boolean;
  instanceUrl: string;
  email: string;
  isActive: boolean;
  /** The last four characters of the stored token, or null when none is stored. */
  apiTokenHint: string | null;
  updatedAt: string | null;
}

/** GET /api/admin/bitbucket-config. */
export interface BitbucketConfigDto {
  configured: boolean;
  workspace: string;
  username: string;
  isActive: boolean;
  appPasswordHint: string | null;
  /** BITBUCKET_API_URL, read-only here. */
  apiUrl: string;
  updatedAt: string | null;
}

/** The account an integration connects as, as the service names it (Jira's /myself, Bitbucket's /user). */
export interface IntegrationAccountDto {
  displayName: string;
  /** Atlassian account ID (Bitbucket: account_id, or the user's UUID). */
  id: string;
  /** Null when the service hides it (Atlassian profile visibility) or does not send it (Bitbucket). */
  email: string | null;
  /** Bitbucket's nickname; null for Jira. */
  nickname: string | null;
}

/**
 * Who the Atlassian integration connects as and what it can see, as last learned by a connection
 * test or a status check (issue 25): kept across reloads and restarts, and after a failed check.
 * All null before the first successful check, or when not configured.
 */
export interface AtlassianReachDto {
  account: IntegrationAccountDto | null;
  /** Jira projects the account can see. */
  jiraProjectCount: number | null;
  /** Confluence spaces the account can see, counted up to 1,000. */
  confluenceSpaceCount: number | null;
  /** True when counting stopped at the cap: there are more ("1,000+"). */
  confluenceSpaceCountCapped: boolean;
  /** When these were learned (the older of Jira's and Confluence's). */
  checkedAt: string | null;
}

/** Who the Bitbucket integration connects as, and when it was learned (issue 25). */
export interface BitbucketReachDto {
  account: IntegrationAccountDto | null;
  checkedAt: string | null;
}

/** POST /api/admin/test-atlassian (spec section 3), with the reason when a service is down, and what is known after it. */
export interface AtlassianTestResult extends AtlassianReachDto {
  jiraConnected: boolean;
  confluenceConnected: boolean;
  jiraError?: string;
  confluenceError?: string;
}

/** POST /api/admin/test-bitbucket, and what is known after it. */
export interface BitbucketTestResult extends BitbucketReachDto {
  connected: boolean;
  error?: string;
  workspaceName: string | null;
  repositoryCount: number | null;
}

export interface RateLimitUsage {
  /** Upstream calls in the last hour (or the upstream's own count when it reports one). */
  used: number;
  /** The hourly budget: configured, or the upstream's own limit when it reports one. */
  total: number;
}

/**
 * GET /api/atlassian-status and /api/admin/atlassian-status (every number measured:
 * docs/decisions.md#measured-numbers).
 */
export interface AtlassianStatusDto extends AtlassianReachDto {
  configured: boolean;
  isActive: boolean;
  jiraConnected: boolean;
  jiraLastSync: string | null;
  jiraError: string | null;
  confluenceConnected: boolean;
  confluenceLastSync: string | null;
  confluenceError: string | null;
  apiRateLimit: RateLimitUsage;
}

/** GET /api/bitbucket-status. */
export interface BitbucketStatusDto extends BitbucketReachDto {
  configured: boolean;
  isActive: boolean;
  connected: boolean;
  lastSync: string | null;
  error: string | null;
  workspaceName: string | null;
  repositoryCount: number | null;
  apiRateLimit: RateLimitUsage;
}

/** GET /api/admin/config: server settings as key/value pairs (spec section 3); secrets masked. */
export interface ConfigEntry {
  key: string;
  value: string;
  masked?: boolean;
}

/** The keys GET /api/admin/config answers with, in the order the Configuration screen shows them. */
export const CONFIG_KEYS = {
  port: "port",
  nodeEnv: "nodeEnv",
  publicUrl: "publicUrl",
  secretKey: "secretKey",
  databaseUrl: "databaseUrl",
  corsOrigins: "corsOrigins",
  bitbucketApiUrl: "bitbucketApiUrl",
  upstreamTimeoutMs: "upstreamTimeoutMs",
  atlassianHourlyBudget: "atlassianHourlyBudget",
  bitbucketHourlyBudget: "bitbucketHourlyBudget",
  apiRequestsPerMinute: "rateLimit.api.requestsPerMinute",
  apiBurst: "rateLimit.api.burst",
  oauthRequests: "rateLimit.oauth.requests",
  oauthWindowMinutes: "rateLimit.oauth.windowMinutes",
  sseStreamsPerMinute: "rateLimit.sse.streamsPerMinute",
  sseMaxConcurrent: "rateLimit.sse.maxConcurrent",
  mcpMaxStreams: "mcp.maxStreams",
  mcpLegacySse: "mcp.legacySse",
  requestLog: "logs.enabled",
  logRetentionDays: "logs.retentionDays",
} as const;
