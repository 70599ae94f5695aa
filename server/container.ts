import type { Env } from "./env";
import type { SecretBox } from "./lib/secret-box";
import { createIntegrationStatusService } from "./modules/integrations/integration-status.service";
import { createIntegrationsService } from "./modules/integrations/integrations.service";
import type { SettingsConfig } from "./modules/integrations/settings";
import { createUpstreamHttp, type UpstreamOptions } from "./upstream/http";
import { createUpstreamMeter } from "./upstream/meter";
import type { Database } from "./db/client";
import type { Clock } from "./lib/clock";
import type { Logger } from "./lib/logger";
import { createAuditService } from "./modules/audit/audit.service";
import { createAuthService } from "./modules/auth/auth.service";
import { createLoginThrottle, DEFAULT_LOGIN_LIMITS, type LoginThrottleLimits } from "./modules/auth/login-throttle";
import { createRolesService } from "./modules/roles/roles.service";
import { createUsersService } from "./modules/users/users.service";
import { createRepos, createTransact } from "./repos";

export type AppConfig = Pick<Env, "NODE_ENV" | "TRUST_PROXY" | "SESSION_IDLE_MINUTES" | "SESSION_MAX_HOURS" | "CORS_ORIGINS"> &
  SettingsConfig & {
    loginLimits?: LoginThrottleLimits;
    /** Overrides of the upstream layer's retry, breaker and size limits (tests). */
    upstream?: Partial<Omit<UpstreamOptions, "meter">>;
  };

/** Wires repos and services from their dependencies: the only place that knows the whole graph. */
export function createContainer(deps: { database: Database; config: AppConfig; clock: Clock; log: Logger; secretBox: SecretBox }) {
  const { database, config, clock, log, secretBox } = deps;
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
  const users = createUsersService({ repos, transact, audit });
  const roles = createRolesService({ repos, transact, audit });
  const meter = createUpstreamMeter({ clock, hourlyBudget: { atlassian: config.ATLASSIAN_HOURLY_BUDGET, bitbucket: config.BITBUCKET_HOURLY_BUDGET } });
  const http = createUpstreamHttp({ meter, timeoutMs: config.UPSTREAM_TIMEOUT_MS, ...config.upstream });
  const integrations = createIntegrationsService({ repo: repos.integrationsRepo, secretBox, audit, clock, http, meter, bitbucketApiUrl: config.BITBUCKET_API_URL });
  const integrationStatus = createIntegrationStatusService({
    integrations,
    repo: repos.integrationsRepo,
    meter,
    clock,
    log,
    probeTimeoutMs: Math.min(config.UPSTREAM_TIMEOUT_MS, 5_000),
  });
  return {
    database,
    config,
    clock,
    log,
    repos,
    transact,
    upstream: { http, meter },
    services: { audit, auth, users, roles, integrations, integrationStatus },
    /** Stops what holds sockets or timers (the upstream connection pool). */
    close: () => http.close(),
  };
}

export type Container = ReturnType<typeof createContainer>;
