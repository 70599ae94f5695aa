import type { IntegrationConfigRow } from "../../db/schema";
import type { EventBus } from "../../lib/event-bus";
import type { SecretBox } from "../../lib/secret-box";
import { createBitbucketClient } from "../../upstream/bitbucket.client";
import { createConfluenceClient } from "../../upstream/confluence.client";
import { UpstreamError, type UpstreamService } from "../../upstream/errors";
import type { UpstreamHttp, UpstreamTarget } from "../../upstream/http";
import { createJiraClient } from "../../upstream/jira.client";
import type { IntegrationKind, IntegrationsRepo } from "./integrations.repo";
import type { CallFor, PersonIdentity } from "../accounts/person-identity";
import { serviceUrl, sharedAuthorization, siteOf, type Site } from "./sites";

/** Other instances may have saved a new configuration: the cached row is re-read this often. */
const CONFIG_CACHE_MS = 30_000;
export const SERVICES_OF: Record<IntegrationKind, UpstreamService[]> = { atlassian: ["jira", "confluence"], bitbucket: ["bitbucket"] };
const LABEL: Record<IntegrationKind, string> = { atlassian: "Atlassian", bitbucket: "Bitbucket" };

/**
 * Where Jira, Confluence and Bitbucket calls go and with which credentials, and the typed clients
 * that make them. The stored row is cached; its secret is opened when the first call needs it, and
 * the target made from it is kept with that row (a re-read or a save replaces the row, and the
 * target with it). The clients ask for their target on every call, so a saved change takes effect
 * at once.
 */
