import type { ClientPolicy } from "../../contract/policy";
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from "drizzle-orm/pg-core";

const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
};

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    username: text("username").notNull(),
    email: text("email"),
    firstName: text("first_name"),
    lastName: text("last_name"),
    profileImageUrl: text("profile_image_url"),
    passwordHash: text("password_hash").notNull(),
    /** The first administrator's generated password, printed once, not yet changed (the Dashboard's Get started). */
    passwordGenerated: boolean("password_generated").notNull().default(false),
    isActive: boolean("is_active").notNull().default(true),
    lastLoginAt: timestamp("last_login_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    // Usernames and emails are unique case-insensitively: "Admin" and "admin" are one person.
    uniqueIndex("users_username_lower_key").on(sql`lower(${t.username})`),
    uniqueIndex("users_email_lower_key").on(sql`lower(${t.email})`),
  ],
);

/**
 * Console sessions. The cookie carries a random token; only its SHA-256 is stored, so a copy of
 * the database cannot be replayed as cookies.
 */
export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
  },
  (t) => [index("sessions_user_id_idx").on(t.userId), index("sessions_expires_at_idx").on(t.expiresAt)],
);

export const roles = pgTable(
  "roles",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    description: text("description"),
    isActive: boolean("is_active").notNull().default(true),
    /**
     * admin, operator, viewer (docs/decisions.md#roles-and-permissions): not deletable, permissions
     * set by the server at start.
     */
    isBuiltin: boolean("is_builtin").notNull().default(false),
    ...timestamps,
  },
  (t) => [uniqueIndex("roles_name_lower_key").on(sql`lower(${t.name})`)],
);

/** The catalogue of `resource.action` pairs the server enforces (contract/permissions.ts). */
export const permissions = pgTable(
  "permissions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    resource: text("resource").notNull(),
    action: text("action").notNull(),
  },
  (t) => [uniqueIndex("permissions_resource_action_key").on(t.resource, t.action)],
);

export const rolePermissions = pgTable(
  "role_permissions",
  {
    roleId: uuid("role_id")
      .notNull()
      .references(() => roles.id, { onDelete: "cascade" }),
    permissionId: uuid("permission_id")
      .notNull()
      .references(() => permissions.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.permissionId] })],
);

export const userRoles = pgTable(
  "user_roles",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    roleId: uuid("role_id")
      .notNull()
      .references(() => roles.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] }), index("user_roles_role_id_idx").on(t.roleId)],
);

/** Who did what, when: sign-ins and every change to users, roles and assignments. Never secrets. */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    actorUserId: uuid("actor_user_id"),
    actorUsername: text("actor_username"),
    action: text("action").notNull(),
    outcome: text("outcome").notNull().default("success"),
    targetType: text("target_type"),
    targetId: text("target_id"),
    ipAddress: text("ip_address"),
    details: jsonb("details").$type<Record<string, unknown>>(),
  },
  (t) => [
    index("audit_events_at_idx").on(t.at),
    index("audit_events_action_idx").on(t.action),
    index("audit_events_target_idx").on(t.targetType, t.targetId),
  ],
);

export type UserRow = typeof users.$inferSelect;
export type RoleRow = typeof roles.$inferSelect;
export type PermissionRow = typeof permissions.$inferSelect;
export type AuditEventRow = typeof auditEvents.$inferSelect;
export type NewAuditEventRow = typeof auditEvents.$inferInsert;
export type NewUserRow = typeof users.$inferInsert;
export type SessionRow = typeof sessions.$inferSelect;

/**
 * The Atlassian and Bitbucket connections (one row each, `kind` = "atlassian" | "bitbucket"). The
 * token or app password is sealed with the secret box (docs/decisions.md#secrets-at-rest); only its
 * last four characters are kept in clear, for the write-only hint
 * (docs/decisions.md#write-only-secrets).
 */
