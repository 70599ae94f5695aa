import { createHash, randomBytes } from "node:crypto";
import type { Service } from "../core/errors";

/**
 * The OAuth state of the imitated authorization servers (auth.atlassian.com, bitbucket.org, and
 * each Data Center server's own provider): authorization codes, token families (everything issued
 * from one authorization), refresh and access tokens, on a clock tests can move forward. Codes are
 * single-use and live 10 minutes. Atlassian's refresh tokens rotate (10-minute reuse leeway, reuse
 * after it revokes the family, 90 days idle, 365 days in all); Bitbucket's do not; Data Center's
 * rotate with no leeway (the old refresh and access tokens stop working at once), need the grant's
 * redirect URI, and expire 90 days after issue.
 */

export type DataCenterOAuthService = "jira-dc" | "confluence-dc" | "bitbucket-dc";
export type OAuthService = "atlassian" | "bitbucket" | DataCenterOAuthService;

export const isDataCenterService = (service: OAuthService): service is DataCenterOAuthService => service.endsWith("-dc");
/** The OAuth service of a Data Center server's own provider. */
export const dataCenterOAuthService = (service: Service): DataCenterOAuthService => `${service}-dc`;
/** The Data Center server whose provider an OAuth service is. */
export const dataCenterServer = (service: DataCenterOAuthService): Service => service.slice(0, -3) as Service;

const MINUTE = 60_000;
const DAY = 86_400_000;
export const CODE_LIFETIME_MS = 10 * MINUTE;
export const REUSE_LEEWAY_MS = 10 * MINUTE;
export const REFRESH_IDLE_MS = 90 * DAY;
export const FAMILY_LIFETIME_MS = 365 * DAY;

export const DEFAULT_ACCESS_TTL: Record<OAuthService, number> = {
  atlassian: 3600,
  bitbucket: 7200,
  "jira-dc": 3600,
  "confluence-dc": 3600,
  "bitbucket-dc": 3600,
};

/** How a PKCE code challenge was derived from its verifier (Atlassian's clouds take only S256). */
export type ChallengeMethod = "S256" | "plain";

interface CodeRecord {
  service: OAuthService;
  clientId: string;
  accountId: string;
  /** As the authorize request gave it (Bitbucket's may be absent). */
  redirectUri: string | null;
  scope: string;
  codeChallenge: string | null;
  codeChallengeMethod: ChallengeMethod;
  cloudId: string | null;
  issuedAt: number;
  used: boolean;
  familyId: string | null;
}

/** One authorization and everything issued from it. */
export interface Family {
  id: string;
  service: OAuthService;
  clientId: string;
  accountId: string;
  scope: string;
  /** Atlassian: the site picked at consent. */
  cloudId: string | null;
  /** The authorization request's redirect URI (Data Center checks it again on every refresh). */
  redirectUri: string | null;
  createdAt: number;
  revoked: boolean;
}

interface RefreshRecord {
  familyId: string;
  issuedAt: number;
  /** When it was exchanged for a newer one (Atlassian rotation); null while it is the newest. */
  rotatedAt: number | null;
}

interface AccessRecord {
  familyId: string;
  expiresAt: number;
}

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  family: Family;
}

/** A refused grant: the OAuth error code, its description, and whose grant it was when known. */
export interface GrantError {
  error: string;
  description: string;
  accountId: string | null;
}

export interface LogEntry {
  service: OAuthService;
  grantType: string;
  outcome: string;
  accountId: string | null;
  at: number;
}

export interface CodeInput {
  service: OAuthService;
  clientId: string;
  accountId: string;
  redirectUri: string | null;
  scope: string;
  codeChallenge: string | null;
  /** S256 unless given. */
  codeChallengeMethod?: ChallengeMethod;
  cloudId: string | null;
}

const token = () => randomBytes(32).toString("base64url");
export const s256 = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");
const invalid = (description: string, accountId: string | null = null): GrantError => ({ error: "invalid_grant", description, accountId });

export class OAuthStore {
  private offsetMs = 0;
  private codes = new Map<string, CodeRecord>();
  private families = new Map<string, Family>();
  private refreshTokens = new Map<string, RefreshRecord>();
  private accessTokens = new Map<string, AccessRecord>();
  /** Bitbucket's one refresh token per family (it does not rotate). */
  private bitbucketRefresh = new Map<string, string>();
  /** Data Center: each family's one live access token (a refresh retires the previous one). */
  private dcAccess = new Map<string, string>();
  private entries: LogEntry[] = [];
  readonly ttl: Record<OAuthService, number>;

  constructor(private readonly initialTtl: Record<OAuthService, number>) {
    this.ttl = { ...initialTtl };
  }

  /** The OAuth clock: real time plus whatever tests advanced it by. */
  now(): number {
    return Date.now() + this.offsetMs;
  }

  advance(seconds: number): void {
    this.offsetMs += seconds * 1000;
  }

  /** Forgets every code and token, the log and the clock offset; lifetimes return to the start options. */
  reset(): void {
    this.offsetMs = 0;
    this.codes.clear();
    this.families.clear();
    this.refreshTokens.clear();
    this.accessTokens.clear();
    this.bitbucketRefresh.clear();
    this.dcAccess.clear();
    this.entries = [];
    Object.assign(this.ttl, this.initialTtl);
  }

  log(entry: Omit<LogEntry, "at">): void {
    this.entries.push({ ...entry, at: this.now() });
  }

  logEntries(): LogEntry[] {
    return [...this.entries];
  }

