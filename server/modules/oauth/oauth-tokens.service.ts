import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import {
  InvalidGrantError,
  InvalidTargetError,
  InvalidTokenError,
  UnauthorizedClientError,
} from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { Clock } from "../../lib/clock";
import type { SecretBox } from "../../lib/secret-box";
import type { EventBus } from "../../lib/event-bus";
import { sha256Hex } from "../../lib/tokens";
import { acceptScopes, prefixedToken, resourceRules, type OAuthClient, type OAuthServerSettings } from "./oauth-grant-rules";
import type { OAuthGrantsRepo } from "./oauth-grants.repo";

export type { OAuthClient } from "./oauth-grant-rules";

/** Verified access tokens are remembered this long (and dropped at once on any revocation). */
const VERIFY_CACHE_MS = 30_000;
const VERIFY_CACHE_MAX = 10_000;

/**
 * The token endpoint's side of the authorization server (consent and codes are
 * oauth-consent.service.ts's): codes exchanged, the token families behind them, rotation with
 * reuse detection, revocation, and the cheap verification of access tokens.
 */
export function createOAuthTokensService(deps: {
  repo: OAuthGrantsRepo;
  clock: Clock;
  settings: OAuthServerSettings;
  secretBox: SecretBox;
  events: EventBus;
}) {
  const { repo, clock, settings, secretBox } = deps;
  const { defaultResource, acceptResource } = resourceRules(settings.issuer);
  const verified = new Map<string, { info: AuthInfo; at: number }>();

  const now = () => clock.now();
  const after = (seconds: number) => new Date(now().getTime() + seconds * 1000);

  async function issue(grantId: string, scopes: string[], withRefresh: boolean): Promise<OAuthTokens> {
    const access = prefixedToken("bk_at_");
    const refresh = withRefresh ? prefixedToken("bk_rt_") : null;
    await repo.insertTokens([
      { tokenHash: sha256Hex(access), kind: "access", grantId, scopes, expiresAt: after(settings.accessTokenTtlSeconds), createdAt: now() },
      ...(refresh
        ? [
            {
              tokenHash: sha256Hex(refresh),
              kind: "refresh",
              grantId,
              scopes,
              expiresAt: after(settings.refreshTokenTtlSeconds),
              createdAt: now(),
            },
          ]
        : []),
    ]);
    return {
      access_token: access,
      token_type: "Bearer",
      expires_in: settings.accessTokenTtlSeconds,
      scope: scopes.join(" "),
      ...(refresh ? { refresh_token: refresh } : {}),
    };
  }

  /** The successor pair of a rotated refresh token is sealed to that token alone. */
  const successorPurpose = (tokenHash: string) => `refresh-successor:${tokenHash}`;

  /**
   * The pair a refresh token was rotated into, when it is presented again within the grace window
   * (two refreshes racing with one token: both get the same new pair); otherwise undefined.
   */
  function graceSuccessor(token: { rotatedAt: Date | null; successorSealed: string | null; tokenHash: string }): OAuthTokens | undefined {
    if (!token.rotatedAt || !token.successorSealed) return undefined;
    const age = now().getTime() - token.rotatedAt.getTime();
    if (age > settings.refreshGraceSeconds * 1000) return undefined;
    try {
      const pair = JSON.parse(secretBox.open(token.successorSealed, successorPurpose(token.tokenHash))) as OAuthTokens;
      return { ...pair, expires_in: Math.max(1, (pair.expires_in ?? settings.accessTokenTtlSeconds) - Math.floor(age / 1000)) };
    } catch {
      return undefined;
    }
  }

  async function revokeFamily(grantId: string, reason: string): Promise<void> {
    await repo.revokeGrant(grantId, reason, now());
    verified.clear();
    deps.events.emit("oauth.token-revoked", { grantId, reason });
  }

  /** The code's checks, shared by the PKCE lookup and the exchange. */
  async function liveCode(client: OAuthClient, code: string) {
    const row = await repo.findCode(sha256Hex(code));
    if (!row) throw new InvalidGrantError("Invalid authorization code");
    if (row.grant.clientId !== client.rowId) throw new InvalidGrantError("The authorization code was issued to another client");
    if (row.consumedAt) {
      // RFC 9700 §4.2.4 / OAuth 2.1 §4.1.3: a code used twice revokes what it issued.
      await revokeFamily(row.grantId, "authorization code reused");
      throw new InvalidGrantError("The authorization code was already used");
    }
    if (row.expiresAt <= now()) throw new InvalidGrantError("The authorization code has expired");
    if (row.grant.revokedAt) throw new InvalidGrantError("The authorization was revoked");
    return row;
  }

  return {
    issuer: settings.issuer,
    defaultResource,

    async challengeForCode(client: OAuthClient, code: string): Promise<string> {
      return (await liveCode(client, code)).codeChallenge;
    },

    async exchangeCode(client: OAuthClient, code: string, redirectUri?: string, resource?: URL): Promise<OAuthTokens> {
      const row = await liveCode(client, code);
      // OAuth 2.1 §4.1.3: required, and identical, when the authorization request named one.
      if (redirectUri === undefined ? row.redirectUriExplicit : redirectUri !== row.redirectUri)
        throw new InvalidGrantError("redirect_uri does not match the authorization request");
      if (resource !== undefined && acceptResource(resource) !== row.grant.resource)
        throw new InvalidTargetError("resource does not match the authorization request");
      if (!(await repo.consumeCode(row.codeHash, now()))) {
        await revokeFamily(row.grantId, "authorization code reused");
        throw new InvalidGrantError("The authorization code was already used");
      }
      return issue(row.grantId, row.grant.scopes, client.grant_types?.includes("refresh_token") ?? false);
    },

    /**
     * RFC 9700 §4.14.2: rotation; a refresh token presented twice revokes its whole family, except
     * within `refreshGraceSeconds` of its rotation, when it yields the same new pair again: clients
     * that refresh in parallel are not logged out, and a replay later still revokes everything.
     */
    async exchangeRefresh(client: OAuthClient, refreshToken: string, scopes?: string[], resource?: URL): Promise<OAuthTokens> {
      const hash = sha256Hex(refreshToken);
      const found = await repo.findToken(hash);
      if (!found || found.token.kind !== "refresh" || found.grant.clientId !== client.rowId)
        throw new InvalidGrantError("Invalid refresh token");
      const { token, grant } = found;
      if (found.userActive === false) throw new InvalidGrantError("The user who authorized this client is no longer active");
      const reused = async (): Promise<never> => {
        await revokeFamily(grant.id, "refresh token reused");
        throw new InvalidGrantError("The refresh token was already used; the authorization is revoked");
      };
      const live = () => !grant.revokedAt && grant.expiresAt > now();
      if (token.rotatedAt) {
        const again = live() ? graceSuccessor(token) : undefined;
        return again ?? reused();
      }
      if (token.revokedAt || grant.revokedAt || token.expiresAt <= now() || grant.expiresAt <= now())
        throw new InvalidGrantError("The refresh token is expired or revoked");
      const narrowed = acceptScopes(scopes, grant.scopes);
      if (resource !== undefined && acceptResource(resource) !== grant.resource)
        throw new InvalidTargetError("resource does not match the authorization");
      // The new pair is stored before the old token is marked rotated, so whoever reads the sealed
      // successor (a racing refresh) is handed tokens that already work.
      const pair = await issue(grant.id, narrowed, true);
      const sealed = settings.refreshGraceSeconds > 0 ? secretBox.seal(JSON.stringify(pair), successorPurpose(hash)) : null;
      if (await repo.rotateRefreshToken(hash, now(), sealed)) return pair;
      // Another refresh rotated it first: ours is void; theirs is the answer, within the window.
      await repo.deleteTokens([sha256Hex(pair.access_token), sha256Hex(pair.refresh_token!)]);
      const winner = await repo.findToken(hash);
      const again = winner && live() ? graceSuccessor(winner.token) : undefined;
      return again ?? reused();
    },

    /** RFC 6749 §4.4: a confidential client acting for itself; no refresh token. */
    async clientCredentials(client: OAuthClient, scopes: string[] | undefined, resource: string | undefined): Promise<OAuthTokens> {
      if (!client.client_secret || !client.grant_types?.includes("client_credentials"))
        throw new UnauthorizedClientError("This client may not use client_credentials");
      const granted = acceptScopes(scopes, client.allowedScopes);
      const grant = await repo.insertGrant({
        clientId: client.rowId,
        userId: null,
        scopes: granted,
        resource: acceptResource(resource),
        expiresAt: after(settings.accessTokenTtlSeconds),
        createdAt: now(),
      });
      return issue(grant.id, granted, false);
    },

    /** RFC 7009: revoking a refresh token ends its family; an access token, itself. Unknown tokens: nothing. */
    async revoke(client: OAuthClient, token: string): Promise<void> {
      const found = await repo.findToken(sha256Hex(token));
      if (!found || found.grant.clientId !== client.rowId) return;
      if (found.token.kind === "refresh") await revokeFamily(found.grant.id, "refresh token revoked");
      else {
        await repo.revokeToken(found.token.tokenHash, now());
        verified.delete(found.token.tokenHash);
        deps.events.emit("oauth.token-revoked", { grantId: found.grant.id, reason: "access token revoked" });
      }
    },

    /** The bearer guard's check (docs/decisions.md#bearer-tokens-and-scopes): cached, so a protected request costs a hash and a map lookup. */
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      const hash = sha256Hex(token);
      const nowMs = now().getTime();
      const hit = verified.get(hash);
      if (hit && nowMs - hit.at < VERIFY_CACHE_MS) {
        if ((hit.info.expiresAt ?? 0) * 1000 <= nowMs) throw new InvalidTokenError("The access token has expired");
        return hit.info;
      }
      const found = await repo.findToken(hash);
      if (!found || found.token.kind !== "access") throw new InvalidTokenError("Invalid access token");
      const { token: row, grant, client } = found;
      if (row.revokedAt || grant.revokedAt || !client.isActive || found.userActive === false)
        throw new InvalidTokenError("The access token was revoked");
      if (row.expiresAt.getTime() <= nowMs || grant.expiresAt.getTime() <= nowMs)
        throw new InvalidTokenError("The access token has expired");
      const info: AuthInfo = {
        token,
        clientId: client.clientId,
        scopes: row.scopes,
        expiresAt: Math.floor(row.expiresAt.getTime() / 1000),
        resource: new URL(grant.resource),
        extra: { userId: grant.userId, grantId: grant.id, policy: client.policy ?? null },
      };
      if (verified.size >= VERIFY_CACHE_MAX) verified.clear();
      verified.set(hash, { info, at: nowMs });
      return info;
    },

    /** Drops every cached token check (something elsewhere revoked access). */
    forgetVerified: () => verified.clear(),

    /** Live grants: "active OAuth sessions" on the dashboard (docs/decisions.md#oauth-authorization-server). */
    liveGrants: () => repo.countLiveGrants(now()),
    prune: () => repo.prune(now(), settings.refreshGraceSeconds),
  };
}

export type OAuthTokensService = ReturnType<typeof createOAuthTokensService>;
