import express, { type RequestHandler } from "express";
import { LIMITS } from "../contract/limits";
import type { Container } from "./container";
import { csrfGuard } from "./http/middleware/csrf";
import { apiNotFound, errorHandler, notFound } from "./http/middleware/error-handler";
import { httpLog } from "./http/middleware/http-log";
import { jsonBody } from "./http/middleware/json-body";
import { securityHeaderList, securityHeaders } from "./http/middleware/security-headers";
import { frontDoor, type FrontDoor } from "./http/front-door";
import { loadSession } from "./http/middleware/session";
import { auditRoutes } from "./http/routes/audit.routes";
import { authRoutes } from "./http/routes/auth.routes";
import { healthRoutes } from "./http/routes/health.routes";
import { integrationsRoutes } from "./http/routes/integrations.routes";
import { mcpConnectionRoutes } from "./http/routes/mcp-connection.routes";
import { setupRoutes } from "./http/routes/setup.routes";
import { oauthClientsRoutes } from "./http/routes/oauth-clients.routes";
import { proxyRoutes } from "./http/routes/proxy.routes";
import { bearer, resourceMetadataUrlOf } from "./http/middleware/bearer";
import { clientRateLimit } from "./http/middleware/rate-limit";
import { createOAuthProvider } from "./oauth/provider";
import { oauthRoutes } from "./oauth/oauth.routes";
import { rolesRoutes } from "./http/routes/roles.routes";
import { usersRoutes } from "./http/routes/users.routes";
import { createMcpCore, createMcpServerFactory } from "./mcp/mcp-server";
import { MCP_PATH, mcpRoutes, SPEC_PROTOCOL_PATH } from "./mcp/mcp.routes";
import { laneAtTheDoor } from "./mcp/fast-lane";
import { EVENT_STREAM_PATH, eventStreamRoutes } from "./mcp/event-stream.routes";
import { legacySseRoutes, LEGACY_SSE_PATH } from "./mcp/legacy-sse.routes";
import { TIMINGS } from "../contract/limits";
import { requestLog } from "./http/middleware/request-log";
import { logsRoutes } from "./http/routes/logs.routes";
import { statsRoutes } from "./http/routes/stats.routes";
import { metricsRoutes } from "./http/routes/metrics.routes";
import { toolCallsRoutes } from "./http/routes/tool-calls.routes";
import { sseConnectionsRoutes } from "./http/routes/sse-connections.routes";
import { aiProvidersRoutes } from "./http/routes/ai-providers.routes";
import { chatRoutes } from "./http/routes/chat.routes";
import { createChatService } from "./modules/chat/chat.service";

export interface BuildAppOptions {
  version: string;
  startedAt: Date;
  /** Serves the console for non-API paths: the built files, or Vite's dev middleware. */
  consoleHandler?: RequestHandler;
}

/** The app, and the requests served before it (front-door.ts); lastResort puts them together. */
export interface BuiltApp {
  app: express.Express;
  front: FrontDoor;
}

