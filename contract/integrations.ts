import { z } from "zod";
import { line, siteUrl } from "./text";

/**
 * Where an integration's services run (issue 28): Atlassian's cloud, or a company's own Data
 * Center (Jira, Confluence and Bitbucket Server/DC, REST v2 and 1.0). The same tools serve both.
 */
export const DEPLOYMENTS = ["cloud", "datacenter"] as const;
export type Deployment = (typeof DEPLOYMENTS)[number];
export const DEPLOYMENT_LABELS: Record<Deployment, string> = { cloud: "Cloud", datacenter: "Data Center" };

/** What the administrator chose: a deployment, or "auto" (the connection test detects it). */
export const DEPLOYMENT_CHOICES = ["auto", ...DEPLOYMENTS] as const;
export type DeploymentChoice = (typeof DEPLOYMENT_CHOICES)[number];

/**
 * How the shared account signs in: Cloud always by Basic (email or username and an API token or
 * app password); Data Center by Basic (username and password) or by a token sent as a bearer
 * token (a personal access token; on Bitbucket also a project's or repository's HTTP access token).
 */
export const AUTH_METHODS = ["basic", "token"] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];

/** Spec section 5 messages for the two integration forms, word for word; then the Data Center ones (issue 28). */
export const INTEGRATION_MESSAGES = {
  instanceUrl: "Must be a valid URL",
  apiToken: "API token is required",
  email: "Email or username is required",
  workspace: "Workspace is required",
  username: "Username is required",
  appPassword: "App password is required",
  baseUrl: "Bitbucket's base URL is required for Data Center",
  confluenceToken: "Confluence's personal access token is required: on Data Center Confluence is its own server, with its own token",
  cloudToken: "Atlassian Cloud takes an email and an API token: a personal access token is for Data Center",
  bitbucketCloudToken: "Bitbucket Cloud takes a username and an app password or API token: an access token is for Data Center",
} as const;

/** "https://acme.atlassian.net is Atlassian Cloud: …": a Cloud address entered for Data Center. */
export const cloudUrlForDataCenter = (host: string, product: "Jira" | "Confluence" | "Bitbucket") =>
  `${host} is ${product === "Bitbucket" ? "Bitbucket" : "Atlassian"} Cloud: choose Cloud, or enter your ${product} Data Center's base URL`;

const ATLASSIAN_CLOUD_HOST = /(^|\.)(atlassian\.net|jira\.com|jira-dev\.com)$/i;
const BITBUCKET_CLOUD_HOST = /(^|\.)bitbucket\.org$/i;
const hostOf = (url: string | undefined): string | null => {
  try {
    return url ? new URL(url).hostname : null;
  } catch {
    return null;
  }
};
export const isAtlassianCloudUrl = (url: string | undefined): boolean => ATLASSIAN_CLOUD_HOST.test(hostOf(url) ?? "");
export const isBitbucketCloudUrl = (url: string | undefined): boolean => BITBUCKET_CLOUD_HOST.test(hostOf(url) ?? "");

/**
 * The deployment an integration is used as before a connection test has detected it: what the
 * administrator chose, else what the entries say (a Cloud address is Cloud; a separate Confluence
 * or Bitbucket base URL, or a token as the sign-in, is Data Center), else Cloud.
 */
export function deploymentFor(
  kind: "atlassian" | "bitbucket",
  input: {
    deployment?: DeploymentChoice | undefined;
    url?: string | undefined;
    secondUrl?: string | undefined;
    authMethod?: AuthMethod | undefined;
  },
): Deployment {
  if (input.deployment && input.deployment !== "auto") return input.deployment;
  const cloudUrl = kind === "atlassian" ? isAtlassianCloudUrl(input.url) : isBitbucketCloudUrl(input.secondUrl);
  if (cloudUrl) return "cloud";
  if (input.secondUrl || input.authMethod === "token") return "datacenter";
  return "cloud";
}

const optionalText = (max = 255) => line().trim().max(max, `Must be at most ${max} characters`).optional();

/** An http(s) URL: what the connectors can call. */
const instanceUrl = siteUrl(INTEGRATION_MESSAGES.instanceUrl);
/** An http(s) URL, or blank (left out). */
const optionalUrl = z.union([z.literal("").transform(() => undefined), instanceUrl]).optional();

/**
 * A secret field on save: blank keeps the stored one (docs/decisions.md#write-only-secrets), so the
 * server accepts "" or nothing.
 */
const secretOnSave = line()
  .max(4096, "Must be at most 4096 characters")
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()));

