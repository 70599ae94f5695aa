import { randomToken } from "../../lib/tokens";
import { InvalidScopeError, InvalidTargetError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { OAuthClientsService } from "./oauth-clients.service";

/**
 * What consent (oauth-consent.service.ts) and token issuance (oauth-tokens.service.ts) both hold
 * to: who issues, and how long what they issue lives. (A client's policy is its governance, apart.)
 */
export interface OAuthServerSettings {
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

/** Codes and tokens are stored as their hashes only. */
/** A new token or code: its kind's prefix (bk_at_, bk_rt_, bk_ac_), then 32 random bytes (lib/tokens.ts). */
export const prefixedToken = (prefix: string): string => `${prefix}${randomToken()}`;

/** RFC 8707 resource indicators for this issuer: where a token may be used. */
export function resourceRules(issuer: string) {
  const issuerOrigin = new URL(issuer).origin;
  /** The audience a token is bound to when the client names none: the whole server (RFC 8707). */
  const defaultResource = `${issuerOrigin}/`;
  return {
    defaultResource,
    /** RFC 8707: a resource must be on this server (any path), absolute, without a fragment. */
    acceptResource(resource: URL | string | undefined): string {
      if (resource === undefined) return defaultResource;
      // RFC 8707 §2: a malformed resource is invalid_target too (client_credentials passes it unparsed).
      if (!URL.canParse(String(resource))) throw new InvalidTargetError("resource must be an absolute URI");
      const url = new URL(String(resource));
      if (url.origin !== issuerOrigin || url.hash || url.username || url.password)
        throw new InvalidTargetError(`Tokens are only issued for ${defaultResource}`);
      return url.pathname === "/" ? defaultResource : `${url.origin}${url.pathname.replace(/\/+$/, "")}${url.search}`;
    },
  };
}

/** The scopes asked for, each one the client may have (none asked: all it may have). */
export function acceptScopes(requested: string[] | undefined, allowed: string[]): string[] {
  const wanted = (requested ?? []).filter(Boolean);
  if (wanted.length === 0) return allowed;
  const extra = wanted.filter((s) => !allowed.includes(s));
  if (extra.length > 0) throw new InvalidScopeError(`Scope not allowed for this client: ${extra.join(" ")}`);
  return [...new Set(wanted)];
}
