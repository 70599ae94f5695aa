import type { IntegrationKind } from "./integrations.repo";
import type {
  Deployment,
  ProductDto,
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
import type { UpstreamHttp } from "../../upstream/http";
import type { Actor } from "../audit/audit.service";
import { deploymentMismatch, detectBitbucket, detectConfluence, detectJira } from "./detect";
import type { SyncRecorder } from "./sync-recorder";
import type { UpstreamTargets } from "./upstream-targets";

/** Outcomes older than this are checked again when a status is asked for. */
const PROBE_FRESH_MS = 5 * 60_000;
/** A status answer never waits longer than this for a probe (docs/decisions.md#upstream-timeouts-and-retries: a dead upstream never blocks the console). */
const STATUS_WAIT_MS = 3_000;
/** Confluence's v2 listing has no total: spaces are counted page by page up to this many ("1,000+"). */
const SPACE_COUNT_CAP = 1_000;

const NO_CONFLUENCE = "Confluence is not configured for this Data Center integration: enter Confluence's base URL";

const workspaceMissing = (workspace: string, deployment: Deployment = "cloud") =>
  `Bitbucket has no ${deployment === "datacenter" ? "project" : "workspace"} "${workspace}" that this user can see`;

/** The service answered and refused the credentials: a check says so in its own words. */
const isRefusal = (err: unknown): boolean => isUpstreamError(err) && (err.kind === "unauthorized" || err.kind === "forbidden");

const messageOf = (err: unknown): string => (isUpstreamError(err) || err instanceof Error ? err.message : "Unknown error");

type Clients = UpstreamTargets["clients"];
type Known = Map<UpstreamService, UpstreamReach>;

/**
 * Whose facts they are: the same site and account (an email's case aside), or the same workspace
 * and username. A saved configuration with another target shows nothing until a check learns it.
 */
function reachTarget(kind: IntegrationKind, settings: Record<string, string>): string {
  // Cloud's keep the form they had before Data Center (issue 28), so what was learned stays shown.
  const dc = settings.deployment === "datacenter";
  return kind === "atlassian"
    ? `${dc ? `dc ${settings.confluenceUrl ?? ""} ` : ""}${settings.instanceUrl ?? ""} ${(settings.email ?? "").toLowerCase()}`
    : `${dc ? `dc ${settings.baseUrl ?? ""} ` : ""}${settings.workspace ?? ""} ${settings.username ?? ""}`;
}

const NO_ATLASSIAN_REACH: AtlassianReachDto = {
  account: null,
  jiraProjectCount: null,
  confluenceSpaceCount: null,
  confluenceSpaceCountCapped: false,
  jiraProduct: null,
  confluenceProduct: null,
  checkedAt: null,
};
const NO_BITBUCKET_REACH = { account: null, product: null, checkedAt: null, workspaceName: null, repositoryCount: null };

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
  /** The one HTTP layer: detection asks the configured addresses which product answers. */
  http: UpstreamHttp;
  /** A test detected another deployment than the guess while the choice is "auto": store it (integration-config.service.ts). */
  learnDeployment(kind: IntegrationKind, detected: Deployment, actor: Actor): Promise<boolean>;
}) {
  const { targets, meter, clock, reach } = deps;
  const probes = new Map<UpstreamService, Promise<void>>();

  /** Jira: /myself is the connection check (it rejects as that call did); then the projects it sees. */
  async function checkJira(jira: Clients["jira"], target: string, timeoutMs?: number, product?: ProductDto): Promise<void> {
    const detected = product ?? (await detectJira(deps.http, await targets.target("jira", { requireActive: false }), timeoutMs));
    await reach.learn("jira", target, { product: detected }, clock.now());
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
    const on = await targets.target("confluence", { requireActive: false });
    const product = await detectConfluence(deps.http, on, on.deployment ?? "cloud", timeoutMs);
    const spaceCount = await confluence.spaceCount(SPACE_COUNT_CAP, timeoutMs);
    await reach.learn("confluence", target, { spaceCount, product }, clock.now());
  }

  /**
   * Bitbucket: /user is the connection check, then the workspace and its repositories. Rejects as
   * the first failed call did; a workspace that is not there is learned as such, and is a failure.
   */
  async function checkBitbucket(
    bitbucket: Clients["bitbucket"],
    workspace: string,
    target: string,
    timeoutMs?: number,
    product?: ProductDto,
  ): Promise<void> {
    const detected = product ?? (await detectBitbucket(deps.http, await targets.target("bitbucket", { requireActive: false }), timeoutMs));
    await reach.learn("bitbucket", target, { product: detected }, clock.now());
    const user = await bitbucket.user(timeoutMs);
    const account: IntegrationAccountDto = {
      displayName: user.display_name,
      id: user.account_id ?? user.uuid,
      email: null,
      nickname: user.nickname ?? user.username ?? null,
    };
    if (!workspace) {
      // Data Center without a default project: the account is what there is to learn.
      await reach.learn("bitbucket", target, { account }, clock.now());
      return;
    }
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
    if (missing) meter.recordOutcome("bitbucket", false, workspaceMissing(workspace, (await targets.state("bitbucket"))?.site.deployment));
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
      jiraProduct: jira?.product ?? null,
      confluenceProduct: confluence?.product ?? null,
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
      product: b?.product ?? null,
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
    async testAtlassian(actor: Actor): Promise<AtlassianTestResult> {
      let state = await targets.state("atlassian");
      if (!state) throw new AppError("bad_request", "Save the Atlassian configuration before testing it");
      // Which product answers first: a detected deployment replaces a guess ("auto"), or says the choice is wrong.
      let product: ProductDto | undefined;
      let problem: string | undefined;
      try {
        product = await detectJira(deps.http, await targets.target("jira", { requireActive: false }));
        if (product.deployment !== state.site.deployment) {
          if (await deps.learnDeployment("atlassian", product.deployment, actor)) state = (await targets.state("atlassian"))!;
          else problem = deploymentMismatch(product, state.site.deployment);
        }
      } catch (err) {
        // Refused credentials are the checks' to report, per service; anything else (unreachable, not Jira) stops here.
        if (!isRefusal(err)) problem = messageOf(err);
      }
      const target = reachTarget("atlassian", state.settings);
      if (product) await reach.learn("jira", target, { product }, clock.now());
      const { jira, confluence } = targets.testClients;
      const hasConfluence = state.site.urls.confluence !== undefined;
      const [j, c] = problem
        ? [
            { status: "rejected", reason: problem } as const,
            { status: "rejected", reason: hasConfluence ? problem : NO_CONFLUENCE } as const,
          ]
        : await Promise.allSettled([
            checkJira(jira, target, undefined, product),
            hasConfluence ? checkConfluence(confluence, target) : Promise.reject(new Error(NO_CONFLUENCE)),
          ]);
      const why = (r: PromiseRejectedResult | { reason: string }) => (typeof r.reason === "string" ? r.reason : messageOf(r.reason));
      return {
        deployment: state.site.deployment,
        jiraConnected: j.status === "fulfilled",
        confluenceConnected: c.status === "fulfilled",
        ...(j.status === "rejected" ? { jiraError: why(j) } : {}),
        ...(c.status === "rejected" ? { confluenceError: why(c) } : {}),
        ...atlassianReach(await reach.known(["jira", "confluence"]), target),
      };
    },

    async testBitbucket(actor: Actor): Promise<BitbucketTestResult> {
      let state = await targets.state("bitbucket");
      if (!state) throw new AppError("bad_request", "Save the Bitbucket configuration before testing it");
      let error: string | undefined;
      let product: ProductDto | undefined;
      try {
        product = await detectBitbucket(deps.http, await targets.target("bitbucket", { requireActive: false }));
        if (product.deployment !== state.site.deployment) {
          if (await deps.learnDeployment("bitbucket", product.deployment, actor)) state = (await targets.state("bitbucket"))!;
          else error = deploymentMismatch(product, state.site.deployment);
        }
      } catch (err) {
        if (!isRefusal(err)) error = messageOf(err);
      }
      const workspace = state.settings.workspace ?? "";
      const target = reachTarget("bitbucket", state.settings);
      if (error === undefined) {
        try {
          await checkBitbucket(targets.testClients.bitbucket, workspace, target, undefined, product);
        } catch (err) {
          error = isUpstreamError(err) && err.kind === "not_found" ? workspaceMissing(workspace, state.site.deployment) : messageOf(err);
        }
      }
      return {
        deployment: state.site.deployment,
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
      // Data Center without Confluence: nothing to probe, and the card says why.
      const hasConfluence = state.site.urls.confluence !== undefined;
      const services: UpstreamService[] = hasConfluence ? ["jira", "confluence"] : ["jira"];
      if (await freshen(services, state.settings, unknownFacts)) known = await reach.known(["jira", "confluence"]);
      const jira = view("jira");
      const confluence = hasConfluence
        ? view("confluence")
        : { connected: false, lastSync: stored.confluence.lastSync, error: NO_CONFLUENCE };
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
