import { z } from "zod";
import { AiProviderSchema, type AiProviderTestResult } from "../../../contract/ai-providers";
import type { AuditEventDto } from "../../../contract/audit";
import {
  CREDENTIAL_KINDS,
  IDENTITY_MODES,
  INTEGRATIONS,
  type AccountLinkDto,
  type IdentitySettingsDto,
  type MyAccountsDto,
} from "../../../contract/accounts";
import type { SessionResponse } from "../../../contract/auth";
import { ChatProviderSchema, ChatReplySchema, ConversationDetailSchema, ConversationSchema } from "../../../contract/chat";
import type { McpConnectionDto } from "../../../contract/connect";
import type { SseConnectionDto } from "../../../contract/connections";
import { ERROR_STATUS, type ErrorBody, type ErrorCode } from "../../../contract/errors";
import type {
  AtlassianConfigDto,
  AtlassianStatusDto,
  AtlassianTestResult,
  BitbucketConfigDto,
  BitbucketStatusDto,
  BitbucketTestResult,
  ConfigEntry,
} from "../../../contract/integrations";
import { AUTH_METHODS, DEPLOYMENT_CHOICES, DEPLOYMENTS } from "../../../contract/integrations";
import { MCP_OUTCOMES, type LogEntryDetailDto, type LogEntryDto, type LogSummaryDto } from "../../../contract/logs";
import type { ConsentRequestDto, OAuthClientDto } from "../../../contract/oauth";
import { ClientPolicySchema, type ClientPolicy } from "../../../contract/policy";
import type { PolicyOptionsDto } from "../../../contract/policy-options";
import type { SetupStatusDto } from "../../../contract/setup";
import type { EndpointStatDto, StatsDto, TrafficMinuteDto } from "../../../contract/stats";
import type { ToolCallPage } from "../../../contract/tool-calls";
import type { RoleDto, RoleSummaryDto, UserDto } from "../../../contract/users";

/**
 * The answers of the /api routes as zod schemas, for the OpenAPI document. contract/ states most
 * answers as TypeScript interfaces (the console reads them as types); each schema here is pinned
 * to its interface at the bottom of this file, so a field added to, removed from or changed in a
 * DTO fails the typecheck until the document says the same. Where contract/ has a zod schema of
 * an answer (AI providers, the chat), that schema is used as it is.
 */

const instant = z.string().meta({ format: "date-time" });
const nullableInstant = instant.nullable();

export const ErrorBodySchema = z
  .object({
    error: z.object({
      code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
      message: z.string(),
      /** Field name → the message the form shows under it (400 validation_failed). */
      fields: z.record(z.string(), z.string()).optional(),
    }),
    requestId: z.string().optional(),
  })
  .meta({
    id: "ErrorBody",
    description: "Every /api error: the code (contract/errors.ts) decides the status; `fields` maps each invalid field to its message.",
  });

export const RoleSummarySchema = z
  .object({ id: z.string(), name: z.string(), description: z.string().nullable(), isActive: z.boolean() })
  .meta({ id: "RoleSummary" });

export const RoleSchema = RoleSummarySchema.extend({
  isBuiltin: z.boolean(),
  permissions: z.array(z.object({ id: z.string(), resource: z.string(), action: z.string() })),
  createdAt: instant,
}).meta({ id: "Role" });

export const PermissionSchema = z
  .object({ id: z.string(), resource: z.string(), action: z.string(), description: z.string().nullable() })
  .meta({ id: "Permission" });