  issueCode(input: CodeInput): string {
    const code = token();
    this.codes.set(code, { codeChallengeMethod: "S256", ...input, issuedAt: this.now(), used: false, familyId: null });
    return code;
  }

  /** The family a live access token belongs to; "expired" for a known token past its time or revoked; null when unknown. */
  access(accessToken: string, service: OAuthService): Family | "expired" | null {
    const rec = this.accessTokens.get(accessToken);
    if (!rec) return null;
    const family = this.families.get(rec.familyId)!;
    if (family.service !== service) return null;
    return family.revoked || this.now() >= rec.expiresAt ? "expired" : family;
  }

  /** authorization_code: a single-use code, bound to its client, redirect URI and (when challenged) PKCE verifier. */
  exchangeCode(
    service: OAuthService,
    clientId: string,
    code: string,
    redirectUri: string | undefined,
    verifier: string | undefined,
  ): TokenPair | GrantError {
    const rec = this.codes.get(code);
    if (!rec || rec.service !== service) return invalid("Invalid authorization code.");
    if (rec.used) {
      // As RFC 6749 §10.5 recommends: a replayed code revokes what it was exchanged for.
      if (rec.familyId) this.revoke(rec.familyId);
      return invalid("The authorization code has already been used.", rec.accountId);
    }
    if (rec.clientId !== clientId) return invalid("The authorization code was issued to another client.", rec.accountId);
    if (this.now() - rec.issuedAt > CODE_LIFETIME_MS) return invalid("The authorization code has expired.", rec.accountId);
    if (rec.redirectUri !== null || service === "atlassian") {
      if (redirectUri !== (rec.redirectUri ?? undefined))
        return invalid("The redirect_uri does not match the authorization request.", rec.accountId);
    }
    if (rec.codeChallenge !== null) {
      if (!verifier) return invalid("code_verifier is required: the authorization request had a code_challenge.", rec.accountId);
      const derived = rec.codeChallengeMethod === "plain" ? verifier : s256(verifier);
      if (derived !== rec.codeChallenge) return invalid("The code_verifier does not match the code_challenge.", rec.accountId);
    }
    rec.used = true;
    const family: Family = {
      id: token(),
      service,
      clientId,
      accountId: rec.accountId,
      scope: rec.scope,
      cloudId: rec.cloudId,
      redirectUri: rec.redirectUri,
      createdAt: this.now(),
      revoked: false,
    };
    this.families.set(family.id, family);
    rec.familyId = family.id;
    return this.issue(family);
  }

  /**
   * refresh_token, by the service's rules (Atlassian rotates, Bitbucket does not, Data Center
   * rotates without leeway and checks `redirectUri`, which only it takes).
   */
  refresh(service: OAuthService, clientId: string, refreshToken: string, redirectUri?: string): TokenPair | GrantError {
    const rec = this.refreshTokens.get(refreshToken);
    const family = rec ? this.families.get(rec.familyId) : undefined;
    if (!rec || !family || family.service !== service) return invalid("Unknown or invalid refresh token.");
    if (family.clientId !== clientId) return invalid("The refresh token was issued to another client.", family.accountId);
    if (family.revoked) return invalid("Unknown or invalid refresh token.", family.accountId);
    if (service === "bitbucket") return this.issue(family);
    const now = this.now();
    if (isDataCenterService(service)) {
      if (redirectUri === undefined) return invalid("redirect_uri is required to refresh this grant.", family.accountId);
      if (redirectUri !== family.redirectUri)
        return invalid("The redirect_uri does not match the one the grant was issued for.", family.accountId);
      if (rec.rotatedAt !== null) return invalid("The refresh token has already been used.", family.accountId);
      if (now - rec.issuedAt > REFRESH_IDLE_MS) return invalid("The refresh token has expired.", family.accountId);
      rec.rotatedAt = now;
      return this.issue(family);
    }
    if (now - family.createdAt > FAMILY_LIFETIME_MS) {
      this.revoke(family.id);
      return invalid("The refresh token has expired: the authorization is more than 365 days old.", family.accountId);
    }
    if (rec.rotatedAt !== null) {
      if (now - rec.rotatedAt <= REUSE_LEEWAY_MS) return this.issue(family);
      this.revoke(family.id);
      return invalid("Unknown or invalid refresh token.", family.accountId);
    }
    if (now - rec.issuedAt > REFRESH_IDLE_MS)
      return invalid("The refresh token has expired: it was not used for 90 days.", family.accountId);
    rec.rotatedAt = now;
    return this.issue(family);
  }

  /** Every access and refresh token of the family stops working. */
  private revoke(familyId: string): void {
    const family = this.families.get(familyId);
    if (family) family.revoked = true;
  }

  private issue(family: Family): TokenPair {
    const now = this.now();
    const accessToken = token();
    const expiresIn = this.ttl[family.service];
    this.accessTokens.set(accessToken, { familyId: family.id, expiresAt: now + expiresIn * 1000 });
    if (isDataCenterService(family.service)) {
      const previous = this.dcAccess.get(family.id);
      if (previous) this.accessTokens.delete(previous);
      this.dcAccess.set(family.id, accessToken);
    }
    let refreshToken = family.service === "bitbucket" ? this.bitbucketRefresh.get(family.id) : undefined;
    if (!refreshToken) {
      refreshToken = token();
      this.refreshTokens.set(refreshToken, { familyId: family.id, issuedAt: now, rotatedAt: null });
      if (family.service === "bitbucket") this.bitbucketRefresh.set(family.id, refreshToken);
    }
    return { accessToken, refreshToken, expiresIn, family };
  }
}
