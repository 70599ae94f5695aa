import { createOutboundProxy, proxySettingsFrom, type OutboundProxySettings } from "./upstream/outbound-proxy";
import { publicUrl, type Env } from "./env";
import type { SecretBox } from "./lib/secret-box";
import { createIntegrationStatusService } from "./modules/integrations/integration-status.service";
import { createIntegrationConfigService } from "./modules/integrations/integration-config.service";
import { createSyncRecorder } from "./modules/integrations/sync-recorder";
import { createUpstreamTargets, SERVICES_OF } from "./modules/integrations/upstream-targets";
import { createIdentitySettings } from "./modules/accounts/identity-settings.service";
import { createPersonIdentity } from "./modules/accounts/person-identity";
import { createProviders } from "./modules/accounts/providers";
import { createAccountLinksService } from "./modules/accounts/account-links.service";
import { createEventBus } from "./lib/event-bus";
import { memoryLimits, postgresLimits, redisLimits } from "./lib/limits";
import { connectRedis } from "./cluster/redis";
import { startPostgresRelay, startRedisRelay } from "./cluster/event-relay";
import { createStreamForwarding } from "./cluster/stream-forwarding";
import { createJobs } from "./cluster/jobs";
import { createMetrics } from "./lib/metrics";
import type { SettingsConfig } from "./modules/integrations/settings";
import { createOAuthClientsService } from "./modules/oauth/oauth-clients.service";
import { createOAuthTokensService } from "./modules/oauth/oauth-tokens.service";
import { createOAuthConsentService } from "./modules/oauth/oauth-consent.service";
import { createUpstreamHttp, type UpstreamOptions } from "./upstream/http";
import { createClientBudget } from "./upstream/client-budget";
import { createUpstreamMeter } from "./upstream/meter";
import { createCursors } from "./mcp/tools/cursor";
import { createCursors as createPageCursors } from "./lib/cursor";
import { createHostPolicy } from "./upstream/host-policy";
import { createClientMetadataDocuments } from "./oauth/client-metadata-documents";
import type { Database } from "./db/client";
import type { Clock } from "./lib/clock";
import type { Logger } from "./lib/logger";
import { createAuditService } from "./modules/audit/audit.service";
import { createAuthService } from "./modules/auth/auth.service";
import { createLoginThrottle, DEFAULT_LOGIN_LIMITS, type LoginThrottleLimits } from "./modules/auth/login-throttle";
import { createRolesService } from "./modules/roles/roles.service";
import { createUsersService } from "./modules/users/users.service";
import { createRepos, createTransact } from "./repos";
import { createLiveStreams } from "./mcp/live-streams";
import { createStreamKeeper } from "./mcp/stream-keeper";
import { createMcpCore, createMcpServerFactory, createToolAvailability, offerShapeOf } from "./mcp/mcp-server";
import { createChatService } from "./modules/chat/chat.service";
import { APP_VERSION } from "./lib/app-root";
import { createInstances } from "./cluster/instances";
import { createInstancesRepo } from "./cluster/instances.repo";
import { TOOLS } from "./mcp/tools/catalogue";
import { createPolicyOptionsService } from "./modules/oauth/policy-options.service";
import { TIMINGS } from "../contract/limits";
import { InMemoryServerEventBus } from "@modelcontextprotocol/server";
import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import { createConnectionsService } from "./modules/connections/connections.service";
import { createToolCallsService } from "./modules/tool-calls/tool-calls.service";
import { createRequestLogService, type RequestLogOptions } from "./modules/request-log/request-log.service";
import { createAiProvidersService } from "./modules/ai-providers/ai-providers.service";
import { createSetupService } from "./modules/setup/setup.service";
import { createStatsService } from "./modules/stats/stats.service";
import { createProviderFetch } from "./ai/provider-fetch";
import { checkProvider } from "./ai/provider-check";
import type { HostedBaseUrls } from "./ai/provider-model";