export const integrationConfigs = pgTable("integration_configs", {
  kind: text("kind").primaryKey(),
  settings: jsonb("settings").$type<Record<string, string>>().notNull(),
  secretSealed: text("secret_sealed").notNull(),
  secretHint: text("secret_hint").notNull(),
  isActive: boolean("is_active").notNull().default(true),
  updatedBy: uuid("updated_by"),
  ...timestamps,
});

/**
 * What a connection check learned about one service's account and what it can see (issue 25):
 * kept until a later check learns otherwise, so a failed check leaves the last known values.
 */
export interface UpstreamReach {
  /** The configuration it was learned with (instance URL and email, or workspace and username): another one's facts are not shown. */
  target: string;
  /** When a check last learned any of these (ISO 8601). */
  checkedAt: string;
  /** Jira's /myself or Bitbucket's /user. */
  account?: { displayName: string; id: string; email: string | null; nickname: string | null };
  /** Jira: the projects the account can see. */
  projectCount?: number;
  /** Confluence: the spaces the account can see, counted up to a cap (`capped`: there are more). */
  spaceCount?: { count: number; capped: boolean };
  /** Bitbucket: the workspace's name and its repositories. */
  workspace?: { name: string | null; repositoryCount: number | null };
  /** The product and version that answered (issue 28: "Jira Data Center 10.3.5"). */
  product?: { name: string; version: string | null; deployment: "cloud" | "datacenter" };
}

/** The last successful and failed call per upstream service (jira, confluence, bitbucket): "last sync" survives a restart. */
export const upstreamSync = pgTable("upstream_sync", {
  service: text("service").primaryKey(),
  lastSuccessAt: timestamp("last_success_at", { withTimezone: true }),
  lastFailureAt: timestamp("last_failure_at", { withTimezone: true }),
  lastError: text("last_error"),
  /** The account and what it can see, as last learned; null until a check learned it. */
  reach: jsonb("reach").$type<UpstreamReach>(),
});

/**
 * How each integration reaches its service: as the shared account above, or as each person's own
 * linked account (issue 27). The OAuth app's (or consumer's) client secret is sealed and write-only.
 */