export function createUpstreamTargets(deps: {
  repo: IntegrationsRepo;
  secretBox: SecretBox;
  http: UpstreamHttp;
  bitbucketApiUrl: string;
  events: EventBus;
  /** Acting as the person (issue 27): for calls made for someone, their linked account where the integration asks for it. */
  people?: PersonIdentity;
}) {
  const { repo, secretBox, http } = deps;
  const cache = new Map<IntegrationKind, { row: IntegrationConfigRow | null; at: number }>();
  /** Bumped by every save: a read that started before it must not put the old row back in the cache. */
  const generation = new Map<IntegrationKind, number>();
  const loading = new Map<IntegrationKind, Promise<IntegrationConfigRow | null>>();

  function load(kind: IntegrationKind): Promise<IntegrationConfigRow | null> {
    const cached = cache.get(kind);
    if (cached && Date.now() - cached.at < CONFIG_CACHE_MS) return Promise.resolve(cached.row);
    // One read at a time per kind: N callers after the cache expired share it.
    let pending = loading.get(kind);
    if (!pending) {
      pending = read(kind, generation.get(kind) ?? 0).finally(() => loading.delete(kind));
      loading.set(kind, pending);
    }
    return pending;
  }

  async function read(kind: IntegrationKind, startedAt: number): Promise<IntegrationConfigRow | null> {
    const row = (await repo.find(kind)) ?? null;
    if ((generation.get(kind) ?? 0) !== startedAt) return row; // a save happened meanwhile: answer, but do not cache
    const previous = cache.get(kind)?.row;
    cache.set(kind, { row, at: Date.now() });
    // Another instance changed it: what we knew about the old target no longer holds.
    if (previous && row && previous.updatedAt.getTime() !== row.updatedAt.getTime())
      deps.events.emit("integration.saved", { kind, elsewhere: true });
    return row;
  }

  /** The stored row of a service's integration, configured and (unless `requireActive: false`) on. */
  async function usableRow(service: UpstreamService, options: { requireActive?: boolean }): Promise<IntegrationConfigRow> {
    const kind: IntegrationKind = service === "bitbucket" ? "bitbucket" : "atlassian";
    const row = await load(kind);
    const label = LABEL[kind];
    if (!row) throw new UpstreamError(service, "not_configured", `The ${label} integration is not configured`);
    if ((options.requireActive ?? true) && !row.isActive)
      throw new UpstreamError(service, "not_configured", `The ${label} integration is inactive`);
    return row;
  }

  /** Each cached row's targets, made once: opening the sealed secret (AES-GCM) per call cost a tool call about 7 µs. */
  const sharedTargets = new WeakMap<IntegrationConfigRow, Map<UpstreamService, UpstreamTarget>>();

  /** The shared account's target on `row`. */
  function sharedTarget(service: UpstreamService, row: IntegrationConfigRow): UpstreamTarget {
    let made = sharedTargets.get(row);
    if (!made) sharedTargets.set(row, (made = new Map()));
    let found = made.get(service);
    if (!found) made.set(service, (found = openSharedTarget(service, row)));
    return found;
  }

  function openSharedTarget(service: UpstreamService, row: IntegrationConfigRow): UpstreamTarget {
    const kind = row.kind as IntegrationKind;
    let secret: string;
    try {
      secret = secretBox.open(row.secretSealed, kind);
    } catch {
      // Sealed with another key (SECRET_KEY changed): the integration needs its secret again.
      throw new UpstreamError(
        service,
        "not_configured",
        `The stored ${LABEL[kind]} secret cannot be decrypted (was SECRET_KEY changed?): enter it again`,
      );
    }
    const site = siteOfRow(row);
    // Data Center's personal access tokens: Jira's and Confluence's are sealed together, one per server.
    if (row.settings.secretShape === "pair") secret = (JSON.parse(secret) as Record<string, string>)[service] ?? "";
    return {
      baseUrl: serviceUrl(site, service),
      authorization: sharedAuthorization(kind, row.settings, secret),
      deployment: site.deployment,
    };
  }

  /** Each cached row's site, made once. */
  const sites = new WeakMap<IntegrationConfigRow, Site>();
  function siteOfRow(row: IntegrationConfigRow): Site {
    let site = sites.get(row);
    if (!site) sites.set(row, (site = siteOf(row.kind as IntegrationKind, row.settings, deps.bitbucketApiUrl)));
    return site;
  }

  /** The shared account's call target of a service; `requireActive: false` for connection tests of an inactive integration. */
  async function target(service: UpstreamService, options: { requireActive?: boolean } = {}): Promise<UpstreamTarget> {
    return sharedTarget(service, await usableRow(service, options));
  }

  /**
   * The target of a call made for `who` (an MCP client's caller, the chat's user): the person's own
   * account when the integration is in per-person mode (person-identity.ts), else the shared one.
   */
  async function targetAs(service: UpstreamService, who: CallFor): Promise<UpstreamTarget> {
    const row = await usableRow(service, {});
    const person = deps.people
      ? await deps.people.targetFor(who, row.kind as IntegrationKind, service, siteOfRow(row))
      : (who.used?.("shared"), null);
    return person ?? sharedTarget(service, row);
  }

  const clientsOn = (targetOf: (service: UpstreamService) => () => Promise<UpstreamTarget>) => ({
    jira: createJiraClient(http, targetOf("jira")),
    confluence: createConfluenceClient(http, targetOf("confluence")),
    bitbucket: createBitbucketClient(http, targetOf("bitbucket")),
  });

  return {
    /** A configuration saved here: the next call reads it (subscribed in container.ts). */
    forget(kind: IntegrationKind): void {
      generation.set(kind, (generation.get(kind) ?? 0) + 1);
      cache.delete(kind);
    },

    /** The stored state without secrets, for status and tool availability: null when not configured. */
    async state(kind: IntegrationKind): Promise<{ isActive: boolean; settings: Record<string, string>; site: Site } | null> {
      const row = await load(kind);
      return row ? { isActive: row.isActive, settings: row.settings, site: siteOfRow(row) } : null;
    },

    target,

    /** Where a call made for `who` goes and as whom (the clients of clientsFor ask this on every request). */
    targetAs,

    /** docs/decisions.md#read-only-proxy: a read-only pass-through GET of an upstream path (with its query), as the caller (`who`) would make it: the shared account, or their own where the integration asks for it. */
    async proxyGet(
      service: UpstreamService,
      pathAndQuery: string,
      who: CallFor,
    ): Promise<{ status: number; body: string; contentType: string | undefined }> {
      const res = await http.request<string>(service, await targetAs(service, who), { path: pathAndQuery, accept: "raw" });
      const type = res.headers["content-type"];
      return { status: res.status, body: res.data, contentType: Array.isArray(type) ? type[0] : type };
    },

    /** Clients on the stored configuration (inactive or missing: every call fails with not_configured). */
    clients: clientsOn((service) => () => target(service)),

    /**
     * Clients for calls made for `who` (issue 27): as the person where their integration asks for it.
     * Each request they send is told to `spend` when given (the caller's share of the hourly budget,
     * client-budget.ts). Made per tool call: three small objects, no process-wide context tracking.
     */
    clientsFor: (who: CallFor, spend?: (service: UpstreamService) => void) =>
      clientsOn((service) => async () => {
        const chosen = await targetAs(service, who);
        return spend ? { ...chosen, spend: () => spend(service) } : chosen;
      }),

    /** Clients that also work while the integration is inactive: for connection tests. */
    testClients: clientsOn((service) => () => target(service, { requireActive: false })),
  };
}

export type UpstreamTargets = ReturnType<typeof createUpstreamTargets>;
