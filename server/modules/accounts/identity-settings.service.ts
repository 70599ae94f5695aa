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
import type { EventBus } from "../../lib/event-bus";
import { secretHint, type SecretBox } from "../../lib/secret-box";
import type { Repos, Transact } from "../../repos";
import type { Actor, AuditService } from "../audit/audit.service";
import { deploymentOf } from "../integrations/sites";
import type { OAuthApp } from "./providers";

/** The parsed PUT body; Confluence's link may be left out by callers that have none (the demo, benches). */
type IdentityInput = Omit<z.output<typeof IdentitySettingsInputSchema>, "confluenceOauthClientId" | "confluenceOauthClientSecret"> & {
  confluenceOauthClientId?: string;
  confluenceOauthClientSecret?: string;
};

/** Other instances may have saved new settings: the cached row is re-read this often. */
const CACHE_MS = 15_000;
const SECRET_PURPOSE = (integration: Integration) => `identity-oauth:${integration}`;
const CONFLUENCE_SECRET_PURPOSE = "identity-oauth:confluence-dc";

/** Which app: the integration's own (Cloud's, or Jira's or Bitbucket's link on Data Center), or Confluence DC's link. */
export type AppOf = "main" | "confluence";

/** An installation that never chose: the shared account, as before issue 27. */
export const SHARED_DEFAULT = (integration: Integration): IntegrationIdentityRow => ({
  integration,
  mode: "shared",
  allowMachineClients: false,
  allowApiTokens: false,
  oauthClientId: "",
  oauthSecretSealed: null,
  oauthSecretHint: null,
  confluenceOauthClientId: "",
  confluenceOauthSecretSealed: null,
  confluenceOauthSecretHint: null,
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
  events: EventBus;
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

  /** Where the integration runs, and (Atlassian on Data Center) whether Confluence is a server of its own to link. */
  async function placeOf(integration: Integration, repos: Repos = deps.repos) {
    const settings = (await repos.integrationsRepo.find(integration))?.settings ?? {};
    const deployment = deploymentOf(settings);
    return {
      deployment,
      confluenceAppWanted: integration === "atlassian" && deployment === "datacenter" && Boolean(settings.confluenceUrl),
    };
  }

  const toDto = (row: IntegrationIdentityRow, place: Awaited<ReturnType<typeof placeOf>>): IdentitySettingsDto => ({
    integration: row.integration as Integration,
    mode: row.mode,
    allowMachineClients: row.allowMachineClients,
    allowApiTokens: row.allowApiTokens,
    oauthClientId: row.oauthClientId,
    oauthClientSecretHint: row.oauthSecretHint,
    deployment: place.deployment,
    confluenceAppWanted: place.confluenceAppWanted,
    confluenceOauthClientId: row.confluenceOauthClientId,
    confluenceOauthClientSecretHint: row.confluenceOauthSecretHint,
    callbackUrl: callbackUrl(deps.publicUrl, row.integration as Integration),
    updatedAt: row.updatedAt.getTime() === 0 ? null : row.updatedAt.toISOString(),
  });

  return {
    get,
    /** The settings as the Configuration screen shows them. */
    dto: async (integration: Integration): Promise<IdentitySettingsDto> => toDto(await get(integration), await placeOf(integration)),
    forget: (integration: Integration) => cache.delete(integration),

    /**
     * An OAuth app's credentials, or null while none are stored (or they no longer open: SECRET_KEY
     * changed): the integration's own, or Confluence Data Center's incoming application link.
     */
    async app(integration: Integration, which: AppOf = "main"): Promise<OAuthApp | null> {
      const row = await get(integration);
      const [clientId, sealed, purpose] =
        which === "main"
          ? [row.oauthClientId, row.oauthSecretSealed, SECRET_PURPOSE(integration)]
          : [row.confluenceOauthClientId, row.confluenceOauthSecretSealed, CONFLUENCE_SECRET_PURPOSE];
      if (!clientId || !sealed) return null;
      try {
        return { clientId, clientSecret: deps.secretBox.open(sealed, purpose) };
      } catch {
        return null;
      }
    },

    async save(integration: Integration, input: IdentityInput, actor: Actor): Promise<IdentitySettingsDto> {
      const { saved, place } = await deps.transact(async (r) => {
        const before = (await r.accountsRepo.findIdentity(integration)) ?? SHARED_DEFAULT(integration);
        const place = await placeOf(integration, r);
        const main = sealedApp(
          { clientId: input.oauthClientId, secret: input.oauthClientSecret },
          { clientId: before.oauthClientId, sealed: before.oauthSecretSealed, hint: before.oauthSecretHint },
          SECRET_PURPOSE(integration),
          "oauthClientSecret",
          IDENTITY_MESSAGES.oauthClientSecret,
        );
        // Confluence's link is Atlassian Data Center's alone; elsewhere what was stored stays as it was.
        const confluence =
          integration === "atlassian" && place.deployment === "datacenter"
            ? sealedApp(
                { clientId: input.confluenceOauthClientId ?? "", secret: input.confluenceOauthClientSecret },
                {
                  clientId: before.confluenceOauthClientId,
                  sealed: before.confluenceOauthSecretSealed,
                  hint: before.confluenceOauthSecretHint,
                },
                CONFLUENCE_SECRET_PURPOSE,
                "confluenceOauthClientSecret",
                IDENTITY_MESSAGES.confluenceOauthClientSecret,
              )
            : {
                clientId: before.confluenceOauthClientId,
                sealed: before.confluenceOauthSecretSealed,
                hint: before.confluenceOauthSecretHint,
              };
        const row: IntegrationIdentityRow = {
          integration,
          mode: input.mode,
          allowMachineClients: input.allowMachineClients,
          allowApiTokens: input.allowApiTokens,
          oauthClientId: main.clientId,
          oauthSecretSealed: main.sealed,
          oauthSecretHint: main.hint,
          confluenceOauthClientId: confluence.clientId,
          confluenceOauthSecretSealed: confluence.sealed,
          confluenceOauthSecretHint: confluence.hint,
          updatedBy: actor.userId,
          updatedAt: deps.clock.now(),
        };
        if (row.mode === "per-person" && !row.oauthSecretSealed && !row.allowApiTokens) {
          const message = place.deployment === "datacenter" ? IDENTITY_MESSAGES.noWayToLinkDataCenter : IDENTITY_MESSAGES.noWayToLink;
          throw new AppError("validation_failed", message, { fields: { mode: message } });
        }
        // Jira's link without Confluence's would leave Confluence's tools out of every OAuth link.
        if (place.confluenceAppWanted && row.oauthSecretSealed && !row.confluenceOauthSecretSealed)
          throw new AppError("validation_failed", IDENTITY_MESSAGES.confluenceApp, {
            fields: { confluenceOauthClientId: IDENTITY_MESSAGES.confluenceApp },
          });
        const stored = await r.accountsRepo.upsertIdentity(row);
        const shown = (x: IntegrationIdentityRow) => ({
          mode: x.mode,
          allowMachineClients: x.allowMachineClients,
          allowApiTokens: x.allowApiTokens,
          oauthClientId: x.oauthClientId,
          ...(x.confluenceOauthClientId ? { confluenceOauthClientId: x.confluenceOauthClientId } : {}),
        });
        await deps.audit.record(
          actor,
          {
            action: "integration.identity_updated",
            targetType: "integration",
            targetId: integration,
            details: {
              before: shown(before),
              after: shown(row),
              secretChanged: Boolean(input.oauthClientSecret || input.confluenceOauthClientSecret),
            },
          },
          r.auditRepo,
        );
        return { saved: stored, place };
      });
      cache.delete(integration);
      deps.events.emit("identity.saved", { integration });
      return toDto(saved, place);
    },
  };

  /**
   * An app's client id and sealed secret after a save: a new client id takes a new secret (the
   * stored one is never sent as another app's), a blank secret keeps the stored one, no client id
   * drops both.
   */
  function sealedApp(
    input: { clientId: string; secret: string | undefined },
    before: { clientId: string; sealed: string | null; hint: string | null },
    purpose: string,
    field: string,
    message: string,
  ): { clientId: string; sealed: string | null; hint: string | null } {
    if (!input.clientId) return { clientId: "", sealed: null, hint: null };
    if (input.secret)
      return { clientId: input.clientId, sealed: deps.secretBox.seal(input.secret, purpose), hint: secretHint(input.secret) };
    if (input.clientId !== before.clientId || !before.sealed)
      throw new AppError("validation_failed", message, { fields: { [field]: message } });
    return { clientId: input.clientId, sealed: before.sealed, hint: before.hint };
  }
}

export type IdentitySettings = ReturnType<typeof createIdentitySettings>;
