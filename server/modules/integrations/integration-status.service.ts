import type { IntegrationKind } from "./integrations.repo";
import type {
  AtlassianReachDto,
  AtlassianStatusDto,
  AtlassianTestResult,
  BitbucketReachDto,
  BitbucketStatusDto,
  BitbucketTestResult,
  IntegrationAccountDto,
} from "../../../contract/integrations";
import type { UpstreamReach } from "../../db/schema";
import { AppError } from "../../lib/app-error";
import type { Clock } from "../../lib/clock";
import { isUpstreamError, type UpstreamService } from "../../upstream/errors";
import type { UpstreamMeter } from "../../upstream/meter";
import type { SyncRecorder } from "./sync-recorder";
import type { UpstreamTargets } from "./upstream-targets";

/** Outcomes older than this are checked again when a status is asked for. */
const PROBE_FRESH_MS = 5 * 60_000;
/** A status answer never waits longer than this for a probe (docs/decisions.md#upstream-timeouts-and-retries: a dead upstream never blocks the console). */
const STATUS_WAIT_MS = 3_000;
/** Confluence's v2 listing has no total: spaces are counted page by page up to this many ("1,000+"). */
const SPACE_COUNT_CAP = 1_000;

const workspaceMissing = (workspace: string) => `Bitbucket has no workspace "${workspace}" that this user can see`;

const messageOf = (err: unknown): string => (isUpstreamError(err) || err instanceof Error ? err.message : "Unknown error");

type Clients = UpstreamTargets["clients"];
type Known = Map<UpstreamService, UpstreamReach>;

/**
 * Whose facts they are: the same site and account (an email's case aside), or the same workspace
 * and username. A saved configuration with another target shows nothing until a check learns it.
 */
function reachTarget(kind: IntegrationKind, settings: Record<string, string>): string {
  return kind === "atlassian"
    ? `${settings.instanceUrl ?? ""} ${(settings.email ?? "").toLowerCase()}`
    : `${settings.workspace ?? ""} ${settings.username ?? ""}`;
}

const NO_ATLASSIAN_REACH: AtlassianReachDto = {
  account: null,
  jiraProjectCount: null,
  confluenceSpaceCount: null,
  confluenceSpaceCountCapped: false,
  checkedAt: null,
};
const NO_BITBUCKET_REACH = { account: null, checkedAt: null, workspaceName: null, repositoryCount: null };

/**
 * Connection tests and the status cards (docs/decisions.md#measured-numbers): connected means the last call reached the service
 * and was accepted; last sync is the last successful call (kept across restarts); usage is the
 * meter's. A status older than five minutes is refreshed by a probe, one at a time per service.
 * It reads the configuration, the meter (kept across restarts by the sync recorder), and the
 * services themselves through the upstream targets. A test or a probe also learns who the
 * integration connects as and what it can see (issue 25); the sync recorder keeps that in the
 * database, and a check that fails leaves the last known values.
 */