export function buildApp(container: Container, options: BuildAppOptions): BuiltApp {
  const { config, services, log } = container;
  const app = express();
  app.disable("x-powered-by");
  // Express decides from this whether its own error pages may show a stack: never outside development.
  app.set("env", config.NODE_ENV === "development" ? "development" : "production");
  app.set("trust proxy", config.TRUST_PROXY);
  app.set("etag", false);

  app.use(httpLog(log, { ignore: (path) => path === "/api/mcp/health", metrics: container.metrics }));
  const headers = securityHeaderList({ devMode: config.NODE_ENV === "development" });
  app.use(securityHeaders(headers));
  const requestLogDeps = { service: services.requestLog, now: () => container.clock.now() };
  if (config.REQUEST_LOG) app.use(requestLog(requestLogDeps));

  // The OAuth 2.1 authorization server (D13) and its metadata, outside /api: form bodies, no cookies.
  const issuer = services.oauthTokens.issuer;
  app.use(
    oauthRoutes({
      provider: createOAuthProvider({ clients: services.oauthClients, tokens: services.oauthTokens }),
      clients: services.oauthClients,
      tokens: services.oauthTokens,
      issuer,
      dynamicRegistration: config.OAUTH_DYNAMIC_REGISTRATION,
      metadataDocuments: config.OAUTH_CLIENT_ID_METADATA_DOCUMENTS,
      rateLimit: { requests: config.RATE_LIMIT_OAUTH_REQUESTS, windowMinutes: config.RATE_LIMIT_OAUTH_WINDOW_MINUTES },
    }),
  );
  app.use(metricsRoutes({ metrics: container.metrics, token: config.METRICS_TOKEN, auth: services.auth }));
  const readToken = bearer({ verifier: services.oauthTokens, issuer, scope: "read" });
  // One API budget per OAuth client (D16), whichever bearer route spends it.
  const apiRateLimit = clientRateLimit({ perMinute: config.RATE_LIMIT_API_PER_MINUTE, burst: config.RATE_LIMIT_API_BURST });

  // MCP (D8): /mcp and the specification's /api/mcp/protocol, its event stream, the legacy transport.
  const readTokenAt = (resourcePath: string) => bearer({ verifier: services.oauthTokens, issuer, scope: "read", resourcePath });
  const mcpCore = createMcpCore({ targets: container.upstream.targets, cursors: container.mcp.cursors, availability: container.mcp.toolAvailability, toolCalls: services.toolCalls, version: options.version, log, destructiveTools: config.MCP_DESTRUCTIVE_TOOLS, metrics: container.metrics, budget: container.upstream.clientBudget });
  const mcpFactory = createMcpServerFactory(mcpCore);
  // The chat (issue 13) runs the MCP tool layer in process: the same tools, filter, policy and audit as an MCP client.
  const chat = createChatService({
    repo: container.repos.chatRepo,
    clock: container.clock,
    log,
    providers: services.aiProviders,
    tools: mcpCore,
    fetch: container.ai.fetch,
    baseUrls: container.ai.baseUrls,
    timeoutMs: config.AI_TIMEOUT_MS,
  });
  const streamDeps = { streams: container.mcp.streams, connections: services.connections, log };
  const mcpGuards = { mcp: readTokenAt(MCP_PATH), spec: readTokenAt(SPEC_PROTOCOL_PATH) };
  const { router: mcpRouter } = mcpRoutes({
    factory: mcpFactory,
    core: mcpCore,
    fastLane: config.MCP_FAST_LANE,
    bus: container.mcp.bus,
    guards: mcpGuards,
    rateLimit: apiRateLimit,
    streams: container.mcp.streams,
    connections: services.connections,
    allowedOrigins: [...config.CORS_ORIGINS, new URL(issuer).origin],
    resourceMetadataUrl: (path) => resourceMetadataUrlOf(issuer, path),
    maxBodyBytes: LIMITS.mcpBodyBytes,
    log,
  });
  app.use(mcpRouter);
  const eventStream = { deps: { ...streamDeps, heartbeatMs: config.heartbeatMs ?? TIMINGS.sseHeartbeatMs }, guard: readTokenAt(EVENT_STREAM_PATH) };
  app.use(eventStreamRoutes({ ...eventStream.deps, guard: eventStream.guard }));
  if (config.MCP_LEGACY_SSE) {
    app.use(legacySseRoutes({ ...streamDeps, factory: mcpFactory, bus: container.mcp.bus, guard: readTokenAt(LEGACY_SSE_PATH), rateLimit: apiRateLimit, maxBodyBytes: LIMITS.mcpBodyBytes, resourceMetadataUrl: resourceMetadataUrlOf(issuer, LEGACY_SSE_PATH) }));
  }

  const api = express.Router();
  api.use(healthRoutes({ version: options.version, startedAt: options.startedAt, clock: container.clock, pingDatabase: container.database.ping }));
  // Bearer-token routes (D9, D12) come before the cookie machinery: a cookie never stands in for a token.
  api.use(proxyRoutes({ targets: container.upstream.targets, readGuard: readToken, rateLimit: apiRateLimit }));
  api.use(csrfGuard({ trustedOrigins: config.CORS_ORIGINS }));
  api.use(jsonBody({ limitBytes: LIMITS.jsonBodyBytes }));
  api.use(loadSession(services.auth));
  api.use((_req, res, next) => {
    res.set("Cache-Control", "no-store");
    next();
  });
  // Route modules are mounted without a path prefix, so each route's path is its full path under
  // /api: the authorization-matrix test reads them from here.
  api.use(authRoutes({ auth: services.auth }));
  api.use(usersRoutes({ users: services.users }));
  api.use(rolesRoutes({ roles: services.roles }));
  api.use(auditRoutes({ audit: services.audit }));
  api.use(integrationsRoutes({ integrations: services.integrations, status: services.integrationStatus, settings: config }));
  api.use(oauthClientsRoutes({ clients: services.oauthClients, tokens: services.oauthTokens, integrations: services.integrations, policyOptions: services.policyOptions }));
  api.use(mcpConnectionRoutes(config));
  api.use(setupRoutes({ setup: services.setup }));
  api.use(logsRoutes({ requestLog: services.requestLog, toolCalls: services.toolCalls, clock: container.clock, log }));
  api.use(
    statsRoutes({
      startedAt: options.startedAt,
      clock: container.clock,
      log,
      activeStreams: services.connections.countActive,
      oauthClients: services.oauthClients.count,
      liveGrants: services.oauthTokens.liveGrants,
      requestsSince: services.requestLog.countSince,
      endpointMedians: services.requestLog.endpointMedians,
      requestsPerMinute: services.requestLog.perMinute,
      upstreamPerMinute: container.upstream.meter.callsPerMinute,
    }),
  );
  api.use(toolCallsRoutes({ toolCalls: services.toolCalls }));
  api.use(sseConnectionsRoutes({ connections: services.connections }));
  api.use(aiProvidersRoutes({ aiProviders: services.aiProviders }));
  api.use(chatRoutes({ chat }));
  api.use(apiNotFound);
  app.use("/api", api);

  if (options.consoleHandler) app.use(options.consoleHandler);
  app.use(notFound);
  app.use(errorHandler);

  const mcpLane = config.MCP_FAST_LANE
    ? laneAtTheDoor({ core: mcpCore, guards: new Map([[MCP_PATH, mcpGuards.mcp], [SPEC_PROTOCOL_PATH, mcpGuards.spec]]), rateLimit: apiRateLimit.admits, maxBodyBytes: LIMITS.mcpBodyBytes })
    : undefined;
  const front = frontDoor({
    log,
    headers,
    ...(config.REQUEST_LOG ? { requestLog: requestLogDeps } : {}),
    trustProxy: app.get("trust proxy fn") as (address: string, hop: number) => boolean,
    eventStream,
    ...(mcpLane ? { mcpLane } : {}),
    metrics: container.metrics,
  });
  return { app, front };
}
