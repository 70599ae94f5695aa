import { ALL_PROJECTS } from "../../upstream/bitbucket-dc-repos";
import { POLICY_OPTIONS_LIMIT, type PolicyOptionsDto, type PolicyService, type PolicyToolOption } from "../../../contract/policy-options";
import type { Clock } from "../../lib/clock";
import type { Logger } from "../../lib/logger";
import { isUpstreamError, SERVICE_NAMES, type UpstreamService } from "../../upstream/errors";
import { firstOf } from "../../upstream/paginate";
import type { UpstreamTargets } from "../integrations/upstream-targets";
import type { IntegrationKind } from "../integrations/integrations.repo";

/** A listing is read again after this long (the editor is opened often, projects change seldom). */
const DEFAULT_CACHE_MS = 60_000;
/** A failed listing is kept this long: a down integration is not asked again by every dialog. */
const FAILURE_CACHE_MS = 5_000;
/** The answer never waits longer than this for an integration (docs/decisions.md#upstream-timeouts-and-retries: a dead upstream never blocks the console). */
const DEFAULT_WAIT_MS = 4_000;

type Listings = {
  jira: PolicyOptionsDto["jira"]["projects"];
  confluence: PolicyOptionsDto["confluence"]["spaces"];
  bitbucket: PolicyOptionsDto["bitbucket"]["repositories"];
};

interface Outcome<T> {
  available: boolean;
  error: string | null;
  truncated: boolean;
  items: T[];
}

const KIND_OF: Record<UpstreamService, IntegrationKind> = { jira: "atlassian", confluence: "atlassian", bitbucket: "bitbucket" };

export interface PolicyOptionsDeps {
  targets: Pick<UpstreamTargets, "clients" | "state">;
  /** The services whose integration is configured and active (the MCP server's own view, mcp-server.ts). */
  services: () => Promise<ReadonlySet<UpstreamService>>;
  /** Every tool of this server (the MCP catalogue, as container.ts maps it). */
  tools: readonly PolicyToolOption[];
  /** MCP_DESTRUCTIVE_TOOLS. */
  destructiveTools: boolean;
  clock: Clock;
  log: Logger;
  cacheMs?: number;
  waitMs?: number;
}

/**
 * What the policy editor picks from (issue 25 item 5): the projects, spaces and repositories the
 * integrations' accounts can see (the first POLICY_OPTIONS_LIMIT of each), and the tools. Each
 * listing is cached per process for a minute, read once at a time, and waited for a bounded time:
 * an integration that is down, slow or not configured answers `available: false` with its reason.
 */