const AtlassianConfigShape = z.object({
  /** Cloud, Data Center, or "auto": the connection test detects it. */
  deployment: z.enum(DEPLOYMENT_CHOICES).default("auto"),
  /** The Cloud site, or Jira Data Center's base URL (a context path such as `/jira` included). */
  instanceUrl,
  /** Data Center only: Confluence's own base URL; blank leaves Confluence out. */
  confluenceUrl: optionalUrl,
  /** Data Center only: "token" sends a personal access token as a bearer token. */
  authMethod: z.enum(AUTH_METHODS).default("basic"),
  /** The email (Cloud) or username (Data Center, Basic); not needed with a token on Data Center. */
  email: optionalText(),
  apiToken: secretOnSave,
  /** Data Center with a personal access token and Confluence: Confluence's own token (blank keeps the stored one). */
  confluenceToken: secretOnSave,
  isActive: z.boolean().default(true),
});

type AtlassianShape = {
  deployment: DeploymentChoice;
  instanceUrl: string;
  confluenceUrl?: string | undefined;
  authMethod: AuthMethod;
  email?: string | undefined;
};

/** What a combination of fields must satisfy, beyond each field's own rule. */
function atlassianRules(v: AtlassianShape, ctx: z.RefinementCtx): void {
  const deployment = deploymentFor("atlassian", {
    deployment: v.deployment,
    url: v.instanceUrl,
    secondUrl: v.confluenceUrl,
    authMethod: v.authMethod,
  });
  if (deployment === "cloud" && v.deployment === "cloud" && v.authMethod === "token")
    ctx.addIssue({ code: "custom", path: ["authMethod"], message: INTEGRATION_MESSAGES.cloudToken });
  if (deployment === "datacenter") {
    for (const [field, product] of [
      ["instanceUrl", "Jira"],
      ["confluenceUrl", "Confluence"],
    ] as const) {
      const url = v[field];
      if (isAtlassianCloudUrl(url)) ctx.addIssue({ code: "custom", path: [field], message: cloudUrlForDataCenter(hostOf(url)!, product) });
    }
  }
  if (!(deployment === "datacenter" && v.authMethod === "token") && !v.email)
    ctx.addIssue({ code: "custom", path: ["email"], message: INTEGRATION_MESSAGES.email });
}

/** POST /api/admin/atlassian-config. A blank apiToken keeps the stored token (400 when none is stored). */
export const AtlassianConfigInputSchema = AtlassianConfigShape.superRefine(atlassianRules);
export type AtlassianConfigInput = z.input<typeof AtlassianConfigInputSchema>;

const BitbucketConfigShape = z.object({
  deployment: z.enum(DEPLOYMENT_CHOICES).default("auto"),
  /** Data Center only: Bitbucket's base URL (a context path included). Cloud's API URL is BITBUCKET_API_URL. */
  baseUrl: optionalUrl,
  /** Cloud: the workspace. Data Center: the project a repository named without one is in (optional). */
  workspace: optionalText(100),
  authMethod: z.enum(AUTH_METHODS).default("basic"),
  /** Not needed with a token on Data Center. */
  username: optionalText(),
  appPassword: secretOnSave,
  isActive: z.boolean().default(true),
});

type BitbucketShape = {
  deployment: DeploymentChoice;
  baseUrl?: string | undefined;
  workspace?: string | undefined;
  authMethod: AuthMethod;
  username?: string | undefined;
};

function bitbucketRules(v: BitbucketShape, ctx: z.RefinementCtx): void {
  const deployment = deploymentFor("bitbucket", { deployment: v.deployment, secondUrl: v.baseUrl, authMethod: v.authMethod });
  if (deployment === "cloud") {
    if (v.deployment === "cloud" && v.authMethod === "token")
      ctx.addIssue({ code: "custom", path: ["authMethod"], message: INTEGRATION_MESSAGES.bitbucketCloudToken });
    if (!v.workspace) ctx.addIssue({ code: "custom", path: ["workspace"], message: INTEGRATION_MESSAGES.workspace });
  } else {
    if (!v.baseUrl) ctx.addIssue({ code: "custom", path: ["baseUrl"], message: INTEGRATION_MESSAGES.baseUrl });
    else if (isBitbucketCloudUrl(v.baseUrl))
      ctx.addIssue({ code: "custom", path: ["baseUrl"], message: cloudUrlForDataCenter(hostOf(v.baseUrl)!, "Bitbucket") });
  }
  if (!(deployment === "datacenter" && v.authMethod === "token") && !v.username)
    ctx.addIssue({ code: "custom", path: ["username"], message: INTEGRATION_MESSAGES.username });
}

/** POST /api/admin/bitbucket-config. A blank appPassword keeps the stored one (400 when none is stored). */
export const BitbucketConfigInputSchema = BitbucketConfigShape.superRefine(bitbucketRules);
export type BitbucketConfigInput = z.input<typeof BitbucketConfigInputSchema>;