export const UserSchema = z
  .object({
    id: z.string(),
    email: z.string().nullable(),
    username: z.string(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    isActive: z.boolean(),
    profileImageUrl: z.string().nullable(),
    lastLoginAt: nullableInstant,
    createdAt: instant,
    roles: z.array(RoleSummarySchema),
  })
  .meta({ id: "User" });

export const SessionResponseSchema = z
  .object({
    user: z.object({
      id: z.string(),
      username: z.string(),
      email: z.string().nullable(),
      firstName: z.string().nullable(),
      lastName: z.string().nullable(),
      profileImageUrl: z.string().nullable(),
      isActive: z.boolean(),
      lastLoginAt: nullableInstant,
      roles: z.array(z.string()),
      permissions: z.array(z.string()),
    }),
  })
  .meta({ id: "Session" });

const AuditEventSchema = z
  .object({
    id: z.string(),
    at: instant,
    actorUserId: z.string().nullable(),
    actorUsername: z.string().nullable(),
    action: z.string(),
    outcome: z.string(),
    targetType: z.string().nullable(),
    targetId: z.string().nullable(),
    ipAddress: z.string().nullable(),
    details: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: "AuditEvent" });

export const AuditPageSchema = z.object({ events: z.array(AuditEventSchema), nextCursor: z.string().nullable() }).meta({ id: "AuditPage" });

export const HealthSchema = z
  .object({
    status: z.enum(["ok", "degraded", "draining"]),
    version: z.string(),
    uptime: z.number(),
    database: z.enum(["ok", "unavailable"]),
  })
  .meta({ id: "Health" });

export const LivenessSchema = z.object({ status: z.literal("ok"), version: z.string(), uptime: z.number() }).meta({ id: "Liveness" });

export const McpConnectionSchema = z
  .object({
    mcpUrl: z.string(),
    publicUrl: z.string(),
    publicUrlConfigured: z.boolean(),
    dynamicRegistration: z.boolean(),
    metadataDocuments: z.boolean(),
  })
  .meta({ id: "McpConnection" });

export const SetupStatusSchema = z
  .object({
    atlassianConfigured: z.boolean(),
    bitbucketConfigured: z.boolean(),
    aiClientConnected: z.boolean(),
    passwordChanged: z.boolean(),
    aiProviderAdded: z.boolean(),
  })
  .meta({ id: "SetupStatus" });

// Integrations: stored configuration, tests, status, settings.
export const AtlassianConfigSchema = z
  .object({
    configured: z.boolean(),
    deploymentChoice: z.enum(DEPLOYMENT_CHOICES),
    deployment: z.enum(DEPLOYMENTS),
    instanceUrl: z.string(),
    confluenceUrl: z.string(),
    authMethod: z.enum(AUTH_METHODS),
    email: z.string(),
    isActive: z.boolean(),
    apiTokenHint: z.string().nullable(),
    confluenceTokenHint: z.string().nullable(),
    updatedAt: nullableInstant,
  })
  .meta({ id: "AtlassianConfig" });
export const BitbucketConfigSchema = z
  .object({
    configured: z.boolean(),
    deploymentChoice: z.enum(DEPLOYMENT_CHOICES),
    deployment: z.enum(DEPLOYMENTS),
    baseUrl: z.string(),
    authMethod: z.enum(AUTH_METHODS),
    workspace: z.string(),
    username: z.string(),
    isActive: z.boolean(),
    appPasswordHint: z.string().nullable(),
    apiUrl: z.string(),
    updatedAt: nullableInstant,
  })
  .meta({ id: "BitbucketConfig" });
const IntegrationAccountSchema = z.object({
  displayName: z.string(),
  id: z.string(),
  email: z.string().nullable(),
  nickname: z.string().nullable(),
});
const ProductSchema = z.object({ name: z.string(), version: z.string().nullable(), deployment: z.enum(DEPLOYMENTS) });
const atlassianReach = {
  account: IntegrationAccountSchema.nullable(),
  jiraProjectCount: z.number().nullable(),
  confluenceSpaceCount: z.number().nullable(),
  confluenceSpaceCountCapped: z.boolean(),
  jiraProduct: ProductSchema.nullable(),
  confluenceProduct: ProductSchema.nullable(),
  checkedAt: nullableInstant,
};
const bitbucketReach = { account: IntegrationAccountSchema.nullable(), product: ProductSchema.nullable(), checkedAt: nullableInstant };
const RateLimitUsageSchema = z.object({ used: z.number(), total: z.number() });
export const AtlassianTestResultSchema = z
  .object({
    ...atlassianReach,
    deployment: z.enum(DEPLOYMENTS),
    jiraConnected: z.boolean(),
    confluenceConnected: z.boolean(),
    jiraError: z.string().optional(),
    confluenceError: z.string().optional(),
  })
  .meta({ id: "AtlassianTestResult" });
export const BitbucketTestResultSchema = z
  .object({
    ...bitbucketReach,
    deployment: z.enum(DEPLOYMENTS),
    connected: z.boolean(),
    error: z.string().optional(),
    workspaceName: z.string().nullable(),
    repositoryCount: z.number().nullable(),
  })
  .meta({ id: "BitbucketTestResult" });
export const AtlassianStatusSchema = z
  .object({
    ...atlassianReach,
    configured: z.boolean(),
    isActive: z.boolean(),
    jiraConnected: z.boolean(),
    jiraLastSync: nullableInstant,
    jiraError: z.string().nullable(),
    confluenceConnected: z.boolean(),
    confluenceLastSync: nullableInstant,
    confluenceError: z.string().nullable(),
    apiRateLimit: RateLimitUsageSchema,
  })
  .meta({ id: "AtlassianStatus" });
export const BitbucketStatusSchema = z
  .object({
    ...bitbucketReach,
    configured: z.boolean(),
    isActive: z.boolean(),
    connected: z.boolean(),
    lastSync: nullableInstant,
    error: z.string().nullable(),
    workspaceName: z.string().nullable(),
    repositoryCount: z.number().nullable(),
    apiRateLimit: RateLimitUsageSchema,
  })
  .meta({ id: "BitbucketStatus" });
export const ConfigEntrySchema = z
  .object({ key: z.string(), value: z.string(), masked: z.boolean().optional() })
  .meta({ id: "ConfigEntry" });

// OAuth clients, their policy, the consent page.
const policy = ClientPolicySchema.shape;
const keysOrAny = z.array(z.string()).nullable();
/** ClientPolicySchema's output (its lists are normalised by transforms, which JSON Schema cannot state). */
export const ClientPolicyOutSchema = z
  .object({
    readOnly: z.boolean(),
    toolsets: policy.toolsets.unwrap(),
    disabledTools: z.array(z.string()),
    jiraProjects: keysOrAny,
    confluenceSpaces: keysOrAny,
    bitbucketRepositories: keysOrAny,
  })
  .meta({ id: "ClientPolicy" });
export const OAuthClientSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    clientId: z.string(),
    clientSecret: z.string().nullable(),
    clientType: z.enum(["confidential", "public"]),
    redirectUris: z.array(z.string()),
    scopes: z.array(z.string()),
    isActive: z.boolean(),
    registeredVia: z.enum(["console", "dynamic", "metadata-document"]),
    activeGrants: z.number(),
    policy: ClientPolicyOutSchema,
    createdAt: instant,
  })
  .meta({ id: "OAuthClient" });
