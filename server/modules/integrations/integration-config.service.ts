import type { AtlassianConfigInputSchema, BitbucketConfigInputSchema, Deployment } from "../../../contract/integrations";
import { deploymentFor, INTEGRATION_MESSAGES } from "../../../contract/integrations";
import { deploymentOf as deploymentOfSettings } from "./sites";
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

/** The parsed input (the choice and sign-in default to "auto" and Basic, as the schema's defaults do). */
type Defaulted<T> = Omit<T, "deployment" | "authMethod" | "confluenceToken"> &
  Partial<Pick<T, Extract<keyof T, "deployment" | "authMethod" | "confluenceToken">>>;
type AtlassianInput = Defaulted<z.output<typeof AtlassianConfigInputSchema>>;
type BitbucketInput = Defaulted<z.output<typeof BitbucketConfigInputSchema>>;

/** Settings without the fields left blank (a stored setting is always a string). */
const defined = (settings: Record<string, string | undefined>): Record<string, string> =>
  Object.fromEntries(Object.entries(settings).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ""));

/** "https://acme.atlassian.net/wiki/" -> "https://acme.atlassian.net": Jira lives at the root, Confluence under /wiki. */
export const normaliseInstanceUrl = (url: string): string =>
  url
    .trim()
    .replace(/\/+$/, "")
    .replace(/\/wiki$/i, "");

/** A Data Center base URL without its trailing slash; its context path (`/jira`) is kept. */
const normaliseBaseUrl = (url: string): string => url.trim().replace(/\/+$/, "");

/**
 * The Atlassian and Bitbucket configuration (spec §7): read without secrets, saved with the
 * secret sealed and write-only, each save and its audit row in one transaction. It never calls
 * the services; `upstream-targets.ts` does, and hears of a save through the event bus.
 */
