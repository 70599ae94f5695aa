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
import type { UpstreamMeter } from "../../upstream/meter";
import type { Actor, AuditService } from "../audit/audit.service";
import type { IntegrationKind, IntegrationsRepo } from "./integrations.repo";

type AtlassianInput = z.output<typeof AtlassianConfigInputSchema>;
type BitbucketInput = z.output<typeof BitbucketConfigInputSchema>;

/** A stored configuration with its secret opened, as the connectors need it. */
interface OpenConfig {
  row: IntegrationConfigRow;
  secret: string;
  loadedAt: number;
}

/** Other instances may have saved a new configuration: the cached copy is re-read this often. */
const CONFIG_CACHE_MS = 30_000;
const SERVICES_OF: Record<IntegrationKind, UpstreamService[]> = { atlassian: ["jira", "confluence"], bitbucket: ["bitbucket"] };

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
  meter: UpstreamMeter;
  bitbucketApiUrl: string;
}) {
  const { repo, secretBox, audit, clock, http, meter } = deps;
  const cache = new Map<IntegrationKind, OpenConfig | null>();
  const cacheTimes = new Map<IntegrationKind, number>();
  const changeListeners: ((kind: IntegrationKind) => void)[] = [];

  async function load(kind: IntegrationKind): Promise<OpenConfig | null> {
    const at = cacheTimes.get(kind);
    if (at !== undefined && Date.now() - at < CONFIG_CACHE_MS) return cache.get(kind) ?? null;
    const row = await repo.find(kind);
    const open = row ? { row, secret: secretBox.open(row.secretSealed, kind), loadedAt: Date.now() } : null;
    const previous = cache.get(kind);
    cache.set(kind, open);
    cacheTimes.set(kind, Date.now());
    // Another instance changed it: what we knew about the old target no longer holds.
    if (previous && open && previous.row.updatedAt.getTime() !== open.row.updatedAt.getTime()) changed(kind);
    return open;
  }

  function changed(kind: IntegrationKind): void {
    meter.forgetOutcomes(SERVICES_OF[kind]);
    for (const s of SERVICES_OF[kind]) http.resetCircuits(s);
    for (const listener of changeListeners) listener(kind);
  }

  /** The call target of a service; `requireActive: false` for connection tests of an inactive integration. */
  async function target(service: UpstreamService, options: { requireActive?: boolean } = {}): Promise<UpstreamTarget> {
    const kind: IntegrationKind = service === "bitbucket" ? "bitbucket" : "atlassian";
    const config = await load(kind);
    const label = kind === "atlassian" ? "Atlassian" : "Bitbucket";
    if (!config) throw new UpstreamError(service, "not_configured", `The ${label} integration is not configured`);
    if ((options.requireActive ?? true) && !config.row.isActive) throw new UpstreamError(service, "not_configured", `The ${label} integration is inactive`);
    const s = config.row.settings;
    if (kind === "bitbucket") return { baseUrl: deps.bitbucketApiUrl, authorization: basic(s.username ?? "", config.secret) };
    const root = s.instanceUrl ?? "";
    return { baseUrl: service === "confluence" ? `${root}/wiki` : root, authorization: basic(s.email ?? "", config.secret) };
  }

  async function save(kind: IntegrationKind, settings: Record<string, string>, secret: string | undefined, isActive: boolean, actor: Actor, secretField: string): Promise<IntegrationConfigRow> {
    const before = await repo.find(kind);
    if (!secret && !before) {
      const message = INTEGRATION_MESSAGES[secretField as "apiToken" | "appPassword"];
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
      return atlassianDto(await save("atlassian", settings, input.apiToken, input.isActive, actor, "apiToken"));
    },

    async saveBitbucket(input: BitbucketInput, actor: Actor): Promise<BitbucketConfigDto> {
      const settings = { workspace: input.workspace, username: input.username };
      return bitbucketDto(await save("bitbucket", settings, input.appPassword, input.isActive, actor, "appPassword"));
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

    onChange: (listener: (kind: IntegrationKind) => void) => changeListeners.push(listener),

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
