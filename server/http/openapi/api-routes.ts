import { z } from "zod";
import { AiProviderCreateSchema, AiProviderUpdateSchema } from "../../../contract/ai-providers";
import { AuditQuerySchema } from "../../../contract/audit";
import { ApiTokenLinkInputSchema, AuthorizeLinkInputSchema, IdentitySettingsInputSchema, INTEGRATIONS } from "../../../contract/accounts";
import { LoginSchema } from "../../../contract/auth";
import { ChatSendSchema, ConversationRenameSchema, GenerateSystemMessageSchema } from "../../../contract/chat";
import { ConnectionIdParamSchema } from "../../../contract/connections";
import type { ErrorCode } from "../../../contract/errors";
import { AtlassianConfigInputSchema, BitbucketConfigInputSchema } from "../../../contract/integrations";
import { LogFilterSchema, LogQuerySchema } from "../../../contract/logs";
import { ConsentDecisionSchema, OAuthClientCreateSchema, OAuthClientUpdateSchema } from "../../../contract/oauth";
import type { PermissionKey } from "../../../contract/permissions";
import { ClientPolicySchema } from "../../../contract/policy";
import { ToolCallQuerySchema } from "../../../contract/tool-calls";
import { RoleCreateSchema, RoleUpdateSchema, UserCreateSchema, UserRolesUpdateSchema, UserUpdateSchema } from "../../../contract/users";
import * as R from "./response-schemas";

/** Who may call a route, as the authorization matrix writes it (server/test/authz-matrix.ts). */
type AccessLabel = "public" | "session" | PermissionKey | "bearer:read";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** A success answer: JSON by default, or the media types a route really sends (a stream, a file). */
export interface Answer {
  status: number;
  description: string;
  json?: z.ZodType;
  content?: Record<string, z.ZodType>;
  headers?: z.ZodObject;
}

/**
 * One /api route as the OpenAPI document states it. The request schemas are the contract/
 * schemas the route parses its input with; the answers are response-schemas.ts.
 */
export interface ApiRoute {
  method: HttpMethod;
  /** The path as Express declares it under the app: `:id` a parameter, `*path` the rest of the path. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  access: AccessLabel;
  /** Schemas of the path parameters; a parameter not named here is a plain string. */
  params?: Record<string, z.ZodType>;
  query?: z.ZodType;
  body?: z.ZodType;
  ok: Answer | Answer[];
  /** Error codes this route answers beyond those its access, input and path parameters imply. */
  errors?: ErrorCode[];
  /** How the route writes its own refusals: the house error body, or (the MCP pipeline's JSON-RPC paths) a JSON-RPC error. */
  errorForm?: "house" | "json-rpc";
}

const json = (schema: z.ZodType, description = "OK"): Answer => ({ status: 200, description, json: schema });
const created = (schema: z.ZodType, description = "Created"): Answer => ({ status: 201, description, json: schema });
const noContent = (description = "Done; no body"): Answer => ({ status: 204, description });
const list = (schema: z.ZodType, description = "OK") => json(z.array(schema), description);

const uuid = z.uuid();
const integrationParam = z.enum(INTEGRATIONS).meta({ description: "atlassian or bitbucket" });
/** A client id in a path: ours, or a Client ID Metadata Document's https URL, percent-encoded. */
const clientIdParam = z.string().meta({ description: "The client's client_id (a metadata document's URL, percent-encoded)" });
const consentIdParam = z
  .string()
  .regex(/^[\w-]{10,100}$/)
  .meta({ description: "The pending authorization request's id, from the consent page's address" });
const upstreamPath = z
  .string()
  .meta({ description: "The upstream REST path after the prefix, slashes included (for example rest/api/3/myself)" });
const CSV = z.string().meta({ description: "RFC 4180 CSV with a header row, CRLF line ends" });
const EVENT_STREAM = z.string().meta({ description: "Server-sent events (text/event-stream)" });
/** The upstream's answer as it came: its JSON when it said application/json, anything else as plain text. */
const UPSTREAM_ANSWER = {
  "application/json": z.unknown().meta({ description: "The upstream's JSON, as it came" }),
  "text/plain": z.string().meta({ description: "Any other answer of the upstream, as text" }),
};
/** A JSON-RPC 2.0 message (MCP); the protocol is the MCP specification's, not restated here. */
const JsonRpcMessage = z
  .looseObject({
    jsonrpc: z.literal("2.0"),
    method: z.string().optional(),
    id: z.union([z.string(), z.number(), z.null()]).optional(),
    params: z.unknown().optional(),
    result: z.unknown().optional(),
    error: z.unknown().optional(),
  })
  .meta({ id: "JsonRpcMessage", description: "A JSON-RPC 2.0 message of the Model Context Protocol" });

