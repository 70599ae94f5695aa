import type { Env } from "./env";
import type { SecretBox } from "./lib/secret-box";
import { createIntegrationStatusService } from "./modules/integrations/integration-status.service";
import { createIntegrationsService, SERVICES_OF } from "./modules/integrations/integrations.service";
import { createEventBus } from "./lib/event-bus";
import type { SettingsConfig } from "./modules/integrations/settings";
import { createOAuthClientsService } from "./modules/oauth/oauth-clients.service";
import { createOAuthTokensService } from "./modules/oauth/oauth-tokens.service";
import { createUpstreamHttp, type UpstreamOptions } from "./upstream/http";
import { createUpstreamMeter } from "./upstream/meter";
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

export type AppConfig = Pick<
  Env,
  | "NODE_ENV"
  | "TRUST_PROXY"
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
> &
  SettingsConfig & {
    loginLimits?: LoginThrottleLimits;
    /** A CA for fetching client metadata documents from a test server with its own certificate (tests). */
    clientMetadataTls?: { ca: string };
    /** Overrides of the upstream layer's retry, breaker and size limits (tests). */
    upstream?: Partial<Omit<UpstreamOptions, "meter">>;
  };

/** Wires repos and services from their dependencies: the only place that knows the whole graph. */
export function createContainer(deps: { database: Database; config: AppConfig; clock: Clock; log: Logger; secretBox: SecretBox }) {
  const { database, config, clock, log, secretBox } = deps;
  const events = createEventBus({ log });
  const repos = createRepos(database.db);
  const transact = createTransact(database.db);
  const audit = createAuditService({ auditRepo: repos.auditRepo, clock, log });
  const auth = createAuthService({
    usersRepo: repos.usersRepo,
    sessionsRepo: repos.sessionsRepo,
    userRolesRepo: repos.userRolesRepo,
    audit,
    throttle: createLoginThrottle(config.loginLimits ?? DEFAULT_LOGIN_LIMITS),
    clock,
    log,
    policy: { idleMs: config.SESSION_IDLE_MINUTES * 60_000, maxAgeMs: config.SESSION_MAX_HOURS * 3_600_000 },
  });
  const users = createUsersService({ repos, transact, audit, clock, events });
  const roles = createRolesService({ repos, transact, audit, clock, events });
  const meter = createUpstreamMeter({ clock, events, hourlyBudget: { atlassian: config.ATLASSIAN_HOURLY_BUDGET, bitbucket: config.BITBUCKET_HOURLY_BUDGET } });
  const hostPolicy = createHostPolicy({ allowPrivate: config.UPSTREAM_ALLOW_PRIVATE, allowedHosts: config.UPSTREAM_ALLOWED_HOSTS });
  const http = createUpstreamHttp({ meter, timeoutMs: config.UPSTREAM_TIMEOUT_MS, hostPolicy, ...config.upstream });
  const integrations = createIntegrationsService({ repo: repos.integrationsRepo, secretBox, audit, clock, http, hostPolicy, bitbucketApiUrl: config.BITBUCKET_API_URL, events });
  const integrationStatus = createIntegrationStatusService({
    integrations,
    repo: repos.integrationsRepo,
    meter,
    clock,
    log,
    probeTimeoutMs: Math.min(config.UPSTREAM_TIMEOUT_MS, 5_000),
  });
  const metadataDocuments = config.OAUTH_CLIENT_ID_METADATA_DOCUMENTS ? createClientMetadataDocuments({ hostPolicy, clock, ...(config.clientMetadataTls ? { tls: config.clientMetadataTls } : {}) }) : undefined;
  const oauthClients = createOAuthClientsService({ repo: repos.oauthClientsRepo, grantsRepo: repos.oauthGrantsRepo, secretBox, audit, clock, log, events, ...(metadataDocuments ? { metadataDocuments } : {}) });
  const oauthTokens = createOAuthTokensService({
    repo: repos.oauthGrantsRepo,
    audit,
    clock,
    policy: {
      issuer: publicUrl(config),
      accessTokenTtlSeconds: config.OAUTH_ACCESS_TOKEN_TTL_SECONDS,
      refreshTokenTtlSeconds: config.OAUTH_REFRESH_TOKEN_TTL_DAYS * 86_400,
      codeTtlSeconds: 600,
      consentTtlSeconds: 600,
      refreshGraceSeconds: config.OAUTH_REFRESH_GRACE_SECONDS,
    },
    secretBox,
    events,
  });

  // Who reacts to what: every subscription of the event bus, in one place (ARCHITECTURE rule 11).
  // OAuth access that ended or narrowed anywhere: no cached token check may outlive it.
  events.on("oauth.client-revoked", () => oauthTokens.forgetVerified());
  events.on("user.access-changed", () => oauthTokens.forgetVerified());
  // A saved integration is another target: what was known about the old one no longer holds.
  events.on("integration.saved", ({ kind }) => {
    meter.forgetOutcomes(SERVICES_OF[kind]);
    for (const service of SERVICES_OF[kind]) http.resetCircuits(service);
    integrationStatus.forgetWorkspace(kind);
  });
  // Last sync survives a restart.
  events.on("upstream.outcome", ({ service, outcome }) => integrationStatus.persistOutcome(service, outcome));

  return {
    database,
    config,
    clock,
    log,
    repos,
    transact,
    upstream: { http, meter, hostPolicy },
    services: { audit, auth, users, roles, integrations, integrationStatus, oauthClients, oauthTokens },
    events,
    /** Stops what holds sockets or timers (the upstream connection pool). */
    close: () => Promise.all([http.close(), metadataDocuments?.close()]).then(() => undefined),
  };
}

export type Container = ReturnType<typeof createContainer>;

/** Where clients reach this server: PUBLIC_URL, or localhost on the configured port. */
export const publicUrl = (config: Pick<Env, "PUBLIC_URL" | "PORT">): string => config.PUBLIC_URL ?? `http://localhost:${config.PORT}`;
