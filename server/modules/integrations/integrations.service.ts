import type {
  AtlassianConfigDto,
  AtlassianConfigInputSchema,
  BitbucketConfigDto,
  BitbucketConfigInputSchema,
} from "../../../contract/integrations";
import { INTEGRATION_MESSAGES } from "../../../contract/integrations";
import type { z } from "zod";
import type { IntegrationConfigRow } from "../../db/schema";
import { AppError } from "../../lib/app-error";
import type { Clock } from "../../lib/clock";
import { secretHint, type SecretBox } from "../../lib/secret-box";
import { createBitbucketClient } from "../../upstream/bitbucket.client";
import { createConfluenceClient } from "../../upstream/confluence.client";
import { UpstreamError, type UpstreamService } from "../../upstream/errors";
import type { UpstreamHttp, UpstreamTarget } from "../../upstream/http";
import { createJiraClient } from "../../upstream/jira.client";
import type { HostPolicy } from "../../upstream/host-policy";
import type { EventBus } from "../../lib/event-bus";
import type { Actor, AuditService } from "../audit/audit.service";
import type { IntegrationKind, IntegrationsRepo } from "./integrations.repo";

type AtlassianInput = z.output<typeof AtlassianConfigInputSchema>;
type BitbucketInput = z.output<typeof BitbucketConfigInputSchema>;

/** A stored configuration with its secret opened, as the connectors need it. */
interface OpenConfig {
  row: IntegrationConfigRow;
  /** null when the stored secret cannot be opened with this server's key. */
  secret: string | null;
}

/** Other instances may have saved a new configuration: the cached copy is re-read this often. */
const CONFIG_CACHE_MS = 30_000;
export const SERVICES_OF: Record<IntegrationKind, UpstreamService[]> = { atlassian: ["jira", "confluence"], bitbucket: ["bitbucket"] };

/** "https://acme.atlassian.net/wiki/" -> "https://acme.atlassian.net": Jira lives at the root, Confluence under /wiki. */
export const normaliseInstanceUrl = (url: string): string => url.trim().replace(/\/+$/, "").replace(/\/wiki$/i, "");

const basic = (user: string, secret: string) => `Basic ${Buffer.from(`${user}:${secret}`, "utf8").toString("base64")}`;

/**
 * The Atlassian and Bitbucket connections: stored configuration (secrets sealed, write-only),
 * and the typed clients that use it. The clients ask for their target on every call, so a saved
 * change takes effect at once.
 */