const UPSTREAM_ERRORS: ErrorCode[] = ["upstream_failed", "service_unavailable", "upstream_timeout"];
const PROXY_DESCRIPTION =
  "With the server's stored credentials, for a client whose policy does not restrict the service (403 forbidden otherwise). The upstream's status is passed on with its body: an upstream 404 is a 404 here, in the upstream's words.";

export const API_ROUTES: readonly ApiRoute[] = [
  {
    method: "GET",
    path: "/api/mcp/health",
    tag: "Health",
    summary: "Server health",
    description:
      "Public and cheap; 503 (same body) when the database does not answer (status degraded) or the process is draining before it stops (status draining).",
    access: "public",
    ok: [
      json(R.HealthSchema, "Healthy"),
      { status: 503, description: "Degraded (the database does not answer) or draining (stopping)", json: R.HealthSchema },
    ],
  },
  {
    method: "GET",
    path: "/api/mcp/health/live",
    tag: "Health",
    summary: "Process liveness",
    description:
      "Public; 200 whenever this process answers HTTP, whatever its database (a liveness probe's question: /api/mcp/health is the readiness one).",
    access: "public",
    ok: json(R.LivenessSchema, "The process answers"),
  },
  {
    method: "GET",
    path: "/api/openapi.json",
    tag: "API",
    summary: "This OpenAPI document",
    access: "session",
    ok: json(R.OpenApiDocumentSchema, "The OpenAPI 3.1 document of /api"),
  },

  // Signing in.
  {
    method: "POST",
    path: "/api/login",
    tag: "Session",
    summary: "Sign in",
    description: "Sets the session cookie.",
    access: "public",
    body: LoginSchema,
    ok: json(R.SessionResponseSchema, "Signed in"),
    errors: ["invalid_credentials", "account_inactive", "rate_limited"],
  },
  {
    method: "POST",
    path: "/api/logout",
    tag: "Session",
    summary: "Sign out",
    description: "Ends the session (if any) and clears the cookie.",
    access: "public",
    ok: noContent(),
  },
  {
    method: "GET",
    path: "/api/session",
    tag: "Session",
    summary: "The signed-in user, their roles and permissions",
    access: "session",
    ok: json(R.SessionResponseSchema),
  },
  {
    method: "GET",
    path: "/api/mcp-connection",
    tag: "Session",
    summary: "What an AI client needs to connect: the MCP address and the sign-in mode",
    access: "session",
    ok: json(R.McpConnectionSchema),
  },
  {
    method: "GET",
    path: "/api/setup-status",
    tag: "Session",
    summary: "The Dashboard's Get started checklist",
    access: "config.write",
    ok: json(R.SetupStatusSchema),
  },

  // Users and roles.
  { method: "GET", path: "/api/users", tag: "Users", summary: "List users", access: "users.read", ok: list(R.UserSchema) },
  {
    method: "POST",
    path: "/api/users",
    tag: "Users",
    summary: "Create a user",
    access: "users.write",
    body: UserCreateSchema,
    ok: created(R.UserSchema),
    errors: ["conflict"],
  },
  {
    method: "GET",
    path: "/api/users/:id",
    tag: "Users",
    summary: "One user",
    access: "users.read",
    params: { id: uuid },
    ok: json(R.UserSchema),
  },
  {
    method: "PUT",
    path: "/api/users/:id",
    tag: "Users",
    summary: "Change a user (any subset of the fields)",
    access: "users.write",
    params: { id: uuid },
    body: UserUpdateSchema,
    ok: json(R.UserSchema),
    errors: ["conflict"],
  },
  {
    method: "DELETE",
    path: "/api/users/:id",
    tag: "Users",
    summary: "Delete a user",
    access: "users.write",
    params: { id: uuid },
    ok: noContent(),
    errors: ["conflict"],
  },
  {
    method: "GET",
    path: "/api/users/:id/roles",
    tag: "Users",
    summary: "A user's roles",
    access: "users.read",
    params: { id: uuid },
    ok: list(R.RoleSummarySchema),
  },
  {
    method: "PUT",
    path: "/api/users/:id/roles",
    tag: "Users",
    summary: "Set a user's roles",
    access: "users.write",
    params: { id: uuid },
    body: UserRolesUpdateSchema,
    ok: list(R.RoleSummarySchema),
    errors: ["conflict"],
  },
  {
    method: "GET",
    path: "/api/roles",
    tag: "Roles",
    summary: "List roles with their permissions",
    access: "roles.read",
    ok: list(R.RoleSchema),
  },
  {
    method: "GET",
    path: "/api/permissions",
    tag: "Roles",
    summary: "The permission catalogue the roles editor picks from",
    access: "roles.read",
    ok: list(R.PermissionSchema),
  },
  {
    method: "POST",
    path: "/api/roles",
    tag: "Roles",
    summary: "Create a role",
    access: "roles.write",
    body: RoleCreateSchema,
    ok: created(R.RoleSchema),
    errors: ["conflict"],
  },
  {
    method: "PUT",
    path: "/api/roles/:id",
    tag: "Roles",
    summary: "Change a role (built-in roles cannot be changed)",
    access: "roles.write",
    params: { id: uuid },
    body: RoleUpdateSchema,
    ok: json(R.RoleSchema),
    errors: ["conflict"],
  },
  {
    method: "DELETE",
    path: "/api/roles/:id",
    tag: "Roles",
    summary: "Delete a role (built-in roles cannot be deleted)",
    access: "roles.write",
    params: { id: uuid },
    ok: noContent(),
    errors: ["conflict"],
  },
  {
    method: "GET",
    path: "/api/admin/audit",
    tag: "Audit",
    summary: "The audit trail, newest first",
    description: "The next page is asked for with `cursor` = this page's `nextCursor`.",
    access: "audit.read",
    query: AuditQuerySchema,
    ok: json(R.AuditPageSchema),
  },

  // Integrations.
  {
    method: "GET",
    path: "/api/admin/atlassian-config",
    tag: "Integrations",
    summary: "The stored Atlassian configuration (the token only as a hint)",
    access: "config.read",
    ok: json(R.AtlassianConfigSchema),
  },
  {
    method: "POST",
    path: "/api/admin/atlassian-config",
    tag: "Integrations",
    summary: "Save the Atlassian configuration",
    description: "A blank apiToken keeps the stored one.",
    access: "config.write",
    body: AtlassianConfigInputSchema,
    ok: json(R.AtlassianConfigSchema),
  },
  {
    method: "GET",
    path: "/api/admin/bitbucket-config",
    tag: "Integrations",
    summary: "The stored Bitbucket configuration (the app password only as a hint)",
    access: "config.read",
    ok: json(R.BitbucketConfigSchema),
  },
  {
    method: "POST",
    path: "/api/admin/bitbucket-config",
    tag: "Integrations",
    summary: "Save the Bitbucket configuration",
    description: "A blank appPassword keeps the stored one.",
    access: "config.write",
    body: BitbucketConfigInputSchema,
    ok: json(R.BitbucketConfigSchema),
  },
  {
    method: "POST",
    path: "/api/admin/test-atlassian",
    tag: "Integrations",
    summary: "Test the Atlassian connection with the stored credentials",
    access: "config.write",
    ok: json(R.AtlassianTestResultSchema, "The outcome, with the reason when a service is down"),
    errors: ["bad_request"],
  },
  {
    method: "POST",
    path: "/api/admin/test-bitbucket",
    tag: "Integrations",
    summary: "Test the Bitbucket connection with the stored credentials",
    access: "config.write",
    ok: json(R.BitbucketTestResultSchema, "The outcome, with the reason when it is down"),
    errors: ["bad_request"],
  },
  {
    method: "GET",
    path: "/api/admin/config",
    tag: "Integrations",
    summary: "The server settings in force, secrets masked",
    access: "config.read",
    ok: list(R.ConfigEntrySchema),
  },
  {
    method: "GET",
    path: "/api/atlassian-status",
    tag: "Integrations",
    summary: "Jira and Confluence status and measured API use",
    access: "stats.read",
    ok: json(R.AtlassianStatusSchema),
  },
  {
    method: "GET",
    path: "/api/admin/atlassian-status",
    tag: "Integrations",
    summary: "Jira and Confluence status (the admin pages' name for /api/atlassian-status)",
    access: "stats.read",
    ok: json(R.AtlassianStatusSchema),
  },
  {
    method: "GET",
    path: "/api/bitbucket-status",
    tag: "Integrations",
    summary: "Bitbucket status and measured API use",
    access: "stats.read",
    ok: json(R.BitbucketStatusSchema),
  },

  // OAuth clients and the consent page.
  {
    method: "GET",
    path: "/api/admin/oauth-clients",
    tag: "OAuth clients",
    summary: "List OAuth clients",
    description: "`clientSecret` only for callers with oauth-clients.write.",
    access: "oauth-clients.read",
    ok: list(R.OAuthClientSchema),
  },
  {
    method: "POST",
    path: "/api/admin/oauth-clients",
    tag: "OAuth clients",
    summary: "Create an OAuth client",
    access: "oauth-clients.write",
    body: OAuthClientCreateSchema,
    ok: created(R.OAuthClientSchema),
  },
  {
    method: "PATCH",
    path: "/api/admin/oauth-clients/:clientId",
    tag: "OAuth clients",
    summary: "Activate or deactivate a client",
    access: "oauth-clients.write",
    params: { clientId: clientIdParam },
    body: OAuthClientUpdateSchema,
    ok: json(R.OAuthClientSchema),
  },
  {
    method: "POST",
    path: "/api/admin/oauth-clients/:clientId/secret",
    tag: "OAuth clients",
    summary: "Issue a new client secret",
    access: "oauth-clients.write",
    params: { clientId: clientIdParam },
    ok: json(R.OAuthClientSchema),
    errors: ["conflict"],
  },
  {
    method: "GET",
    path: "/api/admin/oauth-clients/:clientId/policy",
    tag: "OAuth clients",
    summary: "What the client's AI may touch",
    access: "oauth-clients.read",
    params: { clientId: clientIdParam },
    ok: json(R.ClientPolicyOutSchema),
  },
  {
    method: "PUT",
    path: "/api/admin/oauth-clients/:clientId/policy",
    tag: "OAuth clients",
    summary: "Set what the client's AI may touch",
    description: "`disabledTools` must name tools of this server (400 otherwise).",
    access: "oauth-clients.write",
    params: { clientId: clientIdParam },
    body: ClientPolicySchema,
    ok: json(R.ClientPolicyOutSchema, "The policy as stored"),
  },
  {
    method: "GET",
    path: "/api/admin/policy-options",
    tag: "OAuth clients",
    summary: "What the policy editor picks from: projects, spaces, repositories and tools",
    access: "oauth-clients.write",
    ok: json(R.PolicyOptionsSchema),
  },
  {
    method: "DELETE",
    path: "/api/admin/oauth-clients/:clientId",
    tag: "OAuth clients",
    summary: "Delete a client (its tokens die with it)",
    access: "oauth-clients.write",
    params: { clientId: clientIdParam },
    ok: noContent(),
  },
  {
    method: "GET",
    path: "/api/oauth/requests/:id",
    tag: "Consent",
    summary: "A pending authorization request, as the consent page shows it",
    access: "session",
    params: { id: consentIdParam },
    ok: json(R.ConsentRequestSchema),
  },
  {
    method: "POST",
    path: "/api/oauth/requests/:id/decision",
    tag: "Consent",
    summary: "Approve or deny a pending authorization request",
    access: "session",
    params: { id: consentIdParam },
    body: ConsentDecisionSchema,
    ok: json(R.ConsentDecisionResultSchema),
    errors: ["forbidden"],
  },

  // The read-only proxies, for OAuth clients.
  ...(["jira", "confluence"] as const).map((service): ApiRoute => ({
    method: "GET",
    path: `/api/atlassian/${service}/*path`,
    tag: "Proxy",
    summary: `Pass a GET through to the ${service === "jira" ? "Jira" : "Confluence"} REST API`,
    description: PROXY_DESCRIPTION,
    access: "bearer:read",
    params: { path: upstreamPath },
    ok: { status: 200, description: "The upstream's answer", content: UPSTREAM_ANSWER },
    errors: ["bad_request", "forbidden", "rate_limited", ...UPSTREAM_ERRORS],
  })),
  {
    method: "GET",
    path: "/api/bitbucket/*path",
    tag: "Proxy",
    summary: "Pass a GET through to the Bitbucket REST API",
    description: PROXY_DESCRIPTION,
    access: "bearer:read",
    params: { path: upstreamPath },
    ok: { status: 200, description: "The upstream's answer", content: UPSTREAM_ANSWER },
    errors: ["bad_request", "forbidden", "rate_limited", ...UPSTREAM_ERRORS],
  },

  // Request log, tool calls, statistics, streams.
  {
    method: "GET",
    path: "/api/admin/logs",
    tag: "Request log",
    summary: "Request log entries, newest first",
    description: 'The next page\'s cursor travels in `X-Next-Cursor` and a `Link: <…>; rel="next"` header.',
    access: "logs.read",
    query: LogQuerySchema,
    ok: {
      status: 200,
      description: "One page",
      json: z.array(R.LogEntrySchema),
      headers: z.object({ "X-Next-Cursor": z.string().optional(), Link: z.string().optional() }),
    },
  },
  {
    method: "GET",
    path: "/api/admin/logs/summary",
    tag: "Request log",
    summary: "The four stat cards over every entry the filters match",
    access: "logs.read",
    query: LogFilterSchema,
    ok: json(R.LogSummarySchema),
  },
  {
    method: "GET",
    path: "/api/admin/logs/export",
    tag: "Request log",
    summary: "Every entry the filters match, as CSV",
    description: "Streamed; a failure after the first row cuts the download rather than sending a short file.",
    access: "logs.read",
    query: LogFilterSchema,
    ok: {
      status: 200,
      description: "The CSV file (`mcp-server-logs-YYYY-MM-DD.csv`)",
      content: { "text/csv": CSV },
      headers: z.object({ "Content-Disposition": z.string() }),
    },
  },
  {
    method: "GET",
    path: "/api/admin/logs/:id",
    tag: "Request log",
    summary: "One entry with its safe headers and its tool call",
    access: "logs.read",
    params: { id: uuid },
    ok: json(R.LogEntryDetailSchema),
  },
  {
    method: "GET",
    path: "/api/admin/tool-calls",
    tag: "Tool calls",
    summary: "The tool-call audit, newest first",
    access: "audit.read",
    query: ToolCallQuerySchema,
    ok: json(R.ToolCallPageSchema),
  },
  {
    method: "GET",
    path: "/api/stats",
    tag: "Statistics",
    summary: "The dashboard's figures",
    access: "stats.read",
    ok: json(R.StatsSchema),
  },
  {
    method: "GET",
    path: "/api/admin/stats",
    tag: "Statistics",
    summary: "The dashboard's figures (the admin pages' name for /api/stats)",
    access: "stats.read",
    ok: json(R.StatsSchema),
  },
  {
    method: "GET",
    path: "/api/admin/endpoint-stats",
    tag: "Statistics",
    summary: "Requests and median response time per endpoint, last hour",
    access: "stats.read",
    ok: list(R.EndpointStatSchema),
  },
  {
    method: "GET",
    path: "/api/admin/stats/traffic",
    tag: "Statistics",
    summary: "Requests, errors and upstream calls per minute, last 60 minutes",
    access: "stats.read",
    ok: list(R.TrafficMinuteSchema),
  },
  {
    method: "GET",
    path: "/api/admin/sse-connections",
    tag: "SSE connections",
    summary: "Long-lived streams, live and recently ended",
    access: "sse-connections.read",
    ok: list(R.SseConnectionSchema),
  },
  {
    method: "DELETE",
    path: "/api/admin/sse-connections/:connectionId",
    tag: "SSE connections",
    summary: "End a live stream",
    access: "sse-connections.write",
    params: { connectionId: ConnectionIdParamSchema.shape.connectionId },
    ok: noContent(),
  },

  // AI providers and the chat.
  {
    method: "GET",
    path: "/api/ai-providers",
    tag: "AI providers",
    summary: "List AI providers (keys only as hints)",
    access: "ai-providers.read",
    ok: list(R.AiProviderOutSchema),
  },
  {
    method: "POST",
    path: "/api/ai-providers",
    tag: "AI providers",
    summary: "Add an AI provider",
    access: "ai-providers.write",
    body: AiProviderCreateSchema,
    ok: created(R.AiProviderOutSchema),
  },
  {
    method: "PATCH",
    path: "/api/ai-providers/:id",
    tag: "AI providers",
    summary: "Change an AI provider (a blank apiKey keeps the stored one)",
    access: "ai-providers.write",
    params: { id: uuid },
    body: AiProviderUpdateSchema,
    ok: json(R.AiProviderOutSchema),
  },
  {
    method: "DELETE",
    path: "/api/ai-providers/:id",
    tag: "AI providers",
    summary: "Delete an AI provider",
    access: "ai-providers.write",
    params: { id: uuid },
    ok: noContent(),
  },
  {
    method: "POST",
    path: "/api/ai-providers/:id/test",
    tag: "AI providers",
    summary: "A one-token call with the stored key",
    access: "ai-providers.write",
    params: { id: uuid },
    ok: json(R.AiProviderTestResultSchema, "The provider's answer or its reason (never a 500)"),
    errors: ["conflict"],
  },
  {
    method: "GET",
    path: "/api/chat/providers",
    tag: "Chat",
    summary: "The active providers the chat may use",
    access: "session",
    ok: list(R.ChatProviderOutSchema),
  },
  {
    method: "POST",
    path: "/api/chat/send",
    tag: "Chat",
    summary: "Send a chat message and get the assistant's reply",
    description:
      "With `Accept: text/event-stream` the same turn streams as server-sent events named `start`, `text`, `tool-start`, `tool-end`, `done` (the reply) and `error` (contract/chat.ts ChatStreamEvent). Closing the request stops the turn.",
    access: "session",
    body: ChatSendSchema,
    ok: {
      status: 200,
      description: "The assistant's reply, or its event stream",
      content: { "application/json": R.ChatReplyOutSchema, "text/event-stream": EVENT_STREAM },
    },
    errors: ["provider_inactive", "conflict", ...UPSTREAM_ERRORS],
  },
  {
    method: "POST",
    path: "/api/chat/generate-system-message",
    tag: "Chat",
    summary: "Ask the provider for a system message",
    access: "session",
    body: GenerateSystemMessageSchema,
    ok: json(R.SystemMessageSchema),
    errors: ["provider_inactive", "conflict", ...UPSTREAM_ERRORS],
  },
  {
    method: "GET",
    path: "/api/chat/conversations",
    tag: "Chat",
    summary: "The caller's conversations",
    access: "session",
    ok: list(R.ConversationOutSchema),
  },
  {
    method: "GET",
    path: "/api/chat/conversations/:id",
    tag: "Chat",
    summary: "One of the caller's conversations, with its messages",
    access: "session",
    params: { id: uuid },
    ok: json(R.ConversationDetailOutSchema),
  },
  {
    method: "PATCH",
    path: "/api/chat/conversations/:id",
    tag: "Chat",
    summary: "Rename one of the caller's conversations",
    access: "session",
    params: { id: uuid },
    body: ConversationRenameSchema,
    ok: json(R.ConversationOutSchema),
  },
  {
    method: "DELETE",
    path: "/api/chat/conversations/:id",
    tag: "Chat",
    summary: "Delete one of the caller's conversations",
    access: "session",
    params: { id: uuid },
    ok: noContent(),
  },

  // Acting as the person (issue 27): a person's own accounts, the services' callbacks, the identity settings.
  {
    method: "GET",
    path: "/api/account/links",
    tag: "My accounts",
    summary: "The caller's own linked accounts, and how each integration is used",
    access: "session",
    ok: json(R.MyAccountsSchema),
  },
  {
    method: "POST",
    path: "/api/account/links/:integration/authorize",
    tag: "My accounts",
    summary: "Start linking the caller's account with the service's OAuth: where the browser goes to consent",
    description: "The attempt is bound to this session, single use, and lives 10 minutes (state and PKCE).",
    access: "session",
    params: { integration: integrationParam },
    body: AuthorizeLinkInputSchema,
    ok: json(R.AuthorizeUrlSchema),
    errors: ["conflict"],
  },
  {
    method: "GET",
    path: "/api/account/links/:integration/callback",
    tag: "My accounts",
    summary: "The service's OAuth callback (register it with the app): finishes the link, then back to the console",
    description:
      "Answers 303 to where linking started, or to `/account?integration=…&linked=1` or `…&link_error=denied|expired|session|code|site|account|upstream|not-offered`. Nothing is stored unless every check passes.",
    access: "public",
    params: { integration: integrationParam },
    query: z.object({ code: z.string().optional(), state: z.string().optional(), error: z.string().optional() }),
    ok: { status: 303, description: "To the console page, with the outcome", headers: z.object({ Location: z.string() }) },
  },
  {
    method: "POST",
    path: "/api/account/links/:integration/api-token",
    tag: "My accounts",
    summary: "Link the caller's account with a personal API token (where the administrator allows it)",
    description: "The service is asked who the token belongs to first; a refused token is a 400 on `apiToken`, and nothing is stored.",
    access: "session",
    params: { integration: integrationParam },
    body: ApiTokenLinkInputSchema,
    ok: created(R.AccountLinkSchema),
    errors: ["conflict", "upstream_failed"],
  },
  {
    method: "DELETE",
    path: "/api/account/links/:integration",
    tag: "My accounts",
    summary: "Unlink the caller's account (its tokens are forgotten)",
    access: "session",
    params: { integration: integrationParam },
    ok: noContent(),
  },
  {
    method: "GET",
    path: "/api/admin/identity",
    tag: "Configuration",
    summary: "Each integration's identity mode and how people link (the client secret is never shown)",
    access: "config.read",
    ok: list(R.IdentitySettingsSchema),
  },
  {
    method: "PUT",
    path: "/api/admin/identity/:integration",
    tag: "Configuration",
    summary: "Save an integration's identity mode; a blank client secret keeps the stored one",
    access: "config.write",
    params: { integration: integrationParam },
    body: IdentitySettingsInputSchema,
    ok: json(R.IdentitySettingsSchema),
  },
  {
    method: "GET",
    path: "/api/users/:id/links",
    tag: "Users",
    summary: "A user's linked accounts and their states (never a token)",
    access: "users.read",
    params: { id: uuid },
    ok: list(R.AccountLinkSchema),
  },
  {
    method: "DELETE",
    path: "/api/users/:id/links/:integration",
    tag: "Users",
    summary: "Unlink a user's account",
    access: "users.write",
    params: { id: uuid, integration: integrationParam },
    ok: noContent(),
  },

  // MCP at the specification's paths under /api (served by the MCP pipeline before Express, as /mcp is).
  {
    method: "POST",
    path: "/api/mcp/protocol",
    tag: "MCP",
    summary: "MCP JSON-RPC (the same as /mcp)",
    description:
      "With `X-Connection-Id` naming the caller's open /api/sse/stream, the answer is delivered on that stream as an `mcp-response` event. Refusals other than the token's are JSON-RPC error objects, as /mcp answers them: a body that is not JSON or not a JSON-RPC message (400), an Origin not allowed (403), too large (413), not application/json (415), over the client's budget (429).",
    access: "bearer:read",
    body: JsonRpcMessage,
    ok: [
      {
        status: 200,
        description: "The JSON-RPC answer, or its stream",
        content: { "application/json": JsonRpcMessage, "text/event-stream": EVENT_STREAM },
      },
      { status: 202, description: "Accepted: a notification or response, or an answer delivered on the event stream" },
    ],
    errors: ["bad_request", "forbidden", "payload_too_large", "unsupported_media_type", "rate_limited"],
    errorForm: "json-rpc",
  },
  {
    method: "GET",
    path: "/api/sse/stream",
    tag: "MCP",
    summary: "The specification's event stream",
    description: "Events `connected` (the connection id for X-Connection-Id), `heartbeat`, `mcp-response` and `error`.",
    access: "bearer:read",
    ok: {
      status: 200,
      description: "The event stream, open until the client or the server ends it",
      content: { "text/event-stream": EVENT_STREAM },
    },
    errors: ["rate_limited"],
  },
];