export const integrationIdentity = pgTable("integration_identity", {
  integration: text("integration").primaryKey(),
  mode: text("mode").$type<"shared" | "per-person">().notNull(),
  allowMachineClients: boolean("allow_machine_clients").notNull().default(false),
  allowApiTokens: boolean("allow_api_tokens").notNull().default(false),
  oauthClientId: text("oauth_client_id").notNull().default(""),
  oauthSecretSealed: text("oauth_secret_sealed"),
  oauthSecretHint: text("oauth_secret_hint"),
  /** Atlassian on Data Center: Confluence's own incoming application link (issue 28). */
  confluenceOauthClientId: text("confluence_oauth_client_id").notNull().default(""),
  confluenceOauthSecretSealed: text("confluence_oauth_secret_sealed"),
  confluenceOauthSecretHint: text("confluence_oauth_secret_hint"),
  updatedBy: uuid("updated_by"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
export type IntegrationIdentityRow = typeof integrationIdentity.$inferSelect;

/** One Data Center server's OAuth grant: its tokens and when the access token expires (epoch ms). */
export interface ServerGrant {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: number;
}

/**
 * What a link keeps sealed (never returned by any API): an OAuth grant's tokens, a pasted token
 * with its e-mail, or Data Center's personal access tokens or OAuth grants, one per server (issue
 * 28: Jira and Confluence DC are separate servers, each with its own token or grant).
 */
export type LinkSecret =
  | { accessToken: string; refreshToken: string | null }
  | { email: string; apiToken: string }
  | { personalAccessTokens: Partial<Record<"jira" | "confluence" | "bitbucket", string>> }
  | { grants: Partial<Record<"jira" | "confluence" | "bitbucket", ServerGrant>> };

/**
 * A person's own account on an integration (issue 27): one per user and integration. The tokens are
 * sealed (`secretSealed`, a LinkSecret); what the console shows is beside them in clear.
 */
export const accountLinks = pgTable(
  "account_links",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    integration: text("integration").$type<"atlassian" | "bitbucket">().notNull(),
    kind: text("kind").notNull(),
    accountId: text("account_id").notNull(),
    displayName: text("display_name").notNull(),
    email: text("email"),
    /** Atlassian OAuth: the site's address and cloud id the grant is for. */
    siteUrl: text("site_url"),
    cloudId: text("cloud_id"),
    scopes: jsonb("scopes").$type<string[]>().notNull(),
    secretSealed: text("secret_sealed").notNull(),
    /** OAuth: when the access token expires (refreshed a little before). */
    accessExpiresAt: timestamp("access_expires_at", { withTimezone: true }),
    state: text("state").$type<"working" | "needs-relinking">().notNull().default("working"),
    problem: text("problem"),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [uniqueIndex("account_links_user_integration_idx").on(t.userId, t.integration)],
);
export type AccountLinkRow = typeof accountLinks.$inferSelect;

/**
 * A link started in the console and not yet back from the service: `state` (stored hashed) binds
 * the callback to this session and this attempt; single use, ten minutes.
 */
export const accountLinkRequests = pgTable("account_link_requests", {
  stateHash: text("state_hash").primaryKey(),
  userId: uuid("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  sessionHash: text("session_hash").notNull(),
  integration: text("integration").$type<"atlassian" | "bitbucket">().notNull(),
  codeVerifierSealed: text("code_verifier_sealed").notNull(),
  /**
   * Data Center: the server this step's grant is asked of (Jira, then Confluence, or Bitbucket),
   * and (sealed) what the earlier steps of the same link obtained; null on Cloud.
   */
  server: text("server").$type<"jira" | "confluence" | "bitbucket">(),
  carriedSealed: text("carried_sealed"),
  returnTo: text("return_to"),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});

export type IntegrationConfigRow = typeof integrationConfigs.$inferSelect;
export type UpstreamSyncRow = typeof upstreamSync.$inferSelect;

/**
 * OAuth clients of the authorization server (docs/decisions.md#oauth-client-secrets,
 * #oauth-authorization-server). A confidential client's secret is sealed with the secret box (the
 * console shows it to those who manage clients); a public client has none and must use PKCE.
 */
export const oauthClients = pgTable(
  "oauth_clients",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    clientId: text("client_id").notNull(),
    name: text("name").notNull(),
    secretSealed: text("secret_sealed"),
    redirectUris: jsonb("redirect_uris").$type<string[]>().notNull(),
    scopes: jsonb("scopes").$type<string[]>().notNull(),
    grantTypes: jsonb("grant_types").$type<string[]>().notNull(),
    /** client_secret_basic, client_secret_post or none (public). */
    tokenEndpointAuthMethod: text("token_endpoint_auth_method").notNull(),
    isActive: boolean("is_active").notNull().default(true),
    /** "console" or "dynamic" (RFC 7591 registration). */
    registeredVia: text("registered_via").notNull().default("console"),
    /** What the administrator lets this client touch (contract/policy.ts); null: nothing restricted. */
    policy: jsonb("policy").$type<ClientPolicy>(),
    createdBy: uuid("created_by"),
    ...timestamps,
  },
  (t) => [uniqueIndex("oauth_clients_client_id_key").on(t.clientId)],
);

/**
 * One consent (or one client_credentials issuance): the family every code, access and refresh
 * token descends from. Revoking it revokes them all. A live grant is an "active OAuth session".
 */
export const oauthGrants = pgTable(
  "oauth_grants",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    clientId: uuid("client_id")
      .notNull()
      .references(() => oauthClients.id, { onDelete: "cascade" }),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    scopes: jsonb("scopes").$type<string[]>().notNull(),
    resource: text("resource").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    revokedReason: text("revoked_reason"),
  },
  (t) => [
    index("oauth_grants_client_id_idx").on(t.clientId),
    index("oauth_grants_user_id_idx").on(t.userId),
    index("oauth_grants_live_idx").on(t.expiresAt),
  ],
);

/** Authorization requests waiting for the user's consent (single use, short-lived). */
export const oauthPendingRequests = pgTable("oauth_pending_requests", {
  id: text("id").primaryKey(),
  clientId: uuid("client_id")
    .notNull()
    .references(() => oauthClients.id, { onDelete: "cascade" }),
  redirectUri: text("redirect_uri").notNull(),
  scopes: jsonb("scopes").$type<string[]>().notNull(),
  resource: text("resource").notNull(),
  state: text("state"),
  codeChallenge: text("code_challenge").notNull(),
  /** Whether the request named its redirect_uri (then the token request must repeat it). */
  redirectUriExplicit: boolean("redirect_uri_explicit").notNull().default(true),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});

/** Authorization codes, stored as SHA-256 hashes; single use (RFC 9700 §4.2.4). */
export const oauthCodes = pgTable("oauth_codes", {
  codeHash: text("code_hash").primaryKey(),
  grantId: uuid("grant_id")
    .notNull()
    .references(() => oauthGrants.id, { onDelete: "cascade" }),
  redirectUri: text("redirect_uri").notNull(),
  redirectUriExplicit: boolean("redirect_uri_explicit").notNull().default(true),
  codeChallenge: text("code_challenge").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  consumedAt: timestamp("consumed_at", { withTimezone: true }),
});

/** Access and refresh tokens, stored as SHA-256 hashes. A rotated refresh token keeps its row (reuse detection). */
export const oauthTokens = pgTable(
  "oauth_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    kind: text("kind").notNull(),
    grantId: uuid("grant_id")
      .notNull()
      .references(() => oauthGrants.id, { onDelete: "cascade" }),
    scopes: jsonb("scopes").$type<string[]>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /** Refresh tokens: when it was exchanged for a new one. Presenting it again revokes the family. */
    rotatedAt: timestamp("rotated_at", { withTimezone: true }),
    /**
     * Refresh tokens, for a few seconds after rotation: the pair it was exchanged for, sealed, so a
     * parallel refresh with the same token gets the same pair instead of revoking the family.
     */
    successorSealed: text("successor_sealed"),
  },
  (t) => [index("oauth_tokens_grant_id_idx").on(t.grantId), index("oauth_tokens_expires_at_idx").on(t.expiresAt)],
);

export type OAuthClientRow = typeof oauthClients.$inferSelect;
export type OAuthGrantRow = typeof oauthGrants.$inferSelect;
export type OAuthCodeRow = typeof oauthCodes.$inferSelect;
export type OAuthTokenRow = typeof oauthTokens.$inferSelect;
export type OAuthPendingRequestRow = typeof oauthPendingRequests.$inferSelect;

/**
 * The tool-call audit (issue 11 item 5): one row per MCP tool call, whoever made it and however
 * it ended, with what it read or changed upstream.
 */
export const toolCalls = pgTable(
  "tool_calls",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    at: timestamp("at", { withTimezone: true }).notNull(),
    /** The OAuth client (its public client_id); no foreign key, so rows outlive deleted clients. */
    clientId: text("client_id").notNull(),
    userId: uuid("user_id"),
    tool: text("tool").notNull(),
    /** The arguments, redacted: long text replaced by its length, everything bounded. */
    arguments: jsonb("arguments").$type<Record<string, unknown>>().notNull(),
    /** "ok" or "error" (a tool result with isError). */
    outcome: text("outcome").notNull(),
    /** The sentence of an error result, bounded. */
    error: text("error"),
    durationMs: real("duration_ms").notNull(),
    /** Upstream objects read or changed: issue keys, page ids, workspace/repo#pr. */
    objects: jsonb("objects").$type<string[]>().notNull(),
    /** The HTTP request's X-Request-Id, to find its request log row. */
    requestId: text("request_id"),
    /** Whom the call acted as upstream (issue 27): "shared", or the person's account id; null when it reached nothing. */
    upstreamIdentity: text("upstream_identity"),
  },
  (t) => [index("tool_calls_at_idx").on(t.at), index("tool_calls_request_id_idx").on(t.requestId)],
);
export type ToolCallRow = typeof toolCalls.$inferSelect;
export type NewToolCallRow = typeof toolCalls.$inferInsert;