export type AppConfig = Pick<
  Env,
  | "NODE_ENV"
  | "TRUST_PROXY"
  | "REDIS_URL"
  | "RATE_LIMIT_STORE"
  | "SESSION_IDLE_MINUTES"
  | "SESSION_MAX_HOURS"
  | "CORS_ORIGINS"
  | "PUBLIC_URL"
  | "OAUTH_DYNAMIC_REGISTRATION"
  | "OAUTH_ACCESS_TOKEN_TTL_SECONDS"
  | "OAUTH_REFRESH_TOKEN_TTL_DAYS"
  | "OAUTH_REFRESH_GRACE_SECONDS"
  | "OAUTH_CLIENT_ID_METADATA_DOCUMENTS"
  | "UPSTREAM_ALLOW_PRIVATE"
  | "UPSTREAM_ALLOWED_HOSTS"
  | "MCP_LEGACY_SSE"
  | "MCP_FAST_LANE"
  | "MCP_DESTRUCTIVE_TOOLS"
  | "MCP_MAX_STREAMS"
  | "METRICS_TOKEN"
  | "AI_TIMEOUT_MS"
  | "UPSTREAM_CLIENT_SHARE_PERCENT"
  | "ATLASSIAN_AUTH_URL"
  | "ATLASSIAN_API_URL"
  | "BITBUCKET_AUTH_URL"
> &
  SettingsConfig & {
    loginLimits?: LoginThrottleLimits;
    /** A CA for fetching client metadata documents from a test server with its own certificate (tests). */
    clientMetadataTls?: { ca: string };
    /** The event streams' heartbeat interval (spec §9: 30 s; tests shorten it). */
    heartbeatMs?: number;
    /** Batching of the request log (tests and benchmarks). */
    requestLog?: RequestLogOptions;
    /** HTTPS_PROXY / HTTP_PROXY / NO_PROXY; read from the environment when absent (tests set it). */
    outboundProxy?: OutboundProxySettings;
    /** Overrides of the upstream layer's retry, breaker and size limits (tests). */
    upstream?: Partial<Omit<UpstreamOptions, "meter">>;
    /** Where the hosted AI kinds are reached instead of their public APIs (tests: local fake servers). */
    aiBaseUrls?: HostedBaseUrls;
    /** The policy editor's listings: how long they are cached and waited for (tests shorten them). */
    policyOptions?: { cacheMs?: number; waitMs?: number };
  };