export function createPolicyOptionsService(deps: PolicyOptionsDeps) {
  const { targets, clock } = deps;
  const cacheMs = deps.cacheMs ?? DEFAULT_CACHE_MS;
  const waitMs = deps.waitMs ?? DEFAULT_WAIT_MS;
  const cache = new Map<UpstreamService, { outcome: Outcome<unknown>; at: number }>();
  const loading = new Map<UpstreamService, Promise<Outcome<unknown>>>();
  /** Bumped when an integration is saved: a listing read before must not be cached after. */
  const generation = new Map<UpstreamService, number>();

  const listings: { [S in UpstreamService]: () => Promise<{ items: Listings[S]; truncated: boolean }> } = {
    jira: async () => {
      const { items, truncated } = await firstOf(targets.clients.jira.projects(POLICY_OPTIONS_LIMIT + 1), POLICY_OPTIONS_LIMIT);
      return { items: items.map((p) => ({ key: p.key, name: p.name })), truncated };
    },
    confluence: async () => {
      const { items, truncated } = await firstOf(targets.clients.confluence.spaces(POLICY_OPTIONS_LIMIT + 1), POLICY_OPTIONS_LIMIT);
      return { items: items.map((s) => ({ key: s.key, name: s.name })), truncated };
    },
    bitbucket: async () => {
      const state = await targets.state("bitbucket");
      // Data Center: every project's repositories (PROJECT/repo), not only the default project's.
      const workspace = state?.site.deployment === "datacenter" ? ALL_PROJECTS : (state?.settings.workspace ?? "");
      const all = targets.clients.bitbucket.repositories(workspace, { maxItems: POLICY_OPTIONS_LIMIT + 1 });
      const { items, truncated } = await firstOf(all, POLICY_OPTIONS_LIMIT);
      return { items: items.map((r) => ({ slug: r.slug, fullName: r.full_name, name: r.name })), truncated };
    },
  };

  function read(service: UpstreamService): Promise<Outcome<unknown>> {
    const cached = cache.get(service);
    const now = clock.now().getTime();
    if (cached && now - cached.at < (cached.outcome.available ? cacheMs : FAILURE_CACHE_MS)) return Promise.resolve(cached.outcome);
    const running = loading.get(service);
    if (running) return running;
    const startedAt = generation.get(service) ?? 0;
    const pending: Promise<Outcome<unknown>> = listings[service]()
      .then(
        ({ items, truncated }): Outcome<unknown> => ({ available: true, error: null, truncated, items }),
        (err: unknown): Outcome<unknown> => ({ available: false, error: reasonOf(err), truncated: false, items: [] }),
      )
      .then((outcome) => {
        // Also when it arrives after the answer stopped waiting: the next dialog has it.
        if ((generation.get(service) ?? 0) === startedAt) cache.set(service, { outcome, at: clock.now().getTime() });
        return outcome;
      })
      .finally(() => {
        if (loading.get(service) === pending) loading.delete(service);
      });
    loading.set(service, pending);
    return pending;
  }

  /** The listing, or "did not answer" once the wait is over (the call goes on and fills the cache). */
  async function bounded(service: UpstreamService): Promise<Outcome<unknown>> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<Outcome<unknown>>((resolve) => {
      timer = setTimeout(
        () =>
          resolve({
            available: false,
            error: `${SERVICE_NAMES[service]} did not answer within ${Math.round(waitMs / 100) / 10} s`,
            truncated: false,
            items: [],
          }),
        waitMs,
      );
    });
    try {
      return await Promise.race([read(service), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The reason as a person reads it: the upstream layer's messages are such sentences, without secrets. */
  function reasonOf(err: unknown): string {
    if (isUpstreamError(err)) return err.message;
    deps.log.warn({ err }, "a policy editor listing failed unexpectedly");
    return "The listing failed unexpectedly";
  }

  const toolNames: ReadonlySet<string> = new Set(deps.tools.map((t) => t.name));

  return {
    /** The names of this server's tools: a policy may switch off only these. */
    toolNames,

    async options(): Promise<PolicyOptionsDto> {
      const [jira, confluence, bitbucket, services, bitbucketState] = await Promise.all([
        bounded("jira") as Promise<Outcome<Listings["jira"][number]>>,
        bounded("confluence") as Promise<Outcome<Listings["confluence"][number]>>,
        bounded("bitbucket") as Promise<Outcome<Listings["bitbucket"][number]>>,
        deps.services(),
        targets.state("bitbucket"),
      ]);
      const listing = <T>({ items: _items, ...rest }: Outcome<T>) => rest;
      return {
        jira: { ...listing(jira), projects: jira.items },
        confluence: { ...listing(confluence), spaces: confluence.items },
        bitbucket: { ...listing(bitbucket), workspace: bitbucketState?.settings.workspace ?? null, repositories: bitbucket.items },
        tools: [...deps.tools],
        services: (["jira", "confluence", "bitbucket"] as const).filter((s: PolicyService) => services.has(s)),
        destructiveTools: deps.destructiveTools,
      };
    },

    /** An integration was saved (subscribed in container.ts): its listings are read afresh. */
    forget(kind: IntegrationKind): void {
      for (const service of ["jira", "confluence", "bitbucket"] as const) {
        if (KIND_OF[service] !== kind) continue;
        generation.set(service, (generation.get(service) ?? 0) + 1);
        cache.delete(service);
        loading.delete(service);
      }
    },
  };
}

export type PolicyOptionsService = ReturnType<typeof createPolicyOptionsService>;