/**
 * The request log (docs/decisions.md#request-log): one row per request to the MCP, OAuth, proxy and
 * admin endpoints, written in batches off the request path. The path is stored without its query
 * (query values may be secrets).
 */
export const requestLogs = pgTable(
  "request_logs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    at: timestamp("at", { withTimezone: true }).notNull(),
    method: text("method").notNull(),
    path: text("path").notNull(),
    statusCode: integer("status_code").notNull(),
    durationMs: real("duration_ms").notNull(),
    /** The OAuth client of a bearer request; no foreign key, so rows outlive deleted clients. */
    clientId: text("client_id"),
    /** The user of a console session or of a user-bound token; no foreign key either. */
    userId: uuid("user_id"),
    ip: text("ip"),
    userAgent: text("user_agent"),
    /** MCP: the JSON-RPC method, and the tool of a tools/call. */
    rpcMethod: text("rpc_method"),
    toolName: text("tool_name"),
    /** The request's X-Request-Id: its tool-call audit row carries the same. */
    requestId: text("request_id"),
    /** The request headers that are safe to show (request-log.ts SHOWN_HEADERS), bounded; never credentials or cookies. */
    headers: jsonb("headers").$type<Record<string, string>>(),
    /** MCP: how the JSON-RPC answer ended (contract/logs.ts MCP_OUTCOMES); null for other requests and unanswered ones. */
    outcome: text("outcome"),
    /** The sentence of a tool error or the message of a JSON-RPC error, bounded. */
    error: text("error"),
  },
  (t) => [index("request_logs_at_idx").on(t.at)],
);

