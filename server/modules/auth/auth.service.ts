import { createHmac, randomBytes } from "node:crypto";
import type { Login } from "../../../contract/auth";
import { AppError, retryAfter } from "../../lib/app-error";
import type { Clock } from "../../lib/clock";
import type { Logger } from "../../lib/logger";
import { hashPassword, verifyPassword } from "../../lib/passwords";
import { randomToken, sha256Hex } from "../../lib/tokens";
import type { SessionRow, UserRow } from "../../db/schema";
import type { AuditService } from "../audit/audit.service";
import type { UserRolesRepo } from "../users/user-roles.repo";
import type { UsersRepo } from "../users/users.repo";
import type { LoginThrottle } from "./login-throttle";
import type { SessionsRepo } from "./sessions.repo";

export interface SessionLifetimes {
  idleMs: number;
  maxAgeMs: number;
}

export interface ClientInfo {
  ip: string;
  userAgent: string | null;
}

export interface ResolvedSession {
  session: SessionRow;
  user: UserRow;
  /** Names of the user's active roles and the `resource.action` keys they grant, read per request. */
  grants: { roles: string[]; permissions: string[] };
  permissions: ReadonlySet<string>;
}

export type AuthService = ReturnType<typeof createAuthService>;

/** A session's last-seen time is written at most this often, so reads stay reads. */
const TOUCH_INTERVAL_MS = 60_000;

export function createAuthService(deps: {
  usersRepo: UsersRepo;
  sessionsRepo: SessionsRepo;
  userRolesRepo: UserRolesRepo;
  audit: AuditService;
  throttle: LoginThrottle;
  clock: Clock;
  lifetimes: SessionLifetimes;
  log: Logger;
}) {
  const { usersRepo, sessionsRepo, userRolesRepo, audit, throttle, clock, lifetimes, log } = deps;
  const attempt = (
    username: string | null,
    ip: string,
    outcome: "success" | "failure",
    reason?: string,
    userId?: string,
    extra: Record<string, unknown> = {},
  ) =>
    audit.record(
      { userId: userId ?? null, username, ip },
      {
        action: "auth.login",
        outcome,
        ...(userId ? { targetType: "user", targetId: userId } : {}),
        ...(reason ? { details: { reason, ...extra } } : {}),
      },
    );
  /**
   * A name that matches no account is kept out of logs and the audit trail: people type their
   * password into the username field. A keyed digest (the key lives only as long as the process)
   * still lets one run's attempts at the same name be told apart from others.
   */
  const digestKey = randomBytes(32);
  const nameDigest = (username: string) => createHmac("sha256", digestKey).update(username.toLowerCase()).digest("hex").slice(0, 16);

  // Unknown usernames are checked against this hash so that they take as long as known ones
  // (no user enumeration by timing).
  let dummyHash: Promise<string> | undefined;
  const getDummyHash = () => (dummyHash ??= hashPassword(randomToken()));

  const isLive = (session: SessionRow, now: Date) =>
    session.expiresAt.getTime() > now.getTime() && now.getTime() - session.lastSeenAt.getTime() < lifetimes.idleMs;

  return {
    /**
     * Checks the credentials and opens a new session. `previousToken` (the cookie the browser
     * came with, if any) is ended, so a session id planted before sign-in is worthless after it.
     */
    async login(input: Login, client: ClientInfo, previousToken?: string) {
      const admitted = await throttle.admit(input.username, client.ip);
      if ("retryAfterMs" in admitted) {
        const wait = admitted.retryAfterMs;
        // Logged, not audited: a refused attempt never reaches the password check, and auditing
        // each one would let a password sprayer grow the audit table at request rate.
        log.warn({ event: "login_throttled", usernameDigest: nameDigest(input.username), ip: client.ip }, "sign-in throttled");
        const minutes = Math.max(1, Math.ceil(wait / 60_000));
        throw new AppError("rate_limited", `Too many sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`, {
          headers: retryAfter(wait),
        });
      }

      const user = await usersRepo.findByUsername(input.username);
      const passwordOk = await verifyPassword(user?.passwordHash ?? (await getDummyHash()), input.password);
      await admitted.settle(Boolean(user && passwordOk));
      if (!user || !passwordOk) {
        if (user) await attempt(user.username, client.ip, "failure", "wrong_password", user.id);
        else await attempt(null, client.ip, "failure", "unknown_user", undefined, { usernameDigest: nameDigest(input.username) });
        log.info(
          { event: "login_failed", ...(user ? { userId: user.id } : { usernameDigest: nameDigest(input.username) }), ip: client.ip },
          "sign-in failed",
        );
        throw new AppError("invalid_credentials", "Invalid credentials");
      }
      // Said only to someone who knows the password, so it reveals nothing to a guesser.
      if (!user.isActive) {
        await attempt(input.username, client.ip, "failure", "inactive", user.id);
        throw new AppError("account_inactive", "This account is deactivated. Ask an administrator to reactivate it.");
      }

      if (previousToken) await sessionsRepo.delete(sha256Hex(previousToken));

      const now = clock.now();
      const token = randomToken();
      const expiresAt = new Date(now.getTime() + lifetimes.maxAgeMs);
      await sessionsRepo.insert({
        id: sha256Hex(token),
        userId: user.id,
        createdAt: now,
        expiresAt,
        ipAddress: client.ip,
        userAgent: client.userAgent?.slice(0, 512) ?? null,
      });
      await usersRepo.setLastLogin(user.id, now);
      await attempt(user.username, client.ip, "success", undefined, user.id);
      log.info({ event: "login", userId: user.id, ip: client.ip }, "signed in");
      return { token, expiresAt, user: { ...user, lastLoginAt: now }, grants: await userRolesRepo.grantsFor(user.id) };
    },

    /** The live session behind a cookie token, or null. An idle or expired one is removed. */
    async resolve(token: string): Promise<ResolvedSession | null> {
      const id = sha256Hex(token);
      const found = await sessionsRepo.findWithUser(id);
      if (!found) return null;
      const now = clock.now();
      if (!isLive(found.session, now) || !found.user.isActive) {
        await sessionsRepo.delete(id);
        return null;
      }
      if (now.getTime() - found.session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
        await sessionsRepo.touch(id, now);
      }
      // The grants are read with the session on every request, so a role change takes effect at once.
      return { ...found, permissions: new Set(found.grants.permissions) };
    },

    async logout(token: string): Promise<void> {
      await sessionsRepo.delete(sha256Hex(token));
    },

    /** Housekeeping, run on a timer: drops sessions nobody can use any more. */
    pruneStale: () => sessionsRepo.deleteStale(clock.now(), lifetimes.idleMs),
  };
}
