import type { z } from "zod";
import {
  IDENTITY_MESSAGES,
  type IdentitySettingsDto,
  type IdentitySettingsInputSchema,
  type Integration,
} from "../../../contract/accounts";
import type { IntegrationIdentityRow } from "../../db/schema";
import { AppError } from "../../lib/app-error";
import type { Clock } from "../../lib/clock";
import { secretHint, type SecretBox } from "../../lib/secret-box";
import type { Repos, Transact } from "../../repos";
import type { Actor, AuditService } from "../audit/audit.service";
import type { OAuthApp } from "./providers";

type IdentityInput = z.output<typeof IdentitySettingsInputSchema>;

/** Other instances may have saved new settings: the cached row is re-read this often. */
const CACHE_MS = 15_000;
const SECRET_PURPOSE = (integration: Integration) => `identity-oauth:${integration}`;

/** An installation that never chose: the shared account, as before issue 27. */
export const SHARED_DEFAULT = (integration: Integration): IntegrationIdentityRow => ({
  integration,
  mode: "shared",
  allowMachineClients: false,
  allowApiTokens: false,
  oauthClientId: "",
  oauthSecretSealed: null,
  oauthSecretHint: null,
  updatedBy: null,
  updatedAt: new Date(0),
});

/** Where the service sends a person back after consent: registered with the OAuth app or consumer. */
export const callbackUrl = (publicUrl: string, integration: Integration): string =>
  `${publicUrl}/api/account/links/${integration}/callback`;

/**
 * Each integration's identity mode and how people link (issue 27 item 1): read through a short
 * cache (a tool call asks on every call), saved with the OAuth client secret sealed and write-only,
 * each save with its audit row.
 */
export function createIdentitySettings(deps: {
  repos: Repos;
  transact: Transact;
  secretBox: SecretBox;
  audit: AuditService;
  clock: Clock;
  publicUrl: string;
}) {
  const cache = new Map<Integration, { row: IntegrationIdentityRow; at: number }>();

  async function get(integration: Integration): Promise<IntegrationIdentityRow> {
    const hit = cache.get(integration);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.row;
    const row = (await deps.repos.accountsRepo.findIdentity(integration)) ?? SHARED_DEFAULT(integration);
    cache.set(integration, { row, at: Date.now() });
    return row;
  }

  const toDto = (row: IntegrationIdentityRow): IdentitySettingsDto => ({
    integration: row.integration as Integration,
    mode: row.mode,
    allowMachineClients: row.allowMachineClients,
    allowApiTokens: row.allowApiTokens,
    oauthClientId: row.oauthClientId,
    oauthClientSecretHint: row.oauthSecretHint,
    callbackUrl: callbackUrl(deps.publicUrl, row.integration as Integration),
    updatedAt: row.updatedAt.getTime() === 0 ? null : row.updatedAt.toISOString(),
  });

  return {
    get,
    toDto,
    forget: (integration: Integration) => cache.delete(integration),

    /** The OAuth app's credentials, or null while none are stored (or they no longer open: SECRET_KEY changed). */
    async app(integration: Integration): Promise<OAuthApp | null> {
      const row = await get(integration);
      if (!row.oauthClientId || !row.oauthSecretSealed) return null;
      try {
        return { clientId: row.oauthClientId, clientSecret: deps.secretBox.open(row.oauthSecretSealed, SECRET_PURPOSE(integration)) };
      } catch {
        return null;
      }
    },

    async save(integration: Integration, input: IdentityInput, actor: Actor): Promise<IdentitySettingsDto> {
      const saved = await deps.transact(async (r) => {
        const before = (await r.accountsRepo.findIdentity(integration)) ?? SHARED_DEFAULT(integration);
        const clientChanged = input.oauthClientId !== before.oauthClientId;
        // A new client id takes a new secret: the stored one is never sent as another app's.
        if (input.oauthClientId && !input.oauthClientSecret && (clientChanged || !before.oauthSecretSealed))
          throw new AppError("validation_failed", IDENTITY_MESSAGES.oauthClientSecret, {
            fields: { oauthClientSecret: IDENTITY_MESSAGES.oauthClientSecret },
          });
        const keepsSecret = Boolean(input.oauthClientId) && !input.oauthClientSecret;
        const row: IntegrationIdentityRow = {
          integration,
          mode: input.mode,
          allowMachineClients: input.allowMachineClients,
          allowApiTokens: input.allowApiTokens,
          oauthClientId: input.oauthClientId,
          oauthSecretSealed: !input.oauthClientId
            ? null
            : keepsSecret
              ? before.oauthSecretSealed
              : deps.secretBox.seal(input.oauthClientSecret!, SECRET_PURPOSE(integration)),
          oauthSecretHint: !input.oauthClientId ? null : keepsSecret ? before.oauthSecretHint : secretHint(input.oauthClientSecret!),
          updatedBy: actor.userId,
          updatedAt: deps.clock.now(),
        };
        if (row.mode === "per-person" && !row.oauthSecretSealed && !row.allowApiTokens)
          throw new AppError("validation_failed", IDENTITY_MESSAGES.noWayToLink, { fields: { mode: IDENTITY_MESSAGES.noWayToLink } });
        // Data Center (issue 28): people link personal access tokens; its own OAuth provider is not offered yet.
        if (
          row.mode === "per-person" &&
          !row.allowApiTokens &&
          (await r.integrationsRepo.find(integration))?.settings.deployment === "datacenter"
        )
          throw new AppError("validation_failed", IDENTITY_MESSAGES.noWayToLinkDataCenter, {
            fields: { allowApiTokens: IDENTITY_MESSAGES.noWayToLinkDataCenter },
          });
        const stored = await r.accountsRepo.upsertIdentity(row);
        const shown = (x: IntegrationIdentityRow) => ({
          mode: x.mode,
          allowMachineClients: x.allowMachineClients,
          allowApiTokens: x.allowApiTokens,
          oauthClientId: x.oauthClientId,
        });
        await deps.audit.record(
          actor,
          {
            action: "integration.identity_updated",
            targetType: "integration",
            targetId: integration,
            details: { before: shown(before), after: shown(row), secretChanged: Boolean(input.oauthClientSecret) },
          },
          r.auditRepo,
        );
        return stored;
      });
      cache.delete(integration);
      return toDto(saved);
    },
  };
}

export type IdentitySettings = ReturnType<typeof createIdentitySettings>;