/**
 * The request log summed per minute, method and status (docs/decisions.md#measured-numbers):
 * written in the same statement as the rows it counts, so the dashboard's hourly figures, the Logs
 * screen's totals and the charts read a few hundred small rows instead of scanning the log. Pruned
 * with the log, at a minute boundary.
 */
export const requestLogMinutes = pgTable(
  "request_log_minutes",
  {
    minute: timestamp("minute", { withTimezone: true }).notNull(),
    method: text("method").notNull(),
    statusCode: integer("status_code").notNull(),
    /** The console's own API calls (/api/admin/…), apart from MCP, OAuth and proxy traffic. */
    console: boolean("console").notNull().default(false),
    requests: integer("requests").notNull(),
    durationMsSum: doublePrecision("duration_ms_sum").notNull(),
    /** MCP answers that failed under a status below 400: a tool error or a JSON-RPC error. */
    mcpErrors: integer("mcp_errors").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.minute, t.method, t.statusCode, t.console] })],
);

/**
 * Long-lived streams (/api/sse/stream, /sse, subscriptions/listen) while they live, and after
 * (docs/decisions.md#mcp-transports, spec §3).
 */
export const sseConnections = pgTable(
  "sse_connections",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    connectionId: text("connection_id").notNull(),
    kind: text("kind").notNull(),
    clientId: text("client_id").notNull(),
    userId: uuid("user_id"),
    ip: text("ip"),
    userAgent: text("user_agent"),
    /** The process that holds the stream (hostname:pid:random). */
    instanceId: text("instance_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    lastHeartbeat: timestamp("last_heartbeat", { withTimezone: true }).notNull(),
    closedAt: timestamp("closed_at", { withTimezone: true }),
    isActive: boolean("is_active").notNull().default(true),
  },
  (t) => [
    uniqueIndex("sse_connections_connection_id_key").on(t.connectionId),
    index("sse_connections_active_idx").on(t.isActive, t.lastHeartbeat),
    // A client's open streams, counted on each new one (RATE_LIMIT_SSE_MAX_CONCURRENT across instances).
    index("sse_connections_client_active_idx")
      .on(t.clientId)
      .where(sql`${t.isActive}`),
    index("sse_connections_created_at_idx").on(t.createdAt),
  ],
);