export function createIntegrationsService(deps: {
  repo: IntegrationsRepo;
  secretBox: SecretBox;
  audit: AuditService;
  clock: Clock;
  http: UpstreamHttp;
  hostPolicy: HostPolicy;
  bitbucketApiUrl: string;
  events: EventBus;
}) {
  const { repo, secretBox, audit, clock, http } = deps;
  const cache = new Map<IntegrationKind, OpenConfig | null>();
  const cacheTimes = new Map<IntegrationKind, number>();
  /** Bumped by every save: a read that started before it must not put the old row back in the cache. */
  const generation = new Map<IntegrationKind, number>();
  const loading = new Map<IntegrationKind, Promise<OpenConfig | null>>();

  function load(kind: IntegrationKind): Promise<OpenConfig | null> {
    const at = cacheTimes.get(kind);
    if (at !== undefined && Date.now() - at < CONFIG_CACHE_MS) return Promise.resolve(cache.get(kind) ?? null);
    // One read at a time per kind: N callers after the cache expired share it.
    let pending = loading.get(kind);
    if (!pending) {
      const startedAt = generation.get(kind) ?? 0;
      pending = read(kind, startedAt).finally(() => loading.delete(kind));
      loading.set(kind, pending);
    }
    return pending;
  }

  async function read(kind: IntegrationKind, startedAt: number): Promise<OpenConfig | null> {
    const row = await repo.find(kind);
    let secret: string | null = null;
    if (row) {
      try {
        secret = secretBox.open(row.secretSealed, kind);
      } catch {
        secret = null; // sealed with another key (SECRET_KEY changed): the integration needs its secret again
      }
    }
    const open = row ? { row, secret } : null;
    if ((generation.get(kind) ?? 0) !== startedAt) return open; // a save happened meanwhile: answer, but do not cache
    const previous = cache.get(kind);
    cache.set(kind, open);
    cacheTimes.set(kind, Date.now());
    // Another instance changed it: what we knew about the old target no longer holds.
    if (previous && open && previous.row.updatedAt.getTime() !== open.row.updatedAt.getTime()) changed(kind);
    return open;
  }

  const changed = (kind: IntegrationKind): void => deps.events.emit("integration.saved", { kind });

  /** The call target of a service; `requireActive: false` for connection tests of an inactive integration. */
  async function target(service: UpstreamService, options: { requireActive?: boolean } = {}): Promise<UpstreamTarget> {
    const kind: IntegrationKind = service === "bitbucket" ? "bitbucket" : "atlassian";
    const config = await load(kind);
    const label = kind === "atlassian" ? "Atlassian" : "Bitbucket";
    if (!config) throw new UpstreamError(service, "not_configured", `The ${label} integration is not configured`);
    if ((options.requireActive ?? true) && !config.row.isActive) throw new UpstreamError(service, "not_configured", `The ${label} integration is inactive`);
    if (config.secret === null) throw new UpstreamError(service, "not_configured", `The stored ${label} secret cannot be decrypted (was SECRET_KEY changed?): enter it again`);
    const s = config.row.settings;
    if (kind === "bitbucket") return { baseUrl: deps.bitbucketApiUrl, authorization: basic(s.username ?? "", config.secret) };
    const root = s.instanceUrl ?? "";
    return { baseUrl: service === "confluence" ? `${root}/wiki` : root, authorization: basic(s.email ?? "", config.secret) };
  }

  /**
   * @param boundTo the settings the secret is sent with (where and as whom): when one of them
   *   changes, the stored secret is not carried over, or a write-only token could be sent to a
   *   host of the editor's choosing (D6).
   */
  async function save(kind: IntegrationKind, settings: Record<string, string>, secret: string | undefined, isActive: boolean, actor: Actor, secretField: "apiToken" | "appPassword", boundTo: string[]): Promise<IntegrationConfigRow> {
    const before = await repo.find(kind);
    if (!secret && !before) {
      const message = INTEGRATION_MESSAGES[secretField];
      throw new AppError("validation_failed", message, { fields: { [secretField]: message } });
    }
    const moved = before ? boundTo.filter((k) => (before.settings[k] ?? "").toLowerCase() !== (settings[k] ?? "").toLowerCase()) : [];
    if (!secret && moved.length > 0) {
      const message = `Enter the ${secretField === "apiToken" ? "API token" : "app password"} again: the stored one is not sent to a changed ${moved.join(" or ")}`;
      throw new AppError("validation_failed", message, { fields: { [secretField]: message } });
    }
    const row = await repo.upsert({
      kind,
      settings,
      secretSealed: secret ? secretBox.seal(secret, kind) : before!.secretSealed,
      secretHint: secret ? secretHint(secret) : before!.secretHint,
      isActive,
      updatedBy: actor.userId,
      updatedAt: clock.now(),
    });
    generation.set(kind, (generation.get(kind) ?? 0) + 1);
    cacheTimes.delete(kind);
    changed(kind);
    await audit.record(actor, {
      action: "integration.update",
      targetType: "integration",
      targetId: kind,
      details: { before: before ? { ...before.settings, isActive: before.isActive } : null, after: { ...settings, isActive }, secretChanged: Boolean(secret) },
    });
    return row;
  }

  const atlassianDto = (row: IntegrationConfigRow | undefined): AtlassianConfigDto => ({
    configured: Boolean(row),
    instanceUrl: row?.settings.instanceUrl ?? "",
    email: row?.settings.email ?? "",
    isActive: row?.isActive ?? true,
    apiTokenHint: row?.secretHint ?? null,
    updatedAt: row?.updatedAt.toISOString() ?? null,
  });

  const bitbucketDto = (row: IntegrationConfigRow | undefined): BitbucketConfigDto => ({
    configured: Boolean(row),
    workspace: row?.settings.workspace ?? "",
    username: row?.settings.username ?? "",
    isActive: row?.isActive ?? true,
    appPasswordHint: row?.secretHint ?? null,
    apiUrl: deps.bitbucketApiUrl,
    updatedAt: row?.updatedAt.toISOString() ?? null,
  });

  const jira = createJiraClient(http, () => target("jira"));
  const confluence = createConfluenceClient(http, () => target("confluence"));
  const bitbucket = createBitbucketClient(http, () => target("bitbucket"));

  return {
    getAtlassian: async () => atlassianDto(await repo.find("atlassian")),
    getBitbucket: async () => bitbucketDto(await repo.find("bitbucket")),

    async saveAtlassian(input: AtlassianInput, actor: Actor): Promise<AtlassianConfigDto> {
      const settings = { instanceUrl: normaliseInstanceUrl(input.instanceUrl), email: input.email };
      // Checked here for a clear answer; every connection is checked again (DNS can change).
      const problem = await deps.hostPolicy.problem(new URL(settings.instanceUrl).hostname);
      if (problem) throw new AppError("validation_failed", problem, { fields: { instanceUrl: problem } });
      return atlassianDto(await save("atlassian", settings, input.apiToken, input.isActive, actor, "apiToken", ["instanceUrl", "email"]));
    },

    async saveBitbucket(input: BitbucketInput, actor: Actor): Promise<BitbucketConfigDto> {
      const settings = { workspace: input.workspace, username: input.username };
      return bitbucketDto(await save("bitbucket", settings, input.appPassword, input.isActive, actor, "appPassword", ["username"]));
    },

    /** The stored state without secrets, for status and tests: null when not configured. */
    async state(kind: IntegrationKind): Promise<{ isActive: boolean; settings: Record<string, string> } | null> {
      const config = await load(kind);
      return config ? { isActive: config.row.isActive, settings: config.row.settings } : null;
    },

    target,

    /** D12: a read-only pass-through GET of an upstream path (with its query), on the stored credentials. */
    async proxyGet(service: UpstreamService, pathAndQuery: string): Promise<{ status: number; body: string; contentType: string | undefined }> {
      const res = await http.request<string>(service, await target(service), { path: pathAndQuery, accept: "raw" });
      const type = res.headers["content-type"];
      return { status: res.status, body: res.data, contentType: Array.isArray(type) ? type[0] : type };
    },


    /** Clients on the stored configuration (inactive or missing: every call fails with not_configured). */
    clients: { jira, confluence, bitbucket },

    /** Clients that also work while the integration is inactive: for connection tests. */
    testClients: {
      jira: createJiraClient(http, () => target("jira", { requireActive: false })),
      confluence: createConfluenceClient(http, () => target("confluence", { requireActive: false })),
      bitbucket: createBitbucketClient(http, () => target("bitbucket", { requireActive: false })),
    },
  };
}

export type IntegrationsService = ReturnType<typeof createIntegrationsService>;