export function createIntegrationStatusService(deps: {
  targets: UpstreamTargets;
  meter: UpstreamMeter;
  clock: Clock;
  probeTimeoutMs: number;
  reach: Pick<SyncRecorder, "learn" | "known">;
}) {
  const { targets, meter, clock, reach } = deps;
  const probes = new Map<UpstreamService, Promise<void>>();

  /** Jira: /myself is the connection check (it rejects as that call did); then the projects it sees. */
  async function checkJira(jira: Clients["jira"], target: string, timeoutMs?: number): Promise<void> {
    const me = await jira.myself(timeoutMs);
    const account: IntegrationAccountDto = {
      displayName: me.displayName,
      id: me.accountId,
      email: me.emailAddress || null,
      nickname: null,
    };
    const projects = await jira.projectCount(timeoutMs).catch(() => null);
    await reach.learn("jira", target, { account, projectCount: projects ?? undefined }, clock.now());
  }

  /** Confluence: the spaces it sees, counted; the first page is the connection check. */
  async function checkConfluence(confluence: Clients["confluence"], target: string, timeoutMs?: number): Promise<void> {
    const spaceCount = await confluence.spaceCount(SPACE_COUNT_CAP, timeoutMs);
    await reach.learn("confluence", target, { spaceCount }, clock.now());
  }

  /**
   * Bitbucket: /user is the connection check, then the workspace and its repositories. Rejects as
   * the first failed call did; a workspace that is not there is learned as such, and is a failure.
   */
  async function checkBitbucket(bitbucket: Clients["bitbucket"], workspace: string, target: string, timeoutMs?: number): Promise<void> {
    const user = await bitbucket.user(timeoutMs);
    const account: IntegrationAccountDto = {
      displayName: user.display_name,
      id: user.account_id ?? user.uuid,
      email: null,
      nickname: user.nickname ?? user.username ?? null,
    };
    const [info, count] = await Promise.allSettled([
      bitbucket.workspace(workspace, timeoutMs),
      bitbucket.repositoryCount(workspace, timeoutMs),
    ]);
    const failed = [info, count].find((r) => r.status === "rejected");
    const missing = failed !== undefined && isUpstreamError(failed.reason) && failed.reason.kind === "not_found";
    const place =
      info.status === "fulfilled" && count.status === "fulfilled"
        ? { name: info.value.name, repositoryCount: count.value }
        : missing
          ? { name: null, repositoryCount: null }
          : undefined;
    await reach.learn("bitbucket", target, { account, workspace: place }, clock.now());
    // Bitbucket answered, but the workspace is not there: the integration does not work.
    if (missing) meter.recordOutcome("bitbucket", false, workspaceMissing(workspace));
    if (failed) throw failed.reason;
  }

  const probeCalls: Record<UpstreamService, (settings: Record<string, string>) => Promise<unknown>> = {
    jira: (s) => checkJira(targets.clients.jira, reachTarget("atlassian", s), deps.probeTimeoutMs),
    confluence: (s) => checkConfluence(targets.clients.confluence, reachTarget("atlassian", s), deps.probeTimeoutMs),
    bitbucket: (s) => checkBitbucket(targets.clients.bitbucket, s.workspace ?? "", reachTarget("bitbucket", s), deps.probeTimeoutMs),
  };

  /**
   * Probes the services whose last outcome is unknown or old, or whose facts are not known yet
   * though the service answers;
   * waits a bounded time for them. True when a probe ran (what it learned is worth reading again).
   */
  async function freshen(
    services: UpstreamService[],
    settings: Record<string, string>,
    unknownFacts: Set<UpstreamService>,
  ): Promise<boolean> {
    const now = clock.now().getTime();
    const waits: Promise<void>[] = [];
    for (const service of services) {
      const last = meter.health(service).last;
      // Facts not known yet are worth a probe only after a success: a failing one (a wrong token) waits its turn, like any other.
      if (last && now - last.at.getTime() < PROBE_FRESH_MS && (!unknownFacts.has(service) || !last.ok)) continue;
      let probe = probes.get(service);
      if (!probe) {
        // Failures are recorded by the meter; the probe itself never rejects.
        probe = probeCalls[service](settings)
          .then(
            () => undefined,
            () => undefined,
          )
          .finally(() => probes.delete(service));
        probes.set(service, probe);
      }
      waits.push(probe);
    }
    if (waits.length === 0) return false;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(waits), new Promise<void>((r) => (timer = setTimeout(r, STATUS_WAIT_MS)))]);
    clearTimeout(timer);
    return true;
  }

  /** What is known for this target (another target's facts do not count). */
  const mine = (known: Known, service: UpstreamService, target: string): UpstreamReach | undefined => {
    const r = known.get(service);
    return r?.target === target ? r : undefined;
  };

  function atlassianReach(known: Known, target: string): AtlassianReachDto {
    const jira = mine(known, "jira", target);
    const confluence = mine(known, "confluence", target);
    // ISO 8601 times in UTC sort as text: the older one, so the line never claims fresher figures than it has.
    const times = [jira?.checkedAt, confluence?.checkedAt].filter((t): t is string => t !== undefined).sort();
    return {
      account: jira?.account ?? null,
      jiraProjectCount: jira?.projectCount ?? null,
      confluenceSpaceCount: confluence?.spaceCount?.count ?? null,
      confluenceSpaceCountCapped: confluence?.spaceCount?.capped ?? false,
      checkedAt: times[0] ?? null,
    };
  }

  function bitbucketReach(
    known: Known,
    target: string,
  ): BitbucketReachDto & { workspaceName: string | null; repositoryCount: number | null } {
    const b = mine(known, "bitbucket", target);
    return {
      account: b?.account ?? null,
      checkedAt: b?.checkedAt ?? null,
      workspaceName: b?.workspace?.name ?? null,
      repositoryCount: b?.workspace?.repositoryCount ?? null,
    };
  }

  const iso = (d: Date | null) => d?.toISOString() ?? null;
  const view = (service: UpstreamService) => {
    const h = meter.health(service);
    return { connected: h.last?.ok ?? false, lastSync: iso(h.lastSuccessAt), error: h.last ? h.last.error : null };
  };

  return {
    async testAtlassian(): Promise<AtlassianTestResult> {
      const state = await targets.state("atlassian");
      if (!state) throw new AppError("bad_request", "Save the Atlassian configuration before testing it");
      const target = reachTarget("atlassian", state.settings);
      const { jira, confluence } = targets.testClients;
      const [j, c] = await Promise.allSettled([checkJira(jira, target), checkConfluence(confluence, target)]);
      return {
        jiraConnected: j.status === "fulfilled",
        confluenceConnected: c.status === "fulfilled",
        ...(j.status === "rejected" ? { jiraError: messageOf(j.reason) } : {}),
        ...(c.status === "rejected" ? { confluenceError: messageOf(c.reason) } : {}),
        ...atlassianReach(await reach.known(["jira", "confluence"]), target),
      };
    },

    async testBitbucket(): Promise<BitbucketTestResult> {
      const state = await targets.state("bitbucket");
      if (!state) throw new AppError("bad_request", "Save the Bitbucket configuration before testing it");
      const workspace = state.settings.workspace ?? "";
      const target = reachTarget("bitbucket", state.settings);
      let error: string | undefined;
      try {
        await checkBitbucket(targets.testClients.bitbucket, workspace, target);
      } catch (err) {
        error = isUpstreamError(err) && err.kind === "not_found" ? workspaceMissing(workspace) : messageOf(err);
      }
      return {
        connected: error === undefined,
        ...(error === undefined ? {} : { error }),
        ...bitbucketReach(await reach.known(["bitbucket"]), target),
      };
    },

    async atlassianStatus(): Promise<AtlassianStatusDto> {
      const state = await targets.state("atlassian");
      const apiRateLimit = meter.usage("atlassian");
      const stored = { jira: view("jira"), confluence: view("confluence") };
      if (!state) {
        const why = "The Atlassian integration is not configured";
        return {
          configured: false,
          isActive: false,
          jiraConnected: false,
          jiraLastSync: stored.jira.lastSync,
          jiraError: why,
          confluenceConnected: false,
          confluenceLastSync: stored.confluence.lastSync,
          confluenceError: why,
          apiRateLimit,
          ...NO_ATLASSIAN_REACH,
        };
      }
      const target = reachTarget("atlassian", state.settings);
      let known = await reach.known(["jira", "confluence"]);
      if (!state.isActive) {
        // Not checked while inactive; what a test learned (it works while inactive) is still shown.
        const why = "The Atlassian integration is inactive";
        return {
          configured: true,
          isActive: false,
          jiraConnected: false,
          jiraLastSync: stored.jira.lastSync,
          jiraError: why,
          confluenceConnected: false,
          confluenceLastSync: stored.confluence.lastSync,
          confluenceError: why,
          apiRateLimit,
          ...atlassianReach(known, target),
        };
      }
      const unknownFacts = new Set<UpstreamService>();
      if (!mine(known, "jira", target)?.account) unknownFacts.add("jira");
      if (!mine(known, "confluence", target)?.spaceCount) unknownFacts.add("confluence");
      if (await freshen(["jira", "confluence"], state.settings, unknownFacts)) known = await reach.known(["jira", "confluence"]);
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
        ...atlassianReach(known, target),
      };
    },

    async bitbucketStatus(): Promise<BitbucketStatusDto> {
      const state = await targets.state("bitbucket");
      if (!state) {
        return {
          configured: false,
          isActive: false,
          connected: false,
          lastSync: view("bitbucket").lastSync,
          error: "The Bitbucket integration is not configured",
          apiRateLimit: meter.usage("bitbucket"),
          ...NO_BITBUCKET_REACH,
        };
      }
      const target = reachTarget("bitbucket", state.settings);
      let known = await reach.known(["bitbucket"]);
      if (!state.isActive) {
        return {
          configured: true,
          isActive: false,
          connected: false,
          lastSync: view("bitbucket").lastSync,
          error: "The Bitbucket integration is inactive",
          apiRateLimit: meter.usage("bitbucket"),
          ...bitbucketReach(known, target),
        };
      }
      const facts = mine(known, "bitbucket", target);
      const unknownFacts = new Set<UpstreamService>(facts?.account && facts.workspace ? [] : ["bitbucket"]);
      if (await freshen(["bitbucket"], state.settings, unknownFacts)) known = await reach.known(["bitbucket"]);
      const b = view("bitbucket");
      return {
        configured: true,
        isActive: true,
        connected: b.connected,
        lastSync: b.lastSync,
        error: b.error,
        apiRateLimit: meter.usage("bitbucket"),
        ...bitbucketReach(known, target),
      };
    },
  };
}

export type IntegrationStatusService = ReturnType<typeof createIntegrationStatusService>;
