import type { Env } from "./env";
import type { Database } from "./db/client";
import type { Clock } from "./lib/clock";
import type { Logger } from "./lib/logger";
import { createAuthService } from "./modules/auth/auth.service";
import { createLoginThrottle, DEFAULT_LOGIN_LIMITS, type LoginThrottleLimits } from "./modules/auth/login-throttle";
import { createSessionsRepo } from "./modules/auth/sessions.repo";
import { createUsersRepo } from "./modules/users/users.repo";

export type AppConfig = Pick<
  Env,
  "NODE_ENV" | "TRUST_PROXY" | "SESSION_IDLE_MINUTES" | "SESSION_MAX_HOURS" | "CORS_ORIGINS"
> & { loginLimits?: LoginThrottleLimits };

/** Wires repos and services from their dependencies: the only place that knows the whole graph. */
export function createContainer(deps: { database: Database; config: AppConfig; clock: Clock; log: Logger }) {
  const { database, config, clock, log } = deps;
  const usersRepo = createUsersRepo(database.db);
  const sessionsRepo = createSessionsRepo(database.db);
  const auth = createAuthService({
    usersRepo,
    sessionsRepo,
    throttle: createLoginThrottle(config.loginLimits ?? DEFAULT_LOGIN_LIMITS),
    clock,
    log,
    policy: { idleMs: config.SESSION_IDLE_MINUTES * 60_000, maxAgeMs: config.SESSION_MAX_HOURS * 3_600_000 },
  });
  return { database, config, clock, log, repos: { usersRepo, sessionsRepo }, services: { auth } };
}

export type Container = ReturnType<typeof createContainer>;