export type RequestLogRow = typeof requestLogs.$inferSelect;
export type NewRequestLogRow = typeof requestLogs.$inferInsert;
export type SseConnectionRow = typeof sseConnections.$inferSelect;

/**
 * AI providers of the chat (spec §2 AI Providers; docs/decisions.md#secrets-at-rest,
 * #write-only-secrets): the API key is sealed with the secret
 * box and only its last four characters are kept in clear, for the card's reveal. A local
 * OpenAI-compatible server may have no key (both null) and has a base URL.
 */
export const aiProviders = pgTable("ai_providers", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  provider: text("provider").notNull(),
  model: text("model").notNull(),
  baseUrl: text("base_url"),
  keySealed: text("key_sealed"),
  keyHint: text("key_hint"),
  isActive: boolean("is_active").notNull().default(true),
  createdBy: uuid("created_by"),
  ...timestamps,
});

export type AiProviderRow = typeof aiProviders.$inferSelect;
export type NewAiProviderRow = typeof aiProviders.$inferInsert;

/** A user's chat conversation (docs/decisions.md#chat-conversations): stored per user, listed newest first. */
export const chatConversations = pgTable(
  "chat_conversations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    /** The provider of its last turn; kept when that provider is deleted (set null). */
    providerId: uuid("provider_id").references(() => aiProviders.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (t) => [index("chat_conversations_user_updated_idx").on(t.userId, t.updatedAt)],
);

/** One message of a conversation: the user's text, or the assistant's answer with its tool calls. */
export const chatMessages = pgTable(
  "chat_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    conversationId: uuid("conversation_id")
      .notNull()
      .references(() => chatConversations.id, { onDelete: "cascade" }),
    role: text("role").notNull(),
    content: text("content").notNull(),
    mcpCalls: jsonb("mcp_calls").$type<{ tool: string; results: number; error?: string | null }[]>().notNull().default([]),
    citations: jsonb("citations")
      .$type<{ kind: "jira" | "confluence" | "bitbucket"; title: string; url: string }[]>()
      .notNull()
      .default([]),
    usage: jsonb("usage").$type<{ inputTokens: number | null; outputTokens: number | null }>(),
    /** "complete", "stopped" (the user pressed Stop) or "error" (the provider failed mid-reply). */
    status: text("status").notNull().default("complete"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("chat_messages_conversation_idx").on(t.conversationId, t.createdAt)],
);

export type ChatConversationRow = typeof chatConversations.$inferSelect;
export type ChatMessageRow = typeof chatMessages.$inferSelect;

/**
 * The shared rate-limit counters (issue 29 item 2), in the shape rate-limiter-flexible's
 * PostgreSQL store reads and writes: one row per limiter key, its points and when they expire
 * (epoch ms). Only used with DATABASE_URL; rows past their expiry are swept.
 */
export const rateLimits = pgTable("rate_limits", {
  key: varchar("key", { length: 255 }).primaryKey(),
  points: integer("points").notNull().default(0),
  expire: bigint("expire", { mode: "number" }),
});

/**
 * A delivery to a stream another instance holds (issue 29 item 1) too large for a PostgreSQL
 * notification: written here, named in the notification, taken (deleted) by the holder. Rows never
 * taken are swept after five minutes.
 */
export const streamDeliveries = pgTable("stream_deliveries", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  payload: text("payload").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** When each cluster-wide job last ran, and where (issue 29 item 4; server/cluster/jobs.ts). */
export const jobRuns = pgTable("job_runs", {
  name: text("name").primaryKey(),
  lastRunAt: timestamp("last_run_at", { withTimezone: true }).notNull(),
  instanceId: text("instance_id").notNull(),
});

/**
 * The instances serving on this database (issue 29 item 5): each process's row, renewed every 15 s
 * and removed when it stops; one silent for 45 s is gone (a crash, a lost machine), and its row is
 * dropped after an hour. The Dashboard's Server Status card lists the live ones.
 */
export const instances = pgTable("instances", {
  id: text("id").primaryKey(),
  version: text("version").notNull(),
  hostname: text("hostname").notNull(),
  startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
  lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull(),
});
