import { randomBytes } from "node:crypto";
import { UnauthorizedClientError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { ConsentRequestDto } from "../../../contract/oauth";
import { AppError } from "../../lib/app-error";
import type { Clock } from "../../lib/clock";
import type { Actor, AuditService } from "../audit/audit.service";
import { registeredViaOf } from "./oauth-clients.presenter";
import { sha256Hex } from "../../lib/tokens";
import { acceptScopes, prefixedToken, resourceRules, type OAuthClient, type OAuthServerSettings } from "./oauth-grant-rules";
import type { OAuthGrantsRepo } from "./oauth-grants.repo";

/** What the consenting user may hand on: any access needs mcp.read, the write scope mcp.write (docs/decisions.md#roles-and-permissions, issue 9). */
interface ConsentingUser {
  mayConsent: boolean;
  mayGrantWrite: boolean;
}

const NO_CONSENT_MESSAGE =
  "Your account may not authorize MCP clients: it needs the mcp.read permission. Ask an administrator for a role that has it.";

const grantable = (scopes: string[], user: ConsentingUser) => ({
  granted: scopes.filter((s) => s !== "write" || user.mayGrantWrite),
  withheld: scopes.filter((s) => s === "write" && !user.mayGrantWrite),
});

/** "https://app.example.com:8443/cb" -> "app.example.com:8443"; "com.example.app:/cb" -> "com.example.app:". */
const redirectHost = (uri: string): string => {
  const url = new URL(uri);
  return url.host || url.protocol;
};

const redirectWith = (redirectUri: string, params: Record<string, string | null | undefined>): string => {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null) url.searchParams.set(k, v);
  return url.toString();
};

/**
 * The authorization endpoint's side of the authorization server: the pending request a client
 * starts, what the consent page shows, and the user's answer, which makes the grant and its code.
 * What a code is exchanged for is oauth-tokens.service.ts's.
 */
export function createOAuthConsentService(deps: {
  repo: OAuthGrantsRepo;
  audit: AuditService;
  clock: Clock;
  settings: OAuthServerSettings;
}) {
  const { repo, audit, clock, settings } = deps;
  const { acceptResource } = resourceRules(settings.issuer);
  const now = () => clock.now();
  const after = (seconds: number) => new Date(now().getTime() + seconds * 1000);

  return {
    /** Starts an authorization: checks what can be checked before asking the user, stores the request. */
    async authorize(
      client: OAuthClient,
      params: {
        state?: string;
        scopes?: string[];
        codeChallenge: string;
        redirectUri: string;
        resource?: URL;
        redirectUriExplicit: boolean;
      },
    ): Promise<string> {
      if (!client.grant_types?.includes("authorization_code"))
        throw new UnauthorizedClientError("This client may not use the authorization code flow");
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
        expiresAt: after(settings.consentTtlSeconds),
      });
      return `/oauth-consent/${id}`;
    },

    /** What the consent page shows (all but `actsAs`, which the integrations know): the rights the client will actually have. */
    async consentRequest(id: string, user: ConsentingUser): Promise<Omit<ConsentRequestDto, "actsAs">> {
      const pending = await repo.findPending(id, now());
      if (!pending || !pending.client.isActive)
        throw new AppError("not_found", "This authorization request has expired or was already answered");
      const { granted, withheld } = grantable(pending.scopes, user);
      // Its scopes ∩ the user's role (granted), ∩ its policy as it stands: write is idle for a read-only client.
      const policy = pending.client.policy;
      const idle: string[] = policy?.readOnly ? granted.filter((s) => s === "write") : [];
      const lists = policy
        ? {
            jiraProjects: policy.jiraProjects,
            confluenceSpaces: policy.confluenceSpaces,
            bitbucketRepositories: policy.bitbucketRepositories,
          }
        : null;
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
        await audit.record(actor, {
          action: "oauth.consent_granted",
          outcome: "failure",
          targetType: "oauth_client",
          targetId: pending.client.clientId,
          details: { reason: "no mcp.read" },
        });
        throw new AppError("forbidden", NO_CONSENT_MESSAGE);
      }
      const taken = pending ? await repo.takePending(id, now()) : undefined;
      if (!pending || !taken || !pending.client.isActive)
        throw new AppError("not_found", "This authorization request has expired or was already answered");
      const base = { state: pending.state, iss: settings.issuer };
      await audit.record(actor, {
        action: approve ? "oauth.consent_granted" : "oauth.consent_denied",
        targetType: "oauth_client",
        targetId: pending.client.clientId,
        details: { scopes: pending.scopes, resource: pending.resource },
      });
      if (!approve)
        return {
          redirectTo: redirectWith(pending.redirectUri, {
            error: "access_denied",
            error_description: "The user denied the request",
            ...base,
          }),
        };
      const { granted } = grantable(pending.scopes, user);
      if (granted.length === 0)
        return {
          redirectTo: redirectWith(pending.redirectUri, {
            error: "access_denied",
            error_description: "The user may not grant the requested scopes",
            ...base,
          }),
        };
      const grant = await repo.insertGrant({
        clientId: pending.clientId,
        userId: actor.userId,
        scopes: granted,
        resource: pending.resource,
        expiresAt: after(settings.refreshTokenTtlSeconds),
        createdAt: now(),
      });
      const code = prefixedToken("bk_ac_");
      await repo.insertCode({
        codeHash: sha256Hex(code),
        grantId: grant.id,
        redirectUri: pending.redirectUri,
        redirectUriExplicit: pending.redirectUriExplicit,
        codeChallenge: pending.codeChallenge,
        expiresAt: after(settings.codeTtlSeconds),
      });
      return { redirectTo: redirectWith(pending.redirectUri, { code, ...base }) };
    },
  };
}

export type OAuthConsentService = ReturnType<typeof createOAuthConsentService>;