const listing = { available: z.boolean(), error: z.string().nullable(), truncated: z.boolean() };
const keyName = z.object({ key: z.string(), name: z.string() });
const policyService = z.enum(["jira", "confluence", "bitbucket"]);
export const PolicyOptionsSchema = z
  .object({
    jira: z.object({ ...listing, projects: z.array(keyName) }),
    confluence: z.object({ ...listing, spaces: z.array(keyName) }),
    bitbucket: z.object({
      ...listing,
      workspace: z.string().nullable(),
      repositories: z.array(z.object({ slug: z.string(), fullName: z.string(), name: z.string() })),
    }),
    tools: z.array(
      z.object({
        name: z.string(),
        title: z.string(),
        toolset: policy.toolsets.unwrap().unwrap().element,
        service: policyService,
        scope: z.enum(["read", "write"]),
        destructive: z.boolean(),
        deployments: z.array(z.enum(DEPLOYMENTS)).optional(),
      }),
    ),
    services: z.array(policyService),
    destructiveTools: z.boolean(),
  })
  .meta({ id: "PolicyOptions" });
export const ConsentRequestSchema = z
  .object({
    id: z.string(),
    clientName: z.string(),
    clientId: z.string(),
    redirectUri: z.string(),
    scopes: z.array(z.string()),
    withheldScopes: z.array(z.string()),
    resource: z.string(),
    expiresAt: instant,
    registeredVia: z.enum(["console", "dynamic", "metadata-document"]),
    redirectHost: z.string(),
    refusal: z.string().nullable(),
    idleScopes: z.array(z.string()),
    limits: z.object({ jiraProjects: keysOrAny, confluenceSpaces: keysOrAny, bitbucketRepositories: keysOrAny }).nullable(),
    actsAs: z.object({ atlassian: z.string().nullable(), bitbucket: z.string().nullable() }),
  })
  .meta({ id: "ConsentRequest" });
export const ConsentDecisionResultSchema = z.object({
  redirectTo: z
    .string()
    .meta({ description: "Where the browser goes next: the client's redirect URI with the code, or with error=access_denied" }),
});

// Request log, tool calls, statistics, streams.
const ToolCallSchema = z
  .object({
    id: z.string(),
    at: instant,
    clientId: z.string(),
    userId: z.string().nullable(),
    tool: z.string(),
    arguments: z.record(z.string(), z.unknown()),
    outcome: z.enum(["ok", "error"]),
    error: z.string().nullable(),
    durationMs: z.number(),
    objects: z.array(z.string()),
    requestId: z.string().nullable(),
    upstreamIdentity: z.string().nullable(),
  })
  .meta({ id: "ToolCall" });
export const ToolCallPageSchema = z
  .object({ items: z.array(ToolCallSchema), nextCursor: z.string().nullable() })
  .meta({ id: "ToolCallPage" });
