import type { Env } from "./env";
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
  "NODE_ENV" | "TRUST_PROXY" | "SESSION_IDLE_MINUTES" | "SESSION_MAX_HOURS" | "CORS_ORIGINS"
> & { loginLimits?: LoginThrottleLimits };

/** Wires repos and services from their dependencies: the only place that knows the whole graph. */
export function createContainer(deps: { database: Database; config: AppConfig; clock: Clock; log: Logger }) {
  const { database, config, clock, log } = deps;
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
  return { database, config, clock, log, repos, transact, services: { audit, auth, users, roles } };
}

export type Container = ReturnType<typeof createContainer>;
