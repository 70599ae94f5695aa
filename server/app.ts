import { accountsRoutes } from "./http/routes/accounts.routes";
import type { RequestListener } from "node:http";
import express, { type RequestHandler } from "express";
import { LIMITS } from "../contract/limits";
import type { Container } from "./container";
import { csrfGuard } from "./http/middleware/csrf";
import { apiNotFound, errorHandler, notFound } from "./http/middleware/error-handler";
import { httpLog } from "./http/middleware/http-log";
import { jsonBody } from "./http/middleware/json-body";
import { securityHeaderList, securityHeaders } from "./http/middleware/security-headers";
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
import { TIMINGS } from "../contract/limits";
import { requestLog } from "./http/middleware/request-log";
import { logsRoutes } from "./http/routes/logs.routes";
import { statsRoutes } from "./http/routes/stats.routes";
import { metricsRoutes } from "./http/routes/metrics.routes";
import { toolCallsRoutes } from "./http/routes/tool-calls.routes";
import { sseConnectionsRoutes } from "./http/routes/sse-connections.routes";
import { aiProvidersRoutes } from "./http/routes/ai-providers.routes";
import { chatRoutes } from "./http/routes/chat.routes";
import { openApiRoutes } from "./http/routes/openapi.routes";
import { trustProxyOf } from "./http/client-address";
import { requestListener } from "./http/request-listener";
import { createMcpPipeline } from "./mcp/pipeline";

export interface BuildAppOptions {
  version: string;
  startedAt: Date;
  /** Serves the console for non-API paths: the built files, or Vite's dev middleware. */
  consoleHandler?: RequestHandler;
  /** True while the process drains before it stops: the health check answers 503 so load balancers send no more. */
  draining?: () => boolean;
}

/** The Express app (the console API, OAuth, static files), and the server's request listener: the MCP pipeline, then the app. */
export interface BuiltApp {
  app: express.Express;
  listener: RequestListener;
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

  // The OAuth 2.1 authorization server (docs/decisions.md#oauth-authorization-server) and its metadata, outside /api: form bodies, no cookies.
  const issuer = services.oauthTokens.issuer;
  app.use(
    oauthRoutes({
      provider: createOAuthProvider({ clients: services.oauthClients, consent: services.oauthConsent, tokens: services.oauthTokens }),
      clients: services.oauthClients,
      tokens: services.oauthTokens,
      issuer,
      dynamicRegistration: config.OAUTH_DYNAMIC_REGISTRATION,
      metadataDocuments: config.OAUTH_CLIENT_ID_METADATA_DOCUMENTS,
      rateLimit: { requests: config.RATE_LIMIT_OAUTH_REQUESTS, windowMinutes: config.RATE_LIMIT_OAUTH_WINDOW_MINUTES },
      limits: container.limits,
    }),
  );
  app.use(metricsRoutes({ metrics: container.metrics, token: config.METRICS_TOKEN, auth: services.auth }));
  const readToken = bearer({ verifier: services.oauthTokens, issuer, scope: "read", limits: container.limits });
  // One API budget per OAuth client (docs/decisions.md#rate-limits), whichever bearer route spends it.
  const apiRateLimit = clientRateLimit(
    { perMinute: config.RATE_LIMIT_API_PER_MINUTE, burst: config.RATE_LIMIT_API_BURST },
    container.limits,
  );

  // MCP (docs/decisions.md#mcp-transports): every entry (/mcp, /api/mcp/protocol, its event stream, the legacy transport) is
  // served by the pipeline before Express (mcp/pipeline.ts); it spends the same API budget.
  const mcp = createMcpPipeline({
    core: container.mcp.core,
    factory: container.mcp.factory,
    bus: container.mcp.bus,
    guardAt: (resourcePath) => bearer({ verifier: services.oauthTokens, issuer, scope: "read", resourcePath, limits: container.limits }),
    rateLimit: apiRateLimit,
    streams: container.mcp.streams,
    forwarding: container.mcp.forwarding,
    connections: services.connections,
    allowedOrigins: [...config.CORS_ORIGINS, new URL(issuer).origin],
    resourceMetadataUrl: (path) => resourceMetadataUrlOf(issuer, path),
    maxBodyBytes: LIMITS.mcpBodyBytes,
    heartbeatMs: config.heartbeatMs ?? TIMINGS.sseHeartbeatMs,
    directAnswers: config.MCP_FAST_LANE,
    legacySse: config.MCP_LEGACY_SSE,
    trustProxy: trustProxyOf(config.TRUST_PROXY),
    headers,
    ...(config.REQUEST_LOG ? { requestLog: requestLogDeps } : {}),
    metrics: container.metrics,
    log,
  });

  const api = express.Router();
  api.use(
    healthRoutes({
      version: options.version,
      startedAt: options.startedAt,
      clock: container.clock,
      pingDatabase: container.database.ping,
      draining: options.draining,
    }),
  );
  // Bearer-token routes (docs/decisions.md#bearer-tokens-and-scopes, #read-only-proxy) come before the cookie machinery: a cookie never stands in for a token.
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
  api.use(
    oauthClientsRoutes({
      clients: services.oauthClients,
      consent: services.oauthConsent,
      integrations: services.integrations,
      policyOptions: services.policyOptions,
    }),
  );
  api.use(mcpConnectionRoutes(config));
  api.use(setupRoutes({ setup: services.setup }));
  api.use(logsRoutes({ requestLog: services.requestLog, toolCalls: services.toolCalls, clock: container.clock, log }));
  api.use(statsRoutes({ stats: services.stats, startedAt: options.startedAt }));
  api.use(toolCallsRoutes({ toolCalls: services.toolCalls }));
  api.use(sseConnectionsRoutes({ connections: services.connections }));
  api.use(aiProvidersRoutes({ aiProviders: services.aiProviders }));
  api.use(chatRoutes({ chat: services.chat }));
  api.use(accountsRoutes({ links: services.accountLinks, identity: services.identitySettings }));
  api.use(openApiRoutes({ version: options.version }));
  api.use(apiNotFound);
  app.use("/api", api);

  if (options.consoleHandler) app.use(options.consoleHandler);
  app.use(notFound);
  app.use(errorHandler);

  return { app, listener: requestListener({ mcp, app, log }) };
}
