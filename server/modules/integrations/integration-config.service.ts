import type { AtlassianConfigInputSchema, BitbucketConfigInputSchema } from "../../../contract/integrations";
import { INTEGRATION_MESSAGES } from "../../../contract/integrations";
import type { z } from "zod";
import type { IntegrationConfigRow } from "../../db/schema";
import { AppError } from "../../lib/app-error";
import type { Clock } from "../../lib/clock";
import type { EventBus } from "../../lib/event-bus";
import { secretHint, type SecretBox } from "../../lib/secret-box";
import type { HostPolicy } from "../../upstream/host-policy";
import type { Repos, Transact } from "../../repos";
import type { Actor, AuditService } from "../audit/audit.service";
import type { IntegrationKind } from "./integrations.repo";

type AtlassianInput = z.output<typeof AtlassianConfigInputSchema>;
type BitbucketInput = z.output<typeof BitbucketConfigInputSchema>;

/** "https://acme.atlassian.net/wiki/" -> "https://acme.atlassian.net": Jira lives at the root, Confluence under /wiki. */
export const normaliseInstanceUrl = (url: string): string =>
  url
    .trim()
    .replace(/\/+$/, "")
    .replace(/\/wiki$/i, "");

/**
 * The Atlassian and Bitbucket configuration (spec §7): read without secrets, saved with the
 * secret sealed and write-only, each save and its audit row in one transaction. It never calls
 * the services; `upstream-targets.ts` does, and hears of a save through the event bus.
 */
export function createIntegrationConfigService(deps: {
  repos: Repos;
  transact: Transact;
  secretBox: SecretBox;
  audit: AuditService;
  clock: Clock;
  hostPolicy: HostPolicy;
  bitbucketApiUrl: string;
  events: EventBus;
}) {
  const { repos, transact, secretBox, audit, clock } = deps;

  /**
   * @param boundTo the settings the secret is sent with (where and as whom): when one of them
   *   changes, the stored secret is not carried over, or a write-only token could be sent to a
   *   host of the editor's choosing (docs/decisions.md#write-only-secrets).
   */
  async function save(
    kind: IntegrationKind,
    settings: Record<string, string>,
    secret: string | undefined,
    isActive: boolean,
    actor: Actor,
    secretField: "apiToken" | "appPassword",
    boundTo: string[],
  ): Promise<IntegrationConfigRow> {
    const row = await transact(async (r) => {
      const before = await r.integrationsRepo.find(kind);
      if (!secret && !before) {
        const message = INTEGRATION_MESSAGES[secretField];
        throw new AppError("validation_failed", message, { fields: { [secretField]: message } });
      }
      const moved = before ? boundTo.filter((k) => (before.settings[k] ?? "").toLowerCase() !== (settings[k] ?? "").toLowerCase()) : [];
      if (!secret && moved.length > 0) {
        const message = `Enter the ${secretField === "apiToken" ? "API token" : "app password"} again: the stored one is not sent to a changed ${moved.join(" or ")}`;
        throw new AppError("validation_failed", message, { fields: { [secretField]: message } });
      }
      const saved = await r.integrationsRepo.upsert({
        kind,
        settings,
        secretSealed: secret ? secretBox.seal(secret, kind) : before!.secretSealed,
        secretHint: secret ? secretHint(secret) : before!.secretHint,
        isActive,
        updatedBy: actor.userId,
        updatedAt: clock.now(),
      });
      const entry = {
        action: "integration.update",
        targetType: "integration",
        targetId: kind,
        details: {
          before: before ? { ...before.settings, isActive: before.isActive } : null,
          after: { ...settings, isActive },
          secretChanged: Boolean(secret),
        },
      };
      await audit.record(actor, entry, r.auditRepo);
      return saved;
    });
    deps.events.emit("integration.saved", { kind, elsewhere: false });
    return row;
  }

  return {
    /** Where Bitbucket calls go (the configuration shows it; it is not stored). */
    bitbucketApiUrl: deps.bitbucketApiUrl,
    getAtlassian: (): Promise<IntegrationConfigRow | undefined> => repos.integrationsRepo.find("atlassian"),
    getBitbucket: (): Promise<IntegrationConfigRow | undefined> => repos.integrationsRepo.find("bitbucket"),

    /** Which integrations are configured and switched on (the Dashboard's Get started). */
    async active(): Promise<{ atlassian: boolean; bitbucket: boolean }> {
      const [atlassian, bitbucket] = await Promise.all([
        repos.integrationsRepo.find("atlassian"),
        repos.integrationsRepo.find("bitbucket"),
      ]);
      return { atlassian: atlassian?.isActive === true, bitbucket: bitbucket?.isActive === true };
    },

    /**
     * The accounts calls run as upstream, while each integration is configured and on: in whose
     * name an MCP client's changes appear (the consent page says so). Never the secret.
     */
    async accountsInUse(): Promise<{ atlassian: string | null; bitbucket: string | null }> {
      const [atlassian, bitbucket] = await Promise.all([
        repos.integrationsRepo.find("atlassian"),
        repos.integrationsRepo.find("bitbucket"),
      ]);
      return {
        atlassian: atlassian?.isActive ? (atlassian.settings.email ?? null) : null,
        bitbucket: bitbucket?.isActive ? (bitbucket.settings.username ?? null) : null,
      };
    },

    async saveAtlassian(input: AtlassianInput, actor: Actor): Promise<IntegrationConfigRow> {
      const settings = { instanceUrl: normaliseInstanceUrl(input.instanceUrl), email: input.email };
      // Checked here for a clear answer; every connection is checked again (DNS can change).
      const problem = await deps.hostPolicy.problem(new URL(settings.instanceUrl).hostname);
      if (problem) throw new AppError("validation_failed", problem, { fields: { instanceUrl: problem } });
      return save("atlassian", settings, input.apiToken, input.isActive, actor, "apiToken", ["instanceUrl", "email"]);
    },

    async saveBitbucket(input: BitbucketInput, actor: Actor): Promise<IntegrationConfigRow> {
      const settings = { workspace: input.workspace, username: input.username };
      return save("bitbucket", settings, input.appPassword, input.isActive, actor, "appPassword", ["username"]);
    },
  };
}

export type IntegrationConfigService = ReturnType<typeof createIntegrationConfigService>;