/** Wires repos and services from their dependencies: the only place that knows the whole graph. */
export function createContainer(deps: {
  database: Database;
  config: AppConfig;
  clock: Clock;
  log: Logger;
  secretBox: SecretBox;
  version?: string;
  /** When the process started (its uptime); the container's creation by default. */
  startedAt?: Date;
}) {
  const { database, config, clock, log, secretBox } = deps;
  const events = createEventBus({ log });
  // Rate limits and the sign-in slow-down: counted together by every instance, in Redis (REDIS_URL)
  // or on their one PostgreSQL; the embedded database serves one process, which counts alone.
  const redis = config.REDIS_URL ? connectRedis(config.REDIS_URL, log) : null;
  const limits =
    config.RATE_LIMIT_STORE === "memory"
      ? memoryLimits()
      : redis
        ? redisLimits(redis.commands)
        : database.pool
          ? postgresLimits(database.pool)
          : memoryLimits();
  const repos = createRepos(database.db);
  const transact = createTransact(database.db);
  // The console lists' cursors (audit, request log, tool calls): sealed, bound to their filters.
  const pageCursors = createPageCursors(secretBox);
  const audit = createAuditService({ auditRepo: repos.auditRepo, clock, log, cursors: pageCursors });
  const auth = createAuthService({
    usersRepo: repos.usersRepo,
    sessionsRepo: repos.sessionsRepo,
    userRolesRepo: repos.userRolesRepo,
    audit,
    throttle: createLoginThrottle(config.loginLimits ?? DEFAULT_LOGIN_LIMITS, limits),
    clock,
    log,
    lifetimes: { idleMs: config.SESSION_IDLE_MINUTES * 60_000, maxAgeMs: config.SESSION_MAX_HOURS * 3_600_000 },
  });
  const users = createUsersService({ repos, transact, audit, clock, events });
  const roles = createRolesService({ repos, transact, audit, clock, events });
  const meter = createUpstreamMeter({
    clock,
    events,
    hourlyBudget: { atlassian: config.ATLASSIAN_HOURLY_BUDGET, bitbucket: config.BITBUCKET_HOURLY_BUDGET },
  });
  const hostPolicy = createHostPolicy({ allowPrivate: config.UPSTREAM_ALLOW_PRIVATE, allowedHosts: config.UPSTREAM_ALLOWED_HOSTS });
  const metrics = createMetrics();
  const clientBudget = createClientBudget({
    hourlyBudget: { atlassian: config.ATLASSIAN_HOURLY_BUDGET, bitbucket: config.BITBUCKET_HOURLY_BUDGET },
    sharePercent: config.UPSTREAM_CLIENT_SHARE_PERCENT,
    // Per instance, like the hourly meter it shares out: two store round trips per tool call were
    // not worth it for a share that is a fraction of the whole anyway.
    limits: memoryLimits(),
  });
  const http = createUpstreamHttp({
    meter,
    observe: metrics.upstream,
    timeoutMs: config.UPSTREAM_TIMEOUT_MS,
    hostPolicy,
    proxy: createOutboundProxy(config.outboundProxy ?? proxySettingsFrom(process.env)),
    ...config.upstream,
  });
  // The integrations (issue 11 repair): configuration, where calls go, and what the last calls did, apart.
  const integrations = createIntegrationConfigService({
    repos,
    transact,
    secretBox,
    audit,
    clock,
    hostPolicy,
    bitbucketApiUrl: config.BITBUCKET_API_URL,
    events,
  });
  // Acting as the person (issue 27): identity modes, people's linked accounts, and the services' OAuth.
  const identitySettings = createIdentitySettings({ repos, transact, secretBox, audit, clock, events, publicUrl: publicUrl(config) });
  const providers = createProviders(http, {
    atlassianAuthUrl: config.ATLASSIAN_AUTH_URL,
    atlassianApiUrl: config.ATLASSIAN_API_URL,
    bitbucketAuthUrl: config.BITBUCKET_AUTH_URL,
    bitbucketApiUrl: config.BITBUCKET_API_URL,
  });
  const people = createPersonIdentity({
    repos,
    transact,
    dbKind: database.kind,
    secretBox,
    settings: identitySettings,
    providers,
    clock,
    log,
    publicUrl: publicUrl(config),
  });
  const upstreamTargets = createUpstreamTargets({
    repo: repos.integrationsRepo,
    secretBox,
    http,
    bitbucketApiUrl: config.BITBUCKET_API_URL,
    events,
    people,
  });
  const accountLinks = createAccountLinksService({
    repos,
    transact,
    secretBox,
    settings: identitySettings,
    providers,
    targets: upstreamTargets,
    http,
    audit,
    clock,
    events,
    log,
    publicUrl: publicUrl(config),
    destructiveTools: config.MCP_DESTRUCTIVE_TOOLS,
  });
  const syncRecorder = createSyncRecorder({ repo: repos.integrationsRepo, meter, log });
  const integrationStatus = createIntegrationStatusService({
    targets: upstreamTargets,
    meter,
    clock,
    probeTimeoutMs: Math.min(config.UPSTREAM_TIMEOUT_MS, 5_000),
    reach: syncRecorder,
    http,
    learnDeployment: integrations.learnDeployment,
  });
  const metadataDocuments = config.OAUTH_CLIENT_ID_METADATA_DOCUMENTS
    ? createClientMetadataDocuments({ hostPolicy, clock, ...(config.clientMetadataTls ? { tls: config.clientMetadataTls } : {}) })
    : undefined;
  const oauthClients = createOAuthClientsService({
    repos,
    transact,
    secretBox,
    audit,
    clock,
    log,
    events,
    ...(metadataDocuments ? { metadataDocuments } : {}),
  });
  const oauthSettings = {
    issuer: publicUrl(config),
    accessTokenTtlSeconds: config.OAUTH_ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlSeconds: config.OAUTH_REFRESH_TOKEN_TTL_DAYS * 86_400,
    codeTtlSeconds: 600,
    consentTtlSeconds: 600,
    refreshGraceSeconds: config.OAUTH_REFRESH_GRACE_SECONDS,
  };
  // The authorization server: consent (the authorization endpoint, codes) and token issuance, apart.
  const oauthConsent = createOAuthConsentService({ repo: repos.oauthGrantsRepo, audit, clock, settings: oauthSettings });
  const oauthTokens = createOAuthTokensService({ repo: repos.oauthGrantsRepo, clock, settings: oauthSettings, secretBox, events });

  // AI providers (issue 13): every provider call goes through one fetch under the upstream host rules.
  const ai = { fetch: createProviderFetch({ hostPolicy }), baseUrls: config.aiBaseUrls ?? {} };
  const aiProviders = createAiProvidersService({
    repos,
    transact,
    secretBox,
    audit,
    clock,
    log,
    hostPolicy,
    check: (target) => checkProvider(target, ai),
  });
  const setup = createSetupService({ integrations, aiProviders, liveGrants: oauthTokens.liveGrants });

  const cursors = createCursors(secretBox);
  const requestLog = createRequestLogService({
    repo: repos.requestLogRepo,
    clock,
    log,
    cursors: pageCursors,
    names: { clients: (ids) => repos.oauthClientsRepo.namesOf(ids), users: (ids) => repos.usersRepo.namesOf(ids) },
    onDropped: (reason, rows) => metrics.logRowsDropped("request_log", reason, rows),
    ...config.requestLog,
  });
  const toolCalls = createToolCallsService({
    repo: repos.toolCallsRepo,
    clock,
    log,
    cursors: pageCursors,
    onDropped: (reason, rows) => metrics.logRowsDropped("tool_calls", reason, rows),
    ...config.requestLog,
  });
  // Which process holds a stream: registry rows name it, so a stop or a crash can end them.
  const instanceId = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  const connections = createConnectionsService({ repo: repos.connectionsRepo, clock, audit, events, instanceId });
  // The Dashboard lists the instances serving on this database, each noting itself alive.
  const instances = createInstances({
    repo: createInstancesRepo(database.db),
    clock,
    log,
    instanceId,
    version: deps.version ?? APP_VERSION,
    startedAt: deps.startedAt ?? clock.now(),
  });
  void instances.start();
  // Cluster events reach every instance on one PostgreSQL (the embedded database serves one process).
  const relay = redis
    ? startRedisRelay({ publisher: redis.commands, subscriber: redis.subscriber, bus: events, instanceId, log })
    : database.pool
      ? startPostgresRelay({ pool: database.pool, bus: events, instanceId, log })
      : null;
  const stats = createStatsService({
    clock,
    log,
    connections,
    instances,
    oauthClients,
    liveGrants: oauthTokens.liveGrants,
    requestLog,
    meter,
  });

  // MCP: the streams this process holds (per process by nature), and what keeps them honest.
  const streams = createLiveStreams({
    limits: {
      perMinute: config.RATE_LIMIT_SSE_PER_MINUTE,
      maxConcurrentPerClient: config.RATE_LIMIT_SSE_MAX_CONCURRENT,
      maxPerProcess: config.MCP_MAX_STREAMS,
    },
    log,
    store: limits,
    openOf: (clientId) => repos.connectionsRepo.countActiveOf(clientId),
  });
  metrics.probe({ openStreams: () => streams.size, logQueueDepth: () => requestLog.buffered });
  // A message for a stream another instance holds goes there (issue 29 item 1).
  const forwarding = createStreamForwarding({
    instanceId,
    channel: relay,
    findConnection: (connectionId) => repos.connectionsRepo.find(connectionId),
    streams,
    verify: (token) => oauthTokens.verifyAccessToken(token),
    secretBox,
    log,
  });
  const streamKeeper = createStreamKeeper({
    streams,
    connections,
    verify: (token) => oauthTokens.verifyAccessToken(token),
    intervalMs: config.heartbeatMs ?? TIMINGS.sseHeartbeatMs,
    log,
  });
  // Heartbeats run for as long as the container lives (an unref'd timer; close() stops it).
  streamKeeper.start();
  const toolAvailability = createToolAvailability(upstreamTargets);
  // The policy editor's pickers (issue 25 item 5): the live integrations' keys and the tool catalogue.
  const policyOptions = createPolicyOptionsService({
    targets: upstreamTargets,
    services: async () => (await toolAvailability.context()).services,
    tools: TOOLS.map((t) => ({ ...offerShapeOf(t), title: t.annotations.title })),
    destructiveTools: config.MCP_DESTRUCTIVE_TOOLS,
    clock,
    log,
    ...config.policyOptions,
  });
  /** Change events for MCP listeners: `subscriptions/listen` streams (the SDK) and legacy sessions subscribe. */
  const mcpBus = new InMemoryServerEventBus((err) => log.warn({ err }, "an MCP change listener failed"));
  // The MCP tool layer: one core behind every MCP server the factory makes, and behind the chat.
  const mcpCore = createMcpCore({
    targets: upstreamTargets,
    cursors,
    availability: toolAvailability,
    toolCalls,
    version: deps.version ?? APP_VERSION,
    log,
    destructiveTools: config.MCP_DESTRUCTIVE_TOOLS,
    metrics,
    budget: clientBudget,
  });
  const mcpFactory = createMcpServerFactory(mcpCore);
  // The chat (issue 13) runs the MCP tool layer in process: the same tools, filter, policy and audit as an MCP client.
  const chat = createChatService({
    repo: repos.chatRepo,
    clock,
    log,
    providers: aiProviders,
    tools: mcpCore,
    fetch: ai.fetch,
    baseUrls: ai.baseUrls,
    timeoutMs: config.AI_TIMEOUT_MS,
  });

  // Who reacts to what: every subscription of the event bus, in one place (ARCHITECTURE rule 11).
  // OAuth access that ended or narrowed anywhere: no cached token check may outlive it.
  events.on("oauth.client-revoked", () => oauthTokens.forgetVerified());
  // A user's access narrowed: their clients' tool lists changed (a demoted user's lose the writing tools).
  events.on("user.access-changed", () => {
    oauthTokens.forgetVerified();
    mcpBus.publish({ kind: "tools_list_changed" });
  });
  // A client's policy travels with its verified tokens: the next request reads the new one, and listeners hear the tool list changed.
  events.on("oauth.client-policy-changed", () => {
    oauthTokens.forgetVerified();
    mcpBus.publish({ kind: "tools_list_changed" });
  });
  // ...and no stream may outlive it either (issue 10 item 5): checked again after the cache is gone.
  events.on("oauth.client-revoked", ({ clientId, reason }) =>
    streamKeeper.endClient(clientId, `The OAuth client's access ended: ${reason}`),
  );
  events.on("oauth.token-revoked", () => void streamKeeper.checkOwners());
  events.on("user.access-changed", ({ userId }) => void streamKeeper.checkOwners((s) => userId === null || s.owner.userId === userId));
  // A deactivated or deleted user's links are gone: no cached token of theirs may be used again.
  events.on("user.access-changed", ({ userId }) => people.forget(userId));
  // An administrator ended a connection (on this instance; others notice at their next heartbeat).
  events.on("connection.terminated", ({ connectionId }) =>
    streamKeeper.endConnection(connectionId, "The connection was ended by an administrator"),
  );
  // A saved integration is another target: what was known about the old one no longer holds.
  events.on("integration.saved", ({ kind, elsewhere }) => {
    // Saved here: the next call reads it (a re-read that noticed another instance's save has it already).
    if (!elsewhere) upstreamTargets.forget(kind);
    meter.forgetOutcomes(SERVICES_OF[kind]);
    for (const service of SERVICES_OF[kind]) http.resetCircuits(service);
    // Tools of an integration switched on or off appear or disappear: listeners hear it (docs/decisions.md#tools-and-client-policy).
    mcpBus.publish({ kind: "tools_list_changed" });
  });
  // The policy editor lists the new target's projects, spaces and repositories.
  events.on("integration.saved", ({ kind }) => policyOptions.forget(kind));
  // Who Bridgekeeper acts as, and a person's links, as saved (here or on another instance).
  events.on("identity.saved", ({ integration }) => identitySettings.forget(integration));
  events.on("account.link-changed", ({ userId }) => people.forget(userId));
  // Last sync survives a restart.
  events.on("upstream.outcome", ({ service, outcome }) => syncRecorder.record(service, outcome));

  return {
    database,
    config,
    clock,
    log,
    limits,
    repos,
    transact,
    upstream: { http, meter, hostPolicy, targets: upstreamTargets, syncRecorder, clientBudget },
    services: {
      audit,
      auth,
      users,
      roles,
      integrations,
      integrationStatus,
      oauthClients,
      oauthConsent,
      oauthTokens,
      requestLog,
      connections,
      toolCalls,
      aiProviders,
      setup,
      policyOptions,
      stats,
      chat,
      identitySettings,
      accountLinks,
    },
    /** What a call to an AI provider is made with: `languageModelFor(target, container.ai)`. */
    ai,
    events,
    /** This instance among others: its id, and when it hears the others' events (at once without a shared database). */
    cluster: { instanceId, ready: relay?.ready ?? Promise.resolve(), jobs: createJobs(database.pool, instanceId), instances },
    metrics,
    mcp: { core: mcpCore, factory: mcpFactory, streams, streamKeeper, toolAvailability, bus: mcpBus, cursors, forwarding },
    /** Stops what holds sockets or timers (the upstream connection pool, the log's timer) and flushes the request log. */
    close: async () => {
      streamKeeper.stop();
      await instances.stop();
      await relay?.close();
      await redis?.commands.quit().catch(() => undefined);
      // Buffered request log rows are written before the database goes (issue 10 item 8).
      await Promise.all([requestLog.close(), toolCalls.close()]);
      await Promise.all([http.close(), metadataDocuments?.close(), ai.fetch.close()]);
    },
  };
}

export type Container = ReturnType<typeof createContainer>;