/**
 * The console's forms: the secret is required unless one is stored already (then blank keeps it).
 */
export const atlassianConfigFormSchema = (hasStoredToken: boolean) =>
  AtlassianConfigShape.extend({
    deployment: z.enum(DEPLOYMENT_CHOICES),
    authMethod: z.enum(AUTH_METHODS),
    confluenceUrl: z.union([z.literal(""), instanceUrl]),
    email: line().trim().max(255, "Must be at most 255 characters"),
    apiToken: hasStoredToken ? line() : line().trim().min(1, INTEGRATION_MESSAGES.apiToken),
    confluenceToken: line(),
    isActive: z.boolean(),
  }).superRefine(atlassianRules);
export type AtlassianConfigForm = z.infer<ReturnType<typeof atlassianConfigFormSchema>>;

export const bitbucketConfigFormSchema = (hasStoredPassword: boolean) =>
  BitbucketConfigShape.extend({
    deployment: z.enum(DEPLOYMENT_CHOICES),
    authMethod: z.enum(AUTH_METHODS),
    baseUrl: z.union([z.literal(""), instanceUrl]),
    workspace: line().trim().max(100, "Must be at most 100 characters"),
    username: line().trim().max(255, "Must be at most 255 characters"),
    appPassword: hasStoredPassword ? line() : line().trim().min(1, INTEGRATION_MESSAGES.appPassword),
    isActive: z.boolean(),
  }).superRefine(bitbucketRules);
export type BitbucketConfigForm = z.infer<ReturnType<typeof bitbucketConfigFormSchema>>;

/** A product and its version, as a connection check learned it ("Jira Data Center", "10.3.5"). */
export interface ProductDto {
  /** "Jira Cloud", "Jira Data Center", "Confluence Data Center", "Bitbucket Data Center" … */
  name: string;
  /** The full version the service reports; null when it reports none (the clouds). */
  version: string | null;
  deployment: Deployment;
}

/** "Jira Data Center 10.3": the name and the version's major.minor, as the cards and the Configuration screen show it. */
export const productLabel = (p: ProductDto): string => (p.version ? `${p.name} ${p.version.split(".").slice(0, 2).join(".")}` : p.name);

/**
 * GET /api/admin/atlassian-config. The token itself never leaves the server
 * (docs/decisions.md#write-only-secrets): only a hint.
 */
export interface AtlassianConfigDto {
  configured: boolean;
  /** What the administrator chose ("auto": detected by the connection test). */
  deploymentChoice: DeploymentChoice;
  /** The deployment calls are made as: the choice, or what a test detected, or what the entries say. */
  deployment: Deployment;
  instanceUrl: string;
  /** Data Center: Confluence's base URL ("" when left out, and on Cloud). */
  confluenceUrl: string;
  authMethod: AuthMethod;
  email: string;
  isActive: boolean;
  /** The last four characters of the stored token, or null when none is stored. */
  apiTokenHint: string | null;
  /** Data Center with personal access tokens: Confluence's own token's hint; null when none is stored. */
  confluenceTokenHint: string | null;
  updatedAt: string | null;
}

/** GET /api/admin/bitbucket-config. */
export interface BitbucketConfigDto {
  configured: boolean;
  deploymentChoice: DeploymentChoice;
  deployment: Deployment;
  /** Data Center: Bitbucket's base URL ("" on Cloud). */
  baseUrl: string;
  authMethod: AuthMethod;
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
  /** Jira's and Confluence's product and version (issue 28), as last detected. */
  jiraProduct: ProductDto | null;
  confluenceProduct: ProductDto | null;
  /** When these were learned (the older of Jira's and Confluence's). */
  checkedAt: string | null;
}

/** Who the Bitbucket integration connects as, and when it was learned (issue 25). */
export interface BitbucketReachDto {
  account: IntegrationAccountDto | null;
  /** Bitbucket's product and version (issue 28), as last detected. */
  product: ProductDto | null;
  checkedAt: string | null;
}

/** POST /api/admin/test-atlassian (spec section 3), with the reason when a service is down, and what is known after it. */
export interface AtlassianTestResult extends AtlassianReachDto {
  /** The deployment after the test: a detected one replaces a guess while the choice is "auto". */
  deployment: Deployment;
  jiraConnected: boolean;
  confluenceConnected: boolean;
  jiraError?: string;
  confluenceError?: string;
}

/** POST /api/admin/test-bitbucket, and what is known after it. */
export interface BitbucketTestResult extends BitbucketReachDto {
  deployment: Deployment;
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
