import type { IntegrationKind } from "./integrations.repo";
import type { AtlassianStatusDto, AtlassianTestResult, BitbucketStatusDto, BitbucketTestResult } from "../../../contract/integrations";
import { AppError } from "../../lib/app-error";
import type { Clock } from "../../lib/clock";
import { isUpstreamError, type UpstreamService } from "../../upstream/errors";
import type { UpstreamMeter } from "../../upstream/meter";
import type { UpstreamTargets } from "./upstream-targets";

/** Outcomes older than this are checked again when a status is asked for. */
const PROBE_FRESH_MS = 5 * 60_000;
/** A status answer never waits longer than this for a probe (D24: a dead upstream never blocks the console). */
const STATUS_WAIT_MS = 3_000;

const workspaceMissing = (workspace: string) => `Bitbucket has no workspace "${workspace}" that this user can see`;

const messageOf = (err: unknown): string => (isUpstreamError(err) || err instanceof Error ? err.message : "Unknown error");

/**
 * Connection tests and the status cards (D14): connected means the last call reached the service
 * and was accepted; last sync is the last successful call (kept across restarts); usage is the
 * meter's. A status older than five minutes is refreshed by a probe, one at a time per service.
 * It only reads: the configuration, the meter (kept across restarts by the sync recorder), and
 * the services themselves through the upstream targets.
 */
export function createIntegrationStatusService(deps: { targets: UpstreamTargets; meter: UpstreamMeter; clock: Clock; probeTimeoutMs: number }) {
  const { targets, meter, clock } = deps;
  const probes = new Map<UpstreamService, Promise<void>>();
  let workspaceFacts: { workspace: string; name: string | null; repositoryCount: number | null } | null = null;

  const probeCalls: Record<UpstreamService, () => Promise<unknown>> = {
    jira: () => targets.clients.jira.myself(deps.probeTimeoutMs),
    confluence: () => targets.clients.confluence.spacesPage(1, deps.probeTimeoutMs),
    bitbucket: async () => {
      const state = await targets.state("bitbucket");
      const workspace = state?.settings.workspace ?? "";
      try {
        const [info, count] = await Promise.all([
          targets.clients.bitbucket.workspace(workspace, deps.probeTimeoutMs),
          targets.clients.bitbucket.repositoryCount(workspace, deps.probeTimeoutMs),
        ]);
        workspaceFacts = { workspace, name: info.name, repositoryCount: count };
      } catch (err) {
        // Bitbucket answered, but the workspace is not there: the integration does not work.
        if (isUpstreamError(err) && err.kind === "not_found") meter.recordOutcome("bitbucket", false, workspaceMissing(workspace));
        throw err;
      }
    },
  };

  /** Probes the services whose last outcome is unknown or old; waits a bounded time for them. */
  async function freshen(services: UpstreamService[]): Promise<void> {
    const now = clock.now().getTime();
    const waits: Promise<void>[] = [];
    for (const service of services) {
      const last = meter.health(service).last;
      const needsFacts = service === "bitbucket" && workspaceFacts === null;
      if (last && now - last.at.getTime() < PROBE_FRESH_MS && !needsFacts) continue;
      let probe = probes.get(service);
      if (!probe) {
        // Failures are recorded by the meter; the probe itself never rejects.
        probe = probeCalls[service]()
          .then(() => undefined, () => undefined)
          .finally(() => probes.delete(service));
        probes.set(service, probe);
      }
      waits.push(probe);
    }
    if (waits.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(waits), new Promise<void>((r) => (timer = setTimeout(r, STATUS_WAIT_MS)))]);
    clearTimeout(timer);
  }

  const iso = (d: Date | null) => d?.toISOString() ?? null;
  const view = (service: UpstreamService) => {
    const h = meter.health(service);
    return { connected: h.last?.ok ?? false, lastSync: iso(h.lastSuccessAt), error: h.last ? h.last.error : null };
  };

  return {
    /** A reaction (subscribed in container.ts): a saved configuration's workspace facts are forgotten. */
    forgetWorkspace(kind: IntegrationKind): void {
      if (kind === "bitbucket") workspaceFacts = null;
    },

    async testAtlassian(): Promise<AtlassianTestResult> {
      if (!(await targets.state("atlassian"))) throw new AppError("bad_request", "Save the Atlassian configuration before testing it");
      const { jira, confluence } = targets.testClients;
      const [j, c] = await Promise.allSettled([jira.myself(), confluence.spacesPage(1)]);
      return {
        jiraConnected: j.status === "fulfilled",
        confluenceConnected: c.status === "fulfilled",
        ...(j.status === "rejected" ? { jiraError: messageOf(j.reason) } : {}),
        ...(c.status === "rejected" ? { confluenceError: messageOf(c.reason) } : {}),
      };
    },

    async testBitbucket(): Promise<BitbucketTestResult> {
      if (!(await targets.state("bitbucket"))) throw new AppError("bad_request", "Save the Bitbucket configuration before testing it");
      const workspace = (await targets.state("bitbucket"))?.settings.workspace ?? "";
      try {
        await targets.testClients.bitbucket.user();
      } catch (err) {
        return { connected: false, error: messageOf(err) };
      }
      try {
        await targets.testClients.bitbucket.workspace(workspace);
        return { connected: true };
      } catch (err) {
        return { connected: false, error: isUpstreamError(err) && err.kind === "not_found" ? workspaceMissing(workspace) : messageOf(err) };
      }
    },

    async atlassianStatus(): Promise<AtlassianStatusDto> {
      const state = await targets.state("atlassian");
      const apiRateLimit = meter.usage("atlassian");
      const stored = { jira: view("jira"), confluence: view("confluence") };
      if (!state || !state.isActive) {
        const why = state ? "The Atlassian integration is inactive" : "The Atlassian integration is not configured";
        return { configured: Boolean(state), isActive: state?.isActive ?? false, jiraConnected: false, jiraLastSync: stored.jira.lastSync, jiraError: why, confluenceConnected: false, confluenceLastSync: stored.confluence.lastSync, confluenceError: why, apiRateLimit };
      }
      await freshen(["jira", "confluence"]);
      const jira = view("jira");
      const confluence = view("confluence");
      return {
        configured: true,
        isActive: true,
        jiraConnected: jira.connected,
        jiraLastSync: jira.lastSync,
        jiraError: jira.error,
        confluenceConnected: confluence.connected,
        confluenceLastSync: confluence.lastSync,
        confluenceError: confluence.error,
        apiRateLimit: meter.usage("atlassian"),
      };
    },

    async bitbucketStatus(): Promise<BitbucketStatusDto> {
      const state = await targets.state("bitbucket");
      if (!state || !state.isActive) {
        const why = state ? "The Bitbucket integration is inactive" : "The Bitbucket integration is not configured";
        return { configured: Boolean(state), isActive: state?.isActive ?? false, connected: false, lastSync: view("bitbucket").lastSync, error: why, workspaceName: null, repositoryCount: null, apiRateLimit: meter.usage("bitbucket") };
      }
      await freshen(["bitbucket"]);
      const b = view("bitbucket");
      const facts = workspaceFacts?.workspace === state.settings.workspace ? workspaceFacts : null;
      return {
        configured: true,
        isActive: true,
        connected: b.connected,
        lastSync: b.lastSync,
        error: b.error,
        workspaceName: facts?.name ?? null,
        repositoryCount: facts?.repositoryCount ?? null,
        apiRateLimit: meter.usage("bitbucket"),
      };
    },
  };
}

export type IntegrationStatusService = ReturnType<typeof createIntegrationStatusService>;