const logEntry = {
  id: z.string(),
  method: z.string(),
  endpoint: z.string(),
  statusCode: z.number(),
  responseTime: z.number(),
  clientId: z.string().nullable(),
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  createdAt: instant,
  userId: z.string().nullable(),
  rpcMethod: z.string().nullable(),
  toolName: z.string().nullable(),
  clientName: z.string().nullable(),
  userName: z.string().nullable(),
  outcome: z.enum(MCP_OUTCOMES).nullable(),
  error: z.string().nullable(),
};
export const LogEntrySchema = z.object(logEntry).meta({ id: "LogEntry" });
export const LogEntryDetailSchema = z
  .object({ ...logEntry, requestId: z.string().nullable(), headers: z.record(z.string(), z.string()), toolCall: ToolCallSchema.nullable() })
  .meta({ id: "LogEntryDetail" });
export const LogSummarySchema = z
  .object({ total: z.number(), successful: z.number(), errors: z.number(), averageResponseTime: z.number().nullable() })
  .meta({ id: "LogSummary" });
export const StatsSchema = z
  .object({
    serverStatus: z.string(),
    uptime: z.number(),
    activeSSEConnections: z.number().nullable(),
    totalOAuthClients: z.number().nullable(),
    activeOAuthSessions: z.number().nullable(),
    apiRequestsPerHour: z.number().nullable(),
    rateLimitHits: z.number().nullable(),
    instances: z
      .array(
        z.object({
          id: z.string(),
          version: z.string(),
          hostname: z.string(),
          startedAt: z.string(),
          uptime: z.number(),
          lastSeenAt: z.string(),
          openStreams: z.number(),
          current: z.boolean(),
        }),
      )
      .nullable(),
  })
  .meta({ id: "Stats" });
export const EndpointStatSchema = z
  .object({ method: z.string(), path: z.string(), requests: z.number(), medianMs: z.number().nullable() })
  .meta({ id: "EndpointStat" });
export const TrafficMinuteSchema = z
  .object({
    minute: instant,
    requests: z.number(),
    errors: z.number(),
    upstream: z.object({ jira: z.number(), confluence: z.number(), bitbucket: z.number() }),
  })
  .meta({ id: "TrafficMinute" });
export const SseConnectionSchema = z
  .object({
    id: z.string(),
    connectionId: z.string(),
    clientId: z.string(),
    isActive: z.boolean(),
    createdAt: instant,
    lastHeartbeat: instant,
    clientInfo: z.object({ userAgent: z.string().nullable(), ipAddress: z.string().nullable() }),
    kind: z.string(),
    userId: z.string().nullable(),
    closedAt: nullableInstant,
  })
  .meta({ id: "SseConnection" });

// AI providers and the chat: contract/ has their answers as zod schemas already.
export const AiProviderOutSchema = AiProviderSchema.meta({ id: "AiProvider" });
export const AiProviderTestResultSchema = z
  .object({ ok: z.boolean(), answer: z.string().nullable(), error: z.string().nullable(), latencyMs: z.number() })
  .meta({ id: "AiProviderTestResult" });
export const ChatProviderOutSchema = ChatProviderSchema.meta({ id: "ChatProvider" });
export const ChatReplyOutSchema = ChatReplySchema.meta({ id: "ChatReply" });
export const ConversationOutSchema = ConversationSchema.meta({ id: "Conversation" });
export const ConversationDetailOutSchema = ConversationDetailSchema.meta({ id: "ConversationDetail" });
export const SystemMessageSchema = z.object({ systemMessage: z.string() });

/** The document itself (GET /api/openapi.json): described by the OpenAPI 3.1 specification, not restated here. */
export const OpenApiDocumentSchema = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

// Acting as the person (issue 27).
export const AccountLinkSchema = z
  .object({
    integration: z.enum(INTEGRATIONS),
    kind: z.enum(CREDENTIAL_KINDS),
    account: z.object({ displayName: z.string(), accountId: z.string(), email: z.string().nullable() }),
    siteUrl: z.string().nullable(),
    scopes: z.array(z.string()),
    linkedAt: instant,
    lastUsedAt: instant.nullable(),
    state: z.enum(["working", "needs-relinking"]),
    problem: z.string().nullable(),
  })
  .meta({ id: "AccountLink", description: "A person's linked account: what it is and its state, never a token" });
export const MyAccountsSchema = z
  .object({
    integrations: z.array(
      z.object({
        integration: z.enum(INTEGRATIONS),
        label: z.string(),
        configured: z.boolean(),
        mode: z.enum(IDENTITY_MODES),
        oauthAvailable: z.boolean(),
        apiTokensAllowed: z.boolean(),
        siteUrl: z.string().nullable(),
        deployment: z.enum(DEPLOYMENTS),
        confluenceTokenWanted: z.boolean(),
        link: AccountLinkSchema.nullable(),
      }),
    ),
  })
  .meta({ id: "MyAccounts" });
