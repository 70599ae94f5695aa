import { OPEN_POLICY, type ClientPolicy } from "../../../contract/policy";
import { randomBytes } from "node:crypto";
import { CustomOAuthError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { OAuthClientInformationFull } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { RegistrationRequest } from "../../../contract/oauth";
import { isMetadataDocumentUrl, type ClientMetadataDocuments } from "../../oauth/client-metadata-documents";
import type { Logger } from "../../lib/logger";
import type { EventBus } from "../../lib/event-bus";
import { OAUTH_SCOPES, redirectUriProblem, type OAuthClientCreateSchema, type OAuthScope } from "../../../contract/oauth";
import type { z } from "zod";
import type { OAuthClientRow } from "../../db/schema";
import { AppError } from "../../lib/app-error";
import type { Clock } from "../../lib/clock";
import type { SecretBox } from "../../lib/secret-box";
import type { Actor, AuditService } from "../audit/audit.service";
import type { Repos, Transact } from "../../repos";
import type { OAuthClientView } from "./oauth-clients.presenter";
import type { OAuthClientWithGrants } from "./oauth-clients.repo";

type ClientCreate = z.output<typeof OAuthClientCreateSchema>;

export const newClientId = () => `bk_${randomBytes(18).toString("base64url")}`;
export const newClientSecret = () => `bks_${randomBytes(32).toString("base64url")}`;
/** The secret box purpose of a client's secret: a sealed secret opens only as that client's. */
const purpose = (clientId: string) => `oauth-client:${clientId}`;

/** Every console-made confidential client may use these; a public one cannot use client_credentials. */
const CONFIDENTIAL_GRANTS = ["authorization_code", "refresh_token", "client_credentials"];
const PUBLIC_GRANTS = ["authorization_code", "refresh_token"];

/**
 * What a client that describes itself (dynamic registration, a metadata document) may have: the
 * scopes it asks for that we know (all of them when it names none we know), and the grants of a
 * public flow it asks for (never client_credentials: that grant acts with no user's consent, so
 * only a client an administrator made may hold it).
 */
const selfDescribed = (scope: string | undefined, grantTypes: string[] | undefined) => {
  const known = (scope ?? "").split(" ").filter((s): s is OAuthScope => (OAUTH_SCOPES as readonly string[]).includes(s));
  const grants = (grantTypes ?? PUBLIC_GRANTS).filter((g) => PUBLIC_GRANTS.includes(g));
  return {
    scopes: known.length > 0 ? [...new Set(known)] : [...OAUTH_SCOPES],
    grantTypes: grants.length > 0 ? grants : ["authorization_code"],
  };
};

const NOT_FOUND = "OAuth client not found";

/**
 * OAuth clients (docs/decisions.md#oauth-client-secrets): made on the console or by dynamic registration, secrets sealed at rest.
 * Anything that ends a client's tokens (delete, deactivate, new secret) is told on the event bus
 * ("oauth.client-revoked"), so cached token checks are dropped at once.
 */
export function createOAuthClientsService(deps: {
  repos: Repos;
  transact: Transact;
  secretBox: SecretBox;
  audit: AuditService;
  clock: Clock;
  /** Client ID Metadata Documents (https client ids); absent when switched off. */
  metadataDocuments?: ClientMetadataDocuments;
  log?: Logger;
  events: EventBus;
}) {
  const { secretBox, audit, clock, transact } = deps;
  const repo = deps.repos.oauthClientsRepo;
  /** Told once the change is stored, so no listener acts on a change that was rolled back. */
  const revoked = (clientId: string, reason: string) => deps.events.emit("oauth.client-revoked", { clientId, reason });

  /** The client's secret; null for a public client, or when it cannot be opened (SECRET_KEY changed): regenerate it. */
  const secretOf = (row: OAuthClientRow): string | null => {
    if (!row.secretSealed) return null;
    try {
      return secretBox.open(row.secretSealed, purpose(row.clientId));
    } catch {
      return null;
    }
  };

  /** What the presenter shows: the row, its live grants and its secret opened (only when asked for). */
  const view = (row: OAuthClientRow & { activeGrants?: number }, withSecret: boolean): OAuthClientView => ({
    ...row,
    activeGrants: row.activeGrants ?? 0,
    secret: withSecret ? secretOf(row) : null,
  });

  const snapshot = (row: OAuthClientRow) => ({
    name: row.name,
    redirectUris: row.redirectUris,
    scopes: row.scopes,
    isActive: row.isActive,
    clientType: row.secretSealed ? "confidential" : "public",
  });

  /** A metadata document client, as its document says now (fetched, or cached while fresh); undefined when it cannot be used. */
  async function fromDocument(url: string): Promise<OAuthClientRow | undefined> {
    try {
      const metadata = await deps.metadataDocuments!.get(url);
      const wanted = { name: metadata.name, redirectUris: metadata.redirectUris, ...selfDescribed(metadata.scope, metadata.grantTypes) };
      // Written only when new or changed: a lookup per OAuth step must not be a write per step.
      const stored = await repo.findByClientId(url);
      const same =
        stored &&
        stored.name === wanted.name &&
        JSON.stringify([stored.redirectUris, stored.grantTypes, stored.scopes]) ===
          JSON.stringify([wanted.redirectUris, wanted.grantTypes, wanted.scopes]);
      return same ? stored : await repo.upsertFromDocument({ clientId: url, ...wanted, at: clock.now() });
    } catch (err) {
      // The client is told invalid_client; the reason is for the administrator's log.
      deps.log?.warn({ clientId: url, reason: err instanceof Error ? err.message : String(err) }, "client metadata document refused");
      return undefined;
    }
  }

  async function mustFind(r: Repos, clientId: string): Promise<OAuthClientRow> {
    const row = await r.oauthClientsRepo.findByClientId(clientId);
    if (!row) throw new AppError("not_found", NOT_FOUND);
    return row;
  }

  return {
    count: (): Promise<number> => repo.count(),

    async list(options: { withSecrets: boolean }): Promise<OAuthClientView[]> {
      const rows: OAuthClientWithGrants[] = await repo.list(clock.now());
      return rows.map((r) => view(r, options.withSecrets));
    },

    /** A console client and its audit row, stored together or not at all. */
    async create(input: ClientCreate, actor: Actor): Promise<OAuthClientView> {
      const clientId = newClientId();
      const confidential = input.clientType === "confidential";
      const row = await transact(async (r) => {
        const inserted = await r.oauthClientsRepo.insert({
          clientId,
          name: input.name,
          secretSealed: confidential ? secretBox.seal(newClientSecret(), purpose(clientId)) : null,
          redirectUris: input.redirectUris,
          scopes: input.scopes,
          grantTypes: confidential ? CONFIDENTIAL_GRANTS : PUBLIC_GRANTS,
          tokenEndpointAuthMethod: confidential ? "client_secret_basic" : "none",
          isActive: input.isActive,
          registeredVia: "console",
          createdBy: actor.userId,
        });
        await audit.record(
          actor,
          { action: "oauth_client.created", targetType: "oauth_client", targetId: clientId, details: { after: snapshot(inserted) } },
          r.auditRepo,
        );
        return inserted;
      });
      return view(row, true);
    },

    /**
     * Deactivating ends the client's grants for good (its tokens must not come back when it is
     * activated again); the change, the revocation and the audit row are one transaction.
     */
    async setActive(clientId: string, isActive: boolean, actor: Actor): Promise<OAuthClientView> {
      const row = await transact(async (r) => {
        const before = await mustFind(r, clientId);
        const updated = (await r.oauthClientsRepo.update(clientId, { isActive, updatedAt: clock.now() }))!;
        if (!isActive) await r.oauthGrantsRepo.revokeGrantsOfClient(updated.id, "client deactivated", clock.now());
        await audit.record(
          actor,
          {
            action: "oauth_client.status_changed",
            targetType: "oauth_client",
            targetId: clientId,
            details: { before: { isActive: before.isActive }, after: { isActive } },
          },
          r.auditRepo,
        );
        return updated;
      });
      if (!isActive) revoked(clientId, "client deactivated");
      return view(row, true);
    },

    /** What the client may touch (issue 11 item 4); OPEN_POLICY when nobody restricted it. */
    async policy(clientId: string): Promise<ClientPolicy> {
      return (await mustFind(deps.repos, clientId)).policy ?? OPEN_POLICY;
    },

    /** Replaces the client's policy; its tokens follow at once (cached checks dropped, tool lists changed). */
    async setPolicy(clientId: string, policy: ClientPolicy, actor: Actor): Promise<ClientPolicy> {
      await transact(async (r) => {
        const before = await mustFind(r, clientId);
        await r.oauthClientsRepo.update(clientId, { policy, updatedAt: clock.now() });
        await audit.record(
          actor,
          {
            action: "oauth_client.policy_changed",
            targetType: "oauth_client",
            targetId: clientId,
            details: { before: before.policy ?? OPEN_POLICY, after: policy },
          },
          r.auditRepo,
        );
      });
      deps.events.emit("oauth.client-policy-changed", { clientId });
      return policy;
    },

    /** A new secret; the old one and every grant made with it stop working at once. Public clients have none. */
    async regenerateSecret(clientId: string, actor: Actor): Promise<OAuthClientView> {
      const row = await transact(async (r) => {
        const before = await mustFind(r, clientId);
        if (!before.secretSealed) throw new AppError("conflict", "A public client has no secret");
        const updated = (await r.oauthClientsRepo.update(clientId, {
          secretSealed: secretBox.seal(newClientSecret(), purpose(clientId)),
          updatedAt: clock.now(),
        }))!;
        await r.oauthGrantsRepo.revokeGrantsOfClient(updated.id, "client secret regenerated", clock.now());
        await audit.record(
          actor,
          { action: "oauth_client.secret_regenerated", targetType: "oauth_client", targetId: clientId },
          r.auditRepo,
        );
        return updated;
      });
      revoked(clientId, "client secret regenerated");
      return view(row, true);
    },

    /** Deletes the client with its grants and tokens (docs/decisions.md#oauth-authorization-server: its tokens stop working at once). */
    async delete(clientId: string, actor: Actor): Promise<void> {
      await transact(async (r) => {
        const row = await r.oauthClientsRepo.delete(clientId);
        if (!row) throw new AppError("not_found", NOT_FOUND);
        await audit.record(
          actor,
          { action: "oauth_client.deleted", targetType: "oauth_client", targetId: clientId, details: { before: snapshot(row) } },
          r.auditRepo,
        );
      });
      revoked(clientId, "client deleted");
    },

    /**
     * The client as the OAuth endpoints see it (RFC 7591 metadata), secret opened; undefined for
     * an unknown or inactive client, which therefore can neither authorize nor get tokens.
     */
    async forOAuth(clientId: string): Promise<(OAuthClientInformationFull & { rowId: string; allowedScopes: string[] }) | undefined> {
      const documentClient = deps.metadataDocuments && isMetadataDocumentUrl(clientId);
      if (clientId.length > 200 && !documentClient) return undefined;
      const row = documentClient ? await fromDocument(clientId) : await repo.findByClientId(clientId);
      if (!row || !row.isActive) return undefined;
      const secret = secretOf(row);
      if (row.secretSealed && !secret) return undefined; // a confidential client whose secret is unreadable cannot authenticate
      return {
        rowId: row.id,
        allowedScopes: row.scopes,
        client_id: row.clientId,
        client_name: row.name,
        client_id_issued_at: Math.floor(row.createdAt.getTime() / 1000),
        redirect_uris: row.redirectUris,
        grant_types: row.grantTypes,
        response_types: ["code"],
        token_endpoint_auth_method: row.tokenEndpointAuthMethod,
        scope: row.scopes.join(" "),
        ...(secret ? { client_secret: secret } : {}),
      };
    },

    /**
     * RFC 7591 dynamic registration (when enabled), the request already parsed
     * (oauth/registration.ts): checked whole before anything is stored, stored like a console
     * client marked "dynamic", and answered with what was stored, nothing more.
     */
    async register(metadata: RegistrationRequest) {
      // RFC 7591 §3.2.2 / RFC 9700 §4.1: the console's rules for redirect URIs hold here too, with
      // the application type's (a web client to https, a native one to loopback or its scheme).
      const problem = metadata.redirect_uris.map((u) => redirectUriProblem(u, metadata.application_type)).find(Boolean);
      if (problem) throw new CustomOAuthError("invalid_redirect_uri", problem);
      const authMethod = metadata.token_endpoint_auth_method ?? "client_secret_basic";
      const { scopes, grantTypes } = selfDescribed(metadata.scope, metadata.grant_types);
      const clientId = newClientId();
      const secret = authMethod === "none" ? null : newClientSecret();
      const row = await transact(async (r) => {
        const inserted = await r.oauthClientsRepo.insert({
          clientId,
          name: metadata.client_name?.trim() || "Unnamed client",
          secretSealed: secret ? secretBox.seal(secret, purpose(clientId)) : null,
          redirectUris: metadata.redirect_uris,
          scopes,
          grantTypes,
          tokenEndpointAuthMethod: authMethod,
          isActive: true,
          registeredVia: "dynamic",
        });
        await audit.record(
          { userId: null, username: null, ip: null },
          { action: "oauth_client.registered", targetType: "oauth_client", targetId: clientId, details: { after: snapshot(inserted) } },
          r.auditRepo,
        );
        return inserted;
      });
      return {
        client_id: clientId,
        client_id_issued_at: Math.floor(row.createdAt.getTime() / 1000),
        ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
        client_name: row.name,
        redirect_uris: row.redirectUris,
        grant_types: row.grantTypes,
        response_types: ["code"],
        token_endpoint_auth_method: authMethod,
        scope: row.scopes.join(" "),
        ...(metadata.application_type ? { application_type: metadata.application_type } : {}),
      };
    },

    /** Self-registered clients nobody used for `unusedFor`: removed (issue 9), so registration cannot pile up clients. */
    pruneUnusedDynamic: (unusedForMs: number) => repo.deleteUnusedDynamic(new Date(clock.now().getTime() - unusedForMs)),
  };
}

export type OAuthClientsService = ReturnType<typeof createOAuthClientsService>;
