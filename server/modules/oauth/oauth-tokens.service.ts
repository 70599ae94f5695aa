import { createHash, randomBytes } from "node:crypto";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { InvalidGrantError, InvalidScopeError, InvalidTargetError, InvalidTokenError, UnauthorizedClientError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { ConsentRequestDto } from "../../../contract/oauth";
import { AppError } from "../../lib/app-error";
import type { Clock } from "../../lib/clock";
import type { SecretBox } from "../../lib/secret-box";
import type { EventBus } from "../../lib/event-bus";
import type { Actor, AuditService } from "../audit/audit.service";
import type { OAuthGrantsRepo } from "./oauth-grants.repo";
import { registeredViaOf } from "./oauth-clients.presenter";
import type { OAuthClientsService } from "./oauth-clients.service";

export interface OAuthPolicy {
  /** This server's issuer identifier (RFC 8414), e.g. https://bridgekeeper.example.com. */
  issuer: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** OAuth 2.1 §4.1.2: codes live at most 10 minutes. */
  codeTtlSeconds: number;
  consentTtlSeconds: number;
  /** A rotated refresh token presented again within this many seconds yields the same new pair (parallel refreshes). */
  refreshGraceSeconds: number;
}

export type OAuthClient = NonNullable<Awaited<ReturnType<OAuthClientsService["forOAuth"]>>>;

/** What the consenting user may hand on: any access needs mcp.read, the write scope mcp.write (D3, issue 9). */
export interface ConsentingUser {
  mayConsent: boolean;
  mayGrantWrite: boolean;
}

export const NO_CONSENT_MESSAGE = "Your account may not authorize MCP clients: it needs the mcp.read permission. Ask an administrator for a role that has it.";

const grantable = (scopes: string[], user: ConsentingUser) => ({
  granted: scopes.filter((s) => s !== "write" || user.mayGrantWrite),
  withheld: scopes.filter((s) => s === "write" && !user.mayGrantWrite),
});

/** "https://app.example.com:8443/cb" -> "app.example.com:8443"; "com.example.app:/cb" -> "com.example.app:". */
const redirectHost = (uri: string): string => {
  const url = new URL(uri);
  return url.host || url.protocol;
};

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");
const randomToken = (prefix: string) => `${prefix}${randomBytes(32).toString("base64url")}`;

/** Verified access tokens are remembered this long (and dropped at once on any revocation). */
const VERIFY_CACHE_MS = 30_000;
const VERIFY_CACHE_MAX = 10_000;

/**
 * The authorization server's rules: consent requests, codes, the token families behind them,
 * rotation with reuse detection, revocation, and the cheap verification of access tokens.
 */
export function createOAuthTokensService(deps: { repo: OAuthGrantsRepo; audit: AuditService; clock: Clock; policy: OAuthPolicy; secretBox: SecretBox; events: EventBus }) {
  const { repo, audit, clock, policy, secretBox } = deps;
  const issuerOrigin = new URL(policy.issuer).origin;
  /** The audience a token is bound to when the client names none: the whole server (RFC 8707). */
  const defaultResource = `${issuerOrigin}/`;
  const verified = new Map<string, { info: AuthInfo; at: number }>();

  const now = () => clock.now();
  const after = (seconds: number) => new Date(now().getTime() + seconds * 1000);

  /** RFC 8707: a resource must be on this server (any path), absolute, without a fragment. */
  function acceptResource(resource: URL | string | undefined): string {
    if (resource === undefined) return defaultResource;
    // RFC 8707 §2: a malformed resource is invalid_target too (client_credentials passes it unparsed).
    if (!URL.canParse(String(resource))) throw new InvalidTargetError("resource must be an absolute URI");
    const url = new URL(String(resource));
    if (url.origin !== issuerOrigin || url.hash || url.username || url.password) throw new InvalidTargetError(`Tokens are only issued for ${defaultResource}`);
    return url.pathname === "/" ? defaultResource : `${url.origin}${url.pathname.replace(/\/+$/, "")}${url.search}`;
  }

  function acceptScopes(requested: string[] | undefined, allowed: string[]): string[] {
    const wanted = (requested ?? []).filter(Boolean);
    if (wanted.length === 0) return allowed;
    const extra = wanted.filter((s) => !allowed.includes(s));
    if (extra.length > 0) throw new InvalidScopeError(`Scope not allowed for this client: ${extra.join(" ")}`);
    return [...new Set(wanted)];
  }

  async function issue(grantId: string, scopes: string[], withRefresh: boolean): Promise<OAuthTokens> {
    const access = randomToken("bk_at_");
    const refresh = withRefresh ? randomToken("bk_rt_") : null;
    await repo.insertTokens([
      { tokenHash: sha256(access), kind: "access", grantId, scopes, expiresAt: after(policy.accessTokenTtlSeconds), createdAt: now() },
      ...(refresh ? [{ tokenHash: sha256(refresh), kind: "refresh", grantId, scopes, expiresAt: after(policy.refreshTokenTtlSeconds), createdAt: now() }] : []),
    ]);
    return { access_token: access, token_type: "Bearer", expires_in: policy.accessTokenTtlSeconds, scope: scopes.join(" "), ...(refresh ? { refresh_token: refresh } : {}) };
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
    if (age > policy.refreshGraceSeconds * 1000) return undefined;
    try {
      const pair = JSON.parse(secretBox.open(token.successorSealed, successorPurpose(token.tokenHash))) as OAuthTokens;
      return { ...pair, expires_in: Math.max(1, (pair.expires_in ?? policy.accessTokenTtlSeconds) - Math.floor(age / 1000)) };
    } catch {
      return undefined;
    }
  }

  async function revokeFamily(grantId: string, reason: string): Promise<void> {
    await repo.revokeGrant(grantId, reason, now());
    verified.clear();
    deps.events.emit("oauth.token-revoked", { grantId, reason });
  }

  const redirectWith = (redirectUri: string, params: Record<string, string | null | undefined>): string => {
    const url = new URL(redirectUri);
    for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null) url.searchParams.set(k, v);
    return url.toString();
  };

  /** The code's checks, shared by the PKCE lookup and the exchange. */
  async function liveCode(client: OAuthClient, code: string) {
    const row = await repo.findCode(sha256(code));
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
    issuer: policy.issuer,
    defaultResource,

    /** Starts an authorization: checks what can be checked before asking the user, stores the request. */
    async authorize(client: OAuthClient, params: { state?: string; scopes?: string[]; codeChallenge: string; redirectUri: string; resource?: URL; redirectUriExplicit: boolean }): Promise<string> {
      if (!client.grant_types?.includes("authorization_code")) throw new UnauthorizedClientError("This client may not use the authorization code flow");
      const scopes = acceptScopes(params.scopes, client.allowedScopes);
      const resource = acceptResource(params.resource);
      const id = randomBytes(24).toString("base64url");
      await repo.insertPending({
        id,
        clientId: client.rowId,
        redirectUri: params.redirectUri,
        scopes,
        resource,
        state: params.state ?? null,
        codeChallenge: params.codeChallenge,
        redirectUriExplicit: params.redirectUriExplicit,
        expiresAt: after(policy.consentTtlSeconds),
      });
      return `/oauth-consent/${id}`;
    },

    /** What the consent page shows (all but `actsAs`, which the integrations know): the rights the client will actually have. */
    async consentRequest(id: string, user: ConsentingUser): Promise<Omit<ConsentRequestDto, "actsAs">> {
      const pending = await repo.findPending(id, now());
      if (!pending || !pending.client.isActive) throw new AppError("not_found", "This authorization request has expired or was already answered");
      const { granted, withheld } = grantable(pending.scopes, user);
      // Its scopes ∩ the user's role (granted), ∩ its policy as it stands: write is idle for a read-only client.
      const policy = pending.client.policy;
      const idle: string[] = policy?.readOnly ? granted.filter((s) => s === "write") : [];
      const lists = policy ? { jiraProjects: policy.jiraProjects, confluenceSpaces: policy.confluenceSpaces, bitbucketRepositories: policy.bitbucketRepositories } : null;
      return {
        id,
        clientName: pending.client.name,
        clientId: pending.client.clientId,
        redirectUri: pending.redirectUri,
        scopes: user.mayConsent ? granted.filter((s) => !idle.includes(s)) : [],
        withheldScopes: user.mayConsent ? withheld : pending.scopes,
        idleScopes: user.mayConsent ? idle : [],
        limits: lists && Object.values(lists).some((l) => l !== null) ? lists : null,
        resource: pending.resource,
        expiresAt: pending.expiresAt.toISOString(),
        registeredVia: registeredViaOf(pending.client.registeredVia),
        redirectHost: redirectHost(pending.redirectUri),
        refusal: user.mayConsent ? null : NO_CONSENT_MESSAGE,
      };
    },

    /** The user's answer: a redirect back to the client with a code, or with access_denied (RFC 9207: with iss). */
    async decide(id: string, approve: boolean, actor: Actor, user: ConsentingUser): Promise<{ redirectTo: string }> {
      const pending = await repo.findPending(id, now());
      // Refused before the request is taken, so the user can still deny it (and send the client back).
      if (pending && approve && !user.mayConsent) {
        await audit.record(actor, { action: "oauth.consent_granted", outcome: "failure", targetType: "oauth_client", targetId: pending.client.clientId, details: { reason: "no mcp.read" } });
        throw new AppError("forbidden", NO_CONSENT_MESSAGE);
      }
      const taken = pending ? await repo.takePending(id, now()) : undefined;
      if (!pending || !taken || !pending.client.isActive) throw new AppError("not_found", "This authorization request has expired or was already answered");
      const base = { state: pending.state, iss: policy.issuer };
      await audit.record(actor, { action: approve ? "oauth.consent_granted" : "oauth.consent_denied", targetType: "oauth_client", targetId: pending.client.clientId, details: { scopes: pending.scopes, resource: pending.resource } });
      if (!approve) return { redirectTo: redirectWith(pending.redirectUri, { error: "access_denied", error_description: "The user denied the request", ...base }) };
      const { granted } = grantable(pending.scopes, user);
      if (granted.length === 0) return { redirectTo: redirectWith(pending.redirectUri, { error: "access_denied", error_description: "The user may not grant the requested scopes", ...base }) };
      const grant = await repo.insertGrant({ clientId: pending.clientId, userId: actor.userId, scopes: granted, resource: pending.resource, expiresAt: after(policy.refreshTokenTtlSeconds), createdAt: now() });
      const code = randomToken("bk_ac_");
      await repo.insertCode({ codeHash: sha256(code), grantId: grant.id, redirectUri: pending.redirectUri, redirectUriExplicit: pending.redirectUriExplicit, codeChallenge: pending.codeChallenge, expiresAt: after(policy.codeTtlSeconds) });
      return { redirectTo: redirectWith(pending.redirectUri, { code, ...base }) };
    },

    async challengeForCode(client: OAuthClient, code: string): Promise<string> {
      return (await liveCode(client, code)).codeChallenge;
    },

    async exchangeCode(client: OAuthClient, code: string, redirectUri?: string, resource?: URL): Promise<OAuthTokens> {
      const row = await liveCode(client, code);
      // OAuth 2.1 §4.1.3: required, and identical, when the authorization request named one.
      if (redirectUri === undefined ? row.redirectUriExplicit : redirectUri !== row.redirectUri) throw new InvalidGrantError("redirect_uri does not match the authorization request");
      if (resource !== undefined && acceptResource(resource) !== row.grant.resource) throw new InvalidTargetError("resource does not match the authorization request");
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
      const hash = sha256(refreshToken);
      const found = await repo.findToken(hash);
      if (!found || found.token.kind !== "refresh" || found.grant.clientId !== client.rowId) throw new InvalidGrantError("Invalid refresh token");
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
      if (token.revokedAt || grant.revokedAt || token.expiresAt <= now() || grant.expiresAt <= now()) throw new InvalidGrantError("The refresh token is expired or revoked");
      const narrowed = acceptScopes(scopes, grant.scopes);
      if (resource !== undefined && acceptResource(resource) !== grant.resource) throw new InvalidTargetError("resource does not match the authorization");
      // The new pair is stored before the old token is marked rotated, so whoever reads the sealed
      // successor (a racing refresh) is handed tokens that already work.
      const pair = await issue(grant.id, narrowed, true);
      const sealed = policy.refreshGraceSeconds > 0 ? secretBox.seal(JSON.stringify(pair), successorPurpose(hash)) : null;
      if (await repo.rotateRefreshToken(hash, now(), sealed)) return pair;
      // Another refresh rotated it first: ours is void; theirs is the answer, within the window.
      await repo.deleteTokens([sha256(pair.access_token), sha256(pair.refresh_token!)]);
      const winner = await repo.findToken(hash);
      const again = winner && live() ? graceSuccessor(winner.token) : undefined;
      return again ?? reused();
    },

    /** RFC 6749 §4.4: a confidential client acting for itself; no refresh token. */
    async clientCredentials(client: OAuthClient, scopes: string[] | undefined, resource: string | undefined): Promise<OAuthTokens> {
      if (!client.client_secret || !client.grant_types?.includes("client_credentials")) throw new UnauthorizedClientError("This client may not use client_credentials");
      const granted = acceptScopes(scopes, client.allowedScopes);
      const grant = await repo.insertGrant({ clientId: client.rowId, userId: null, scopes: granted, resource: acceptResource(resource), expiresAt: after(policy.accessTokenTtlSeconds), createdAt: now() });
      return issue(grant.id, granted, false);
    },

    /** RFC 7009: revoking a refresh token ends its family; an access token, itself. Unknown tokens: nothing. */
    async revoke(client: OAuthClient, token: string): Promise<void> {
      const found = await repo.findToken(sha256(token));
      if (!found || found.grant.clientId !== client.rowId) return;
      if (found.token.kind === "refresh") await revokeFamily(found.grant.id, "refresh token revoked");
      else {
        await repo.revokeToken(found.token.tokenHash, now());
        verified.delete(found.token.tokenHash);
        deps.events.emit("oauth.token-revoked", { grantId: found.grant.id, reason: "access token revoked" });
      }
    },

    /** The bearer guard's check (D9): cached, so a protected request costs a hash and a map lookup. */
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      const hash = sha256(token);
      const nowMs = now().getTime();
      const hit = verified.get(hash);
      if (hit && nowMs - hit.at < VERIFY_CACHE_MS) {
        if ((hit.info.expiresAt ?? 0) * 1000 <= nowMs) throw new InvalidTokenError("The access token has expired");
        return hit.info;
      }
      const found = await repo.findToken(hash);
      if (!found || found.token.kind !== "access") throw new InvalidTokenError("Invalid access token");
      const { token: row, grant, client } = found;
      if (row.revokedAt || grant.revokedAt || !client.isActive || found.userActive === false) throw new InvalidTokenError("The access token was revoked");
      if (row.expiresAt.getTime() <= nowMs || grant.expiresAt.getTime() <= nowMs) throw new InvalidTokenError("The access token has expired");
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

    /** Live grants: "active OAuth sessions" on the dashboard (D13). */
    liveGrants: () => repo.countLiveGrants(now()),
    prune: () => repo.prune(now(), policy.refreshGraceSeconds),
  };
}

export type OAuthTokensService = ReturnType<typeof createOAuthTokensService>;