export const IdentitySettingsSchema = z
  .object({
    integration: z.enum(INTEGRATIONS),
    mode: z.enum(IDENTITY_MODES),
    allowMachineClients: z.boolean(),
    allowApiTokens: z.boolean(),
    oauthClientId: z.string(),
    oauthClientSecretHint: z.string().nullable(),
    deployment: z.enum(DEPLOYMENTS),
    confluenceAppWanted: z.boolean().meta({ description: "Data Center: Confluence's own incoming application link is asked for too" }),
    confluenceOauthClientId: z.string(),
    confluenceOauthClientSecretHint: z.string().nullable(),
    callbackUrl: z.string(),
    updatedAt: instant.nullable(),
  })
  .meta({ id: "IdentitySettings", description: "How an integration reaches its service: the shared account or each person's own" });
export const AuthorizeUrlSchema = z.object({
  authorizeUrl: z.string().meta({ description: "Where the browser goes to consent at the service" }),
});

// Each schema states exactly its contract interface: neither has a field the other lacks, no type differs.
type Flat<T> = T extends object ? { [K in keyof T]: Flat<T[K]> } : T;
type Same<A, B> = (<T>() => T extends Flat<A> ? 1 : 2) extends <T>() => T extends Flat<B> ? 1 : 2 ? true : false;
type Expect<T extends true> = T;
export type PinnedToContract = [
  Expect<Same<z.output<typeof ErrorBodySchema>, ErrorBody>>,
  Expect<Same<z.output<typeof SessionResponseSchema>, SessionResponse>>,
  Expect<Same<z.output<typeof UserSchema>, UserDto>>,
  Expect<Same<z.output<typeof RoleSummarySchema>, RoleSummaryDto>>,
  Expect<Same<z.output<typeof RoleSchema>, RoleDto>>,
  Expect<Same<z.output<typeof AuditEventSchema>, AuditEventDto>>,
  Expect<Same<z.output<typeof McpConnectionSchema>, McpConnectionDto>>,
  Expect<Same<z.output<typeof SetupStatusSchema>, SetupStatusDto>>,
  Expect<Same<z.output<typeof AtlassianConfigSchema>, AtlassianConfigDto>>,
  Expect<Same<z.output<typeof BitbucketConfigSchema>, BitbucketConfigDto>>,
  Expect<Same<z.output<typeof AtlassianTestResultSchema>, AtlassianTestResult>>,
  Expect<Same<z.output<typeof BitbucketTestResultSchema>, BitbucketTestResult>>,
  Expect<Same<z.output<typeof AtlassianStatusSchema>, AtlassianStatusDto>>,
  Expect<Same<z.output<typeof BitbucketStatusSchema>, BitbucketStatusDto>>,
  Expect<Same<z.output<typeof ConfigEntrySchema>, ConfigEntry>>,
  Expect<Same<z.output<typeof ClientPolicyOutSchema>, ClientPolicy>>,
  Expect<Same<z.output<typeof OAuthClientSchema>, OAuthClientDto>>,
  Expect<Same<z.output<typeof PolicyOptionsSchema>, PolicyOptionsDto>>,
  Expect<Same<z.output<typeof ConsentRequestSchema>, ConsentRequestDto>>,
  Expect<Same<z.output<typeof ToolCallPageSchema>, ToolCallPage>>,
  Expect<Same<z.output<typeof LogEntrySchema>, LogEntryDto>>,
  Expect<Same<z.output<typeof LogEntryDetailSchema>, LogEntryDetailDto>>,
  Expect<Same<z.output<typeof LogSummarySchema>, LogSummaryDto>>,
  Expect<Same<z.output<typeof StatsSchema>, StatsDto>>,
  Expect<Same<z.output<typeof EndpointStatSchema>, EndpointStatDto>>,
  Expect<Same<z.output<typeof TrafficMinuteSchema>, TrafficMinuteDto>>,
  Expect<Same<z.output<typeof SseConnectionSchema>, SseConnectionDto>>,
  Expect<Same<z.output<typeof AiProviderTestResultSchema>, AiProviderTestResult>>,
  Expect<Same<z.output<typeof AccountLinkSchema>, AccountLinkDto>>,
  Expect<Same<z.output<typeof MyAccountsSchema>, MyAccountsDto>>,
  Expect<Same<z.output<typeof IdentitySettingsSchema>, IdentitySettingsDto>>,
];