/** The settings a stored secret is sent with: when one changes, the secret must be entered again. */
const ATLASSIAN_BOUND = ["deployment", "instanceUrl", "confluenceUrl", "authMethod", "email"];
const BITBUCKET_BOUND = ["deployment", "baseUrl", "authMethod", "username"];
const SETTING_DEFAULTS: Record<string, string> = { deployment: "cloud", authMethod: "basic" };
/** How the message names a changed setting. */
const SETTING_NAMES: Record<string, string> = {
  deployment: "deployment",
  instanceUrl: "instanceUrl",
  confluenceUrl: "Confluence URL",
  baseUrl: "base URL",
  authMethod: "sign-in method",
  email: "email",
  username: "username",
};

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

  /** The SSRF rule, checked here for a clear answer by field; every connection is checked again (DNS can change). */
  async function checkHosts(urls: Record<string, string | undefined>): Promise<void> {
    for (const [field, url] of Object.entries(urls)) {
      if (!url) continue;
      const problem = await deps.hostPolicy.problem(new URL(url).hostname);
      if (problem) throw new AppError("validation_failed", problem, { fields: { [field]: problem } });
    }
  }

  /**
   * While the choice stays "auto" and the entries that decide the deployment are unchanged, a
   * deployment a connection test detected is kept (a save re-guessing from the entries would undo
   * it); undefined otherwise.
   */
  function keptDeployment(
    before: IntegrationConfigRow | undefined,
    choice: string,
    deciding: Record<string, string | undefined>,
  ): Deployment | undefined {
    if (!before || choice !== "auto" || (before.settings.deploymentChoice ?? "auto") !== "auto") return undefined;
    const same = Object.entries(deciding).every(([k, v]) => {
      const stored = before.settings[k] ?? SETTING_DEFAULTS[k] ?? "";
      const given = k.endsWith("Url") && v ? normaliseBaseUrl(v) : (v ?? SETTING_DEFAULTS[k] ?? "");
      return stored.replace(/\/+$/, "").toLowerCase() === given.replace(/\/+$/, "").toLowerCase();
    });
    return same ? deploymentOfSettings(before.settings) : undefined;
  }

  /**
   * Jira's and Confluence's personal access tokens on Data Center (two servers, two tokens): each
   * given one replaces its stored one, a blank keeps it. `changed`: something new is to be sealed.
   */
  function tokenPair(
    before: IntegrationConfigRow | undefined,
    input: AtlassianInput,
  ): { jira: string; confluence: string; changed: boolean } {
    let stored: { jira?: string; confluence?: string } = {};
    if (before) {
      try {
        const opened = secretBox.open(before.secretSealed, "atlassian");
        stored = before.settings.secretShape === "pair" ? (JSON.parse(opened) as typeof stored) : { jira: opened };
      } catch {
        // Sealed with another key: both must be entered again.
      }
    }
    const jira = input.apiToken ?? stored.jira;
    const confluence = input.confluenceToken ?? stored.confluence;
    if (!jira)
      throw new AppError("validation_failed", INTEGRATION_MESSAGES.apiToken, { fields: { apiToken: INTEGRATION_MESSAGES.apiToken } });
    if (!confluence)
      throw new AppError("validation_failed", INTEGRATION_MESSAGES.confluenceToken, {
        fields: { confluenceToken: INTEGRATION_MESSAGES.confluenceToken },
      });
    const changed = input.apiToken !== undefined || input.confluenceToken !== undefined || before?.settings.secretShape !== "pair";
    return { jira, confluence, changed };
  }

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
    /** The hint of a secret made of two (Jira's and Confluence's tokens): Jira's. */
    hintOf: string | undefined = secret,
  ): Promise<IntegrationConfigRow> {
    const row = await transact(async (r) => {
      const before = await r.integrationsRepo.find(kind);
      if (!secret && !before) {
        const message = INTEGRATION_MESSAGES[secretField];
        throw new AppError("validation_failed", message, { fields: { [secretField]: message } });
      }
      // A setting stored before it existed reads as its default (Cloud, Basic), so an upgrade asks for nothing again.
      const value = (from: Record<string, string>, k: string) => (from[k] ?? SETTING_DEFAULTS[k] ?? "").toLowerCase();
      const moved = before ? boundTo.filter((k) => value(before.settings, k) !== value(settings, k)) : [];
      if (!secret && moved.length > 0) {
        const message = `Enter the ${secretField === "apiToken" ? "API token" : "app password"} again: the stored one is not sent to a changed ${moved.map((k) => SETTING_NAMES[k] ?? k).join(" or ")}`;
        throw new AppError("validation_failed", message, { fields: { [secretField]: message } });
      }
      const saved = await r.integrationsRepo.upsert({
        kind,
        settings,
        secretSealed: secret ? secretBox.seal(secret, kind) : before!.secretSealed,
        secretHint: secret ? secretHint(hintOf ?? secret) : before!.secretHint,
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
      const choice = input.deployment ?? "auto";
      const authMethod = input.authMethod ?? "basic";
      const before = await repos.integrationsRepo.find("atlassian");
      const deployment =
        keptDeployment(before, choice, { instanceUrl: input.instanceUrl, confluenceUrl: input.confluenceUrl, authMethod }) ??
        deploymentFor("atlassian", { deployment: choice, url: input.instanceUrl, secondUrl: input.confluenceUrl, authMethod });
      const dc = deployment === "datacenter";
      const confluenceUrl = dc && input.confluenceUrl ? normaliseBaseUrl(input.confluenceUrl) : undefined;
      // Data Center's personal access tokens are per server: Confluence's is its own (kept beside Jira's, sealed together).
      const pair = dc && authMethod === "token" && confluenceUrl !== undefined ? tokenPair(before, input) : null;
      const settings = defined({
        deployment,
        deploymentChoice: choice,
        instanceUrl: dc ? normaliseBaseUrl(input.instanceUrl) : normaliseInstanceUrl(input.instanceUrl),
        confluenceUrl,
        authMethod: dc ? authMethod : "basic",
        email: dc && authMethod === "token" ? undefined : input.email,
        secretShape: pair ? "pair" : undefined,
        confluenceTokenHint: pair ? secretHint(pair.confluence) : undefined,
      });
      await checkHosts({ instanceUrl: settings.instanceUrl, confluenceUrl: settings.confluenceUrl });
      const secret = pair ? (pair.changed ? JSON.stringify({ jira: pair.jira, confluence: pair.confluence }) : undefined) : input.apiToken;
      return save("atlassian", settings, secret, input.isActive, actor, "apiToken", ATLASSIAN_BOUND, pair ? pair.jira : input.apiToken);
    },

    async saveBitbucket(input: BitbucketInput, actor: Actor): Promise<IntegrationConfigRow> {
      const choice = input.deployment ?? "auto";
      const authMethod = input.authMethod ?? "basic";
      const before = await repos.integrationsRepo.find("bitbucket");
      const deployment =
        keptDeployment(before, choice, { baseUrl: input.baseUrl, authMethod }) ??
        deploymentFor("bitbucket", { deployment: choice, secondUrl: input.baseUrl, authMethod });
      const dc = deployment === "datacenter";
      const settings = defined({
        deployment,
        deploymentChoice: choice,
        baseUrl: dc && input.baseUrl ? normaliseBaseUrl(input.baseUrl) : undefined,
        workspace: input.workspace,
        authMethod: dc ? authMethod : "basic",
        username: dc && authMethod === "token" ? undefined : input.username,
      });
      if (dc) await checkHosts({ baseUrl: settings.baseUrl });
      return save("bitbucket", settings, input.appPassword, input.isActive, actor, "appPassword", BITBUCKET_BOUND);
    },

    /**
     * A connection test detected the deployment while the administrator's choice is "auto": it
     * replaces the guess (the secret and every other setting are kept), in the audit trail.
     * Nothing changes when the choice is a deployment, or the guess was right.
     */
    async learnDeployment(kind: IntegrationKind, detected: Deployment, actor: Actor): Promise<boolean> {
      const changed = await transact(async (r) => {
        const row = await r.integrationsRepo.find(kind);
        if (!row || (row.settings.deploymentChoice ?? "auto") !== "auto" || (row.settings.deployment ?? "cloud") === detected) return false;
        const settings = { ...row.settings, deployment: detected };
        await r.integrationsRepo.upsert({ ...row, settings, updatedAt: clock.now() });
        await audit.record(
          actor,
          {
            action: "integration.deployment_detected",
            targetType: "integration",
            targetId: kind,
            details: { before: row.settings.deployment ?? "cloud", after: detected },
          },
          r.auditRepo,
        );
        return true;
      });
      if (changed) deps.events.emit("integration.saved", { kind, elsewhere: false });
      return changed;
    },
  };
}

export type IntegrationConfigService = ReturnType<typeof createIntegrationConfigService>;
