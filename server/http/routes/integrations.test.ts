import { createEventBus } from "../../lib/event-bus";
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../../sandbox/server";
import { createSecretBox } from "../../lib/secret-box";
import { createIntegrationStatusService } from "../../modules/integrations/integration-status.service";
import { createSyncRecorder } from "../../modules/integrations/sync-recorder";
import { createUpstreamTargets } from "../../modules/integrations/upstream-targets";
import { createUpstreamMeter } from "../../upstream/meter";
import { signedInAs } from "../../test/factories";
import { createFakeClock } from "../../test/fake-clock";
import type { TestClient } from "../../test/http-client";
import { startTestApp, type TestApp } from "../../test/test-app";

/**
 * The Configuration API (spec section 7; docs/decisions.md#secrets-at-rest, #write-only-secrets,
 * #measured-numbers) on a real database, with the sandbox as Jira, Confluence and Bitbucket over
 * HTTP.
 */
describe("integrations: configuration, tests and status", () => {
  let sandbox: Sandbox;
  let t: TestApp;
  let admin: TestClient;
  let viewer: TestClient;
  const TOKEN = "sandbox-api-token";
  const PASSWORD = "sandbox-app-password";
  const atlassian = (overrides: Record<string, unknown> = {}) => ({
    instanceUrl: sandbox.url,
    email: "demo@bridgekeeper.test",
    apiToken: TOKEN,
    isActive: true,
    ...overrides,
  });
  const bitbucket = (overrides: Record<string, unknown> = {}) => ({
    workspace: "bridgekeeper",
    username: "demo",
    appPassword: PASSWORD,
    isActive: true,
    ...overrides,
  });
  // The app's clock moves only when a test moves it (started at the real time, which the database's
  // own now() keeps to): a time the server stamps is exactly the clock's.
  const clock = createFakeClock(new Date());
  /** Moves the app's clock on a second and answers the new time: a stamp equal to it was made after this call. */
  const tick = (): string => {
    clock.advance(1_000);
    return clock.now().toISOString();
  };

  beforeAll(async () => {
    sandbox = await startSandbox();
    t = await startTestApp({ clock, config: { BITBUCKET_API_URL: `${sandbox.url}/2.0`, UPSTREAM_TIMEOUT_MS: 2_000 } });
    admin = (await signedInAs(t, ["admin"])).client;
    viewer = (await signedInAs(t, ["viewer"])).client;
  });
  afterAll(async () => {
    await t.close();
    await sandbox.close();
  });
  beforeEach(() => sandbox.reset());

  describe("before anything is configured", () => {
    it("answers empty configs, says so in the status, and refuses to test", async () => {
      expect((await admin.get("/api/admin/atlassian-config")).body).toEqual({
        configured: false,
        deploymentChoice: "auto",
        deployment: "cloud",
        instanceUrl: "",
        confluenceUrl: "",
        authMethod: "basic",
        confluenceTokenHint: null,
        email: "",
        isActive: true,
        apiTokenHint: null,
        updatedAt: null,
      });
      expect((await admin.get("/api/admin/bitbucket-config")).body).toMatchObject({ configured: false, apiUrl: `${sandbox.url}/2.0` });
      const status = (await admin.get("/api/atlassian-status")).body;
      expect(status).toMatchObject({
        configured: false,
        jiraConnected: false,
        confluenceConnected: false,
        jiraError: "The Atlassian integration is not configured",
      });
      // Nothing known about an account that is not configured (issue 25).
      expect(status).toMatchObject({ account: null, jiraProjectCount: null, confluenceSpaceCount: null, checkedAt: null });
      expect((await admin.get("/api/bitbucket-status")).body).toMatchObject({
        configured: false,
        account: null,
        workspaceName: null,
        repositoryCount: null,
        checkedAt: null,
      });
      const test = await admin.post("/api/admin/test-atlassian");
      expect(test.status).toBe(400);
      expect(test.body.error.message).toBe("Save the Atlassian configuration before testing it");
      expect(sandbox.requests()).toHaveLength(0);
    });

    it("a first save without the secret is refused with the spec's message", async () => {
      const res = await admin.post("/api/admin/atlassian-config", atlassian({ apiToken: "" }));
      expect(res.status).toBe(400);
      expect(res.body.error.fields).toEqual({ apiToken: "API token is required" });
      const bb = await admin.post("/api/admin/bitbucket-config", bitbucket({ appPassword: "  " }));
      expect(bb.body.error.fields).toEqual({ appPassword: "App password is required" });
    });
  });

  describe("bad input", () => {
    it.each([
      ["a text that is no URL", { instanceUrl: "not a url" }, { instanceUrl: "Must be a valid URL" }],
      ["an ftp URL", { instanceUrl: "ftp://files.example.com" }, { instanceUrl: "Must be a valid URL" }],
      ["a number as URL", { instanceUrl: 42 }, { instanceUrl: "Must be a valid URL" }],
      ["an empty email", { email: "" }, { email: "Email or username is required" }],
      ["200 KB of email", { email: "x".repeat(200_000) }, { error: "too large" }],
      ["a 1,000-character email", { email: "x".repeat(1_000) }, { email: "Must be at most 255 characters" }],
      ["isActive as text", { isActive: "yes" }, { isActive: expect.any(String) }],
    ])("Atlassian with %s -> 4xx with the field's message", async (_label, change, fields) => {
      const res = await admin.post("/api/admin/atlassian-config", atlassian(change));
      if ("error" in fields) {
        expect(res.status).toBe(413);
        return;
      }
      expect(res.status).toBe(400);
      expect(res.body.error.fields).toEqual(fields);
    });

    it("Bitbucket's required fields, all at once", async () => {
      const res = await admin.post("/api/admin/bitbucket-config", {});
      expect(res.status).toBe(400);
      expect(res.body.error.fields).toEqual({ workspace: "Workspace is required", username: "Username is required" });
    });

    it("a viewer reads but cannot save or test", async () => {
      expect((await viewer.get("/api/admin/atlassian-config")).status).toBe(200);
      expect((await viewer.post("/api/admin/atlassian-config", atlassian())).status).toBe(403);
      expect((await viewer.post("/api/admin/test-bitbucket")).status).toBe(403);
    });
  });

  describe("Atlassian", () => {
    it("stores the token sealed, shows only a hint, and tests Jira and Confluence for real", async () => {
      const saved = await admin.post("/api/admin/atlassian-config", atlassian({ instanceUrl: `${sandbox.url}/wiki/` }));
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({
        configured: true,
        instanceUrl: sandbox.url,
        email: "demo@bridgekeeper.test",
        apiTokenHint: TOKEN.slice(-4),
      });
      expect(saved.text).not.toContain(TOKEN);
      expect((await admin.get("/api/admin/atlassian-config")).text).not.toContain(TOKEN);

      const raw = await t.container.database.db.execute(sql`select * from integration_configs where kind = 'atlassian'`);
      const row = JSON.stringify((raw as unknown as { rows: unknown[] }).rows ?? raw);
      expect(row).toContain("v1.");
      expect(row).not.toContain(TOKEN);

      const test = await admin.post("/api/admin/test-atlassian");
      expect(test.body).toMatchObject({ jiraConnected: true, confluenceConnected: true });
      expect(test.body).not.toHaveProperty("jiraError");
      expect(sandbox.requests().map((r) => r.path)).toEqual(expect.arrayContaining(["/rest/api/3/myself", "/wiki/api/v2/spaces"]));
    });

    it("a blank token is not carried to a changed instance URL or email (the token never goes where the editor points it)", async () => {
      await admin.post("/api/admin/atlassian-config", atlassian());
      const moved = await admin.post("/api/admin/atlassian-config", atlassian({ instanceUrl: "http://127.0.0.1:9", apiToken: "" }));
      expect(moved.status).toBe(400);
      expect(moved.body.error.fields).toEqual({
        apiToken: "Enter the API token again: the stored one is not sent to a changed instanceUrl",
      });
      const renamed = await admin.post("/api/admin/atlassian-config", atlassian({ email: "someone-else@example.com", apiToken: "" }));
      expect(renamed.body.error.fields.apiToken).toMatch(/not sent to a changed email/);
      expect((await admin.get("/api/admin/atlassian-config")).body.instanceUrl).toBe(sandbox.url);
      const bb = await admin.post("/api/admin/bitbucket-config", bitbucket());
      expect(bb.status).toBe(200);
      expect((await admin.post("/api/admin/bitbucket-config", bitbucket({ username: "other", appPassword: "" }))).status).toBe(400);
    });

    it.each(["https://acme.atlassian.net/?x=1", "https://acme.atlassian.net/#frag", "https://user:pw@acme.atlassian.net"])(
      "an instance URL with a query, fragment or credentials is refused: %s",
      async (instanceUrl) => {
        const res = await admin.post("/api/admin/atlassian-config", atlassian({ instanceUrl }));
        expect(res.status).toBe(400);
        expect(res.body.error.fields).toEqual({ instanceUrl: "Must be a valid URL" });
      },
    );

    it("a token sealed under another key (SECRET_KEY changed) is a clear error, not a 500", async () => {
      await admin.post("/api/admin/atlassian-config", atlassian());
      const { repos, upstream, config } = t.container;
      // The same database, read by a server whose key differs.
      const other = createUpstreamTargets({
        repo: repos.integrationsRepo,
        secretBox: createSecretBox(randomBytes(32)),
        http: upstream.http,
        events: createEventBus(),
        bitbucketApiUrl: config.BITBUCKET_API_URL,
      });
      await expect(other.clients.jira.myself()).rejects.toThrow(
        "The stored Atlassian secret cannot be decrypted (was SECRET_KEY changed?): enter it again",
      );
      expect((await other.state("atlassian"))?.isActive).toBe(true);
      expect((await admin.get("/api/admin/atlassian-config")).body.apiTokenHint).toBe(TOKEN.slice(-4));
    });

    it("a blank token keeps the stored one; a wrong one is reported per service", async () => {
      await admin.post("/api/admin/atlassian-config", atlassian());
      const kept = await admin.post("/api/admin/atlassian-config", atlassian({ apiToken: "", email: "DEMO@bridgekeeper.test" }));
      expect(kept.body.apiTokenHint).toBe(TOKEN.slice(-4));
      expect((await admin.post("/api/admin/test-atlassian")).body).toMatchObject({ jiraConnected: true, confluenceConnected: true });

      await admin.post("/api/admin/atlassian-config", atlassian({ apiToken: "wrong-token-9999" }));
      const test = (await admin.post("/api/admin/test-atlassian")).body;
      expect(test).toMatchObject({ jiraConnected: false, confluenceConnected: false });
      expect(test.jiraError).toMatch(/Jira refused the credentials \(401\)/);
      expect(test.confluenceError).toMatch(/Confluence refused the credentials \(401\)/);
      await admin.post("/api/admin/atlassian-config", atlassian());
    });

    it("a refused token is probed once per freshness window, not on every status read, though nothing is known of its account", async () => {
      await admin.post(
        "/api/admin/atlassian-config",
        atlassian({ email: "nobody-known@bridgekeeper.test", apiToken: "refused-token-7777" }),
      );
      sandbox.clearRequests();
      expect((await admin.get("/api/atlassian-status")).body).toMatchObject({ jiraConnected: false, account: null });
      const probed = sandbox.requests().length;
      expect(probed).toBeGreaterThan(0);
      expect((await admin.get("/api/atlassian-status")).body).toMatchObject({ jiraConnected: false });
      expect((await admin.get("/api/atlassian-status")).body).toMatchObject({ jiraConnected: false });
      expect(sandbox.requests()).toHaveLength(probed);
      await admin.post("/api/admin/atlassian-config", atlassian());
    });

    it("status: connected, last sync and used/total per hour are measured", async () => {
      const now = tick();
      await admin.post("/api/admin/atlassian-config", atlassian());
      const status = (await admin.get("/api/atlassian-status")).body;
      expect(status).toMatchObject({ configured: true, isActive: true, jiraConnected: true, confluenceConnected: true, jiraError: null });
      expect(status.jiraLastSync).toBe(now);
      expect(status.apiRateLimit.total).toBe(100_000); // the sandbox's X-RateLimit-Limit
      expect(status.apiRateLimit.used).toBeGreaterThan(0);
      expect((await viewer.get("/api/admin/atlassian-status")).body).toMatchObject({ jiraConnected: true });
    });

    it("an inactive integration is reported as such, and its tools' calls fail without reaching upstream", async () => {
      await admin.post("/api/admin/atlassian-config", atlassian({ isActive: false }));
      sandbox.clearRequests();
      const status = (await admin.get("/api/atlassian-status")).body;
      expect(status).toMatchObject({
        configured: true,
        isActive: false,
        jiraConnected: false,
        jiraError: "The Atlassian integration is inactive",
      });
      await expect(t.container.upstream.targets.clients.jira.myself()).rejects.toThrow("The Atlassian integration is inactive");
      expect(sandbox.requests()).toHaveLength(0);
      // a connection test still works while inactive
      expect((await admin.post("/api/admin/test-atlassian")).body.jiraConnected).toBe(true);
      await admin.post("/api/admin/atlassian-config", atlassian());
    });

    it("an upstream that hangs: the status and the test end within their timeouts with a clear message", async () => {
      await admin.post("/api/admin/atlassian-config", atlassian()); // a save forgets what was known
      sandbox.faults.add({ path: "/rest/api/3/myself", hang: true });
      sandbox.clearRequests();
      // The sandbox never answers Jira: each answer below comes only because the call's own deadline
      // gave up on it (the message says which), while Confluence still answered.
      const status = (await admin.get("/api/atlassian-status")).body;
      expect(status).toMatchObject({ jiraConnected: false, confluenceConnected: true, jiraError: "Jira did not answer within 2 s" });
      const test = (await admin.post("/api/admin/test-atlassian")).body;
      expect(test).toMatchObject({ jiraConnected: false, confluenceConnected: true, jiraError: "Jira did not answer within 2 s" });
      expect(sandbox.requests().filter((r) => r.path === "/rest/api/3/myself").length).toBeGreaterThanOrEqual(2);
    });

    it("an upstream 429 storm: the test reports the rate limit instead of hanging", async () => {
      await admin.post("/api/admin/atlassian-config", atlassian());
      sandbox.faults.add({ path: "/wiki/", status: 429, retryAfter: 600 });
      const test = (await admin.post("/api/admin/test-atlassian")).body;
      expect(test).toMatchObject({ jiraConnected: true, confluenceConnected: false });
      expect(test.confluenceError).toBe("Confluence is rate limiting requests (429); retry after 600 s");
    });

    it("an unreachable host is reported, not a 500", async () => {
      await admin.post("/api/admin/atlassian-config", atlassian({ instanceUrl: "http://127.0.0.1:9" }));
      const test = await admin.post("/api/admin/test-atlassian");
      expect(test.status).toBe(200);
      expect(test.body.jiraError).toContain("Jira could not be reached at http://127.0.0.1:9");
      await admin.post("/api/admin/atlassian-config", atlassian());
    });
  });

  describe("Bitbucket", () => {
    it("saves, tests, and reports the workspace's name and repository count", async () => {
      const saved = await admin.post("/api/admin/bitbucket-config", bitbucket());
      expect(saved.body).toMatchObject({
        configured: true,
        workspace: "bridgekeeper",
        username: "demo",
        appPasswordHint: PASSWORD.slice(-4),
      });
      expect(saved.text).not.toContain(PASSWORD);
      const test = (await admin.post("/api/admin/test-bitbucket")).body;
      expect(test).toMatchObject({ connected: true, workspaceName: "Bridgekeeper", repositoryCount: 30 });
      expect(test).not.toHaveProperty("error");
      const status = (await admin.get("/api/bitbucket-status")).body;
      expect(status).toMatchObject({ configured: true, connected: true, workspaceName: "Bridgekeeper", repositoryCount: 30, error: null });
      expect(status.apiRateLimit.used).toBeGreaterThan(0);
    });

    it("a workspace that does not exist is not 'connected'", async () => {
      await admin.post("/api/admin/bitbucket-config", bitbucket({ workspace: "nowhere", appPassword: "" }));
      const test = (await admin.post("/api/admin/test-bitbucket")).body;
      expect(test).toMatchObject({
        connected: false,
        error: 'Bitbucket has no workspace "nowhere" that this user can see',
        workspaceName: null,
        repositoryCount: null,
      });
      // The account answered: it is known, the workspace is not.
      expect(test.account).toMatchObject({ nickname: "demo" });
      const status = (await admin.get("/api/bitbucket-status")).body;
      expect(status).toMatchObject({ connected: false, workspaceName: null, repositoryCount: null, account: { nickname: "demo" } });
      await admin.post("/api/admin/bitbucket-config", bitbucket());
    });

    it("a 50 MB answer is cut off at the size limit and reported", async () => {
      await admin.post("/api/admin/bitbucket-config", bitbucket());
      sandbox.faults.add({ path: "/2.0/user", oversizeBytes: 50 * 1024 * 1024 });
      // The message names the 10 MB cap: the body was read up to it, not to its end.
      const res = (await admin.post("/api/admin/test-bitbucket")).body;
      expect(res).toMatchObject({ connected: false, error: "Bitbucket sent a response larger than 10 MB" });
    });

    it("a wrong app password is reported", async () => {
      await admin.post("/api/admin/bitbucket-config", bitbucket({ appPassword: "nope" }));
      const res = (await admin.post("/api/admin/test-bitbucket")).body;
      expect(res.connected).toBe(false);
      expect(res.error).toMatch(/Bitbucket refused the credentials \(401\)/);
      await admin.post("/api/admin/bitbucket-config", bitbucket());
    });
  });

  describe("who each integration connects as and what it sees (issue 25)", () => {
    /** Forgets what earlier checks learned, so what a test finds is its own. */
    const forgetReach = () => t.container.database.db.execute(sql`update upstream_sync set reach = null`);
    /** What the sandbox holds: the account the credentials are, the projects, spaces and repositories. */
    const atlassianReach = () => {
      const me = sandbox.credentials.atlassian;
      return {
        account: { displayName: me.displayName, id: me.accountId, email: me.email, nickname: null },
        jiraProjectCount: sandbox.state("jira").projects.length,
        confluenceSpaceCount: sandbox.state("confluence").spaces.length,
        confluenceSpaceCountCapped: false,
      };
    };
    const bitbucketReach = () => {
      const bb = sandbox.state("bitbucket");
      return {
        account: { displayName: bb.me.displayName, id: bb.me.accountId, email: null, nickname: bb.me.nickname },
        workspaceName: bb.workspace.name,
        repositoryCount: bb.repos.length,
      };
    };

    it("a test learns them and keeps them: a fresh status read shows them without asking the services again, for a viewer too", async () => {
      await admin.post("/api/admin/atlassian-config", atlassian());
      await admin.post("/api/admin/bitbucket-config", bitbucket());
      await forgetReach();
      const testedAt = tick();
      const test = (await admin.post("/api/admin/test-atlassian")).body;
      expect(test).toMatchObject({ jiraConnected: true, confluenceConnected: true, ...atlassianReach(), checkedAt: testedAt });
      const bbTestedAt = tick();
      const bbTest = (await admin.post("/api/admin/test-bitbucket")).body;
      expect(bbTest).toMatchObject({ connected: true, ...bitbucketReach(), checkedAt: bbTestedAt });

      sandbox.clearRequests();
      expect((await admin.get("/api/atlassian-status")).body).toMatchObject({
        jiraConnected: true,
        ...atlassianReach(),
        checkedAt: test.checkedAt,
      });
      expect((await viewer.get("/api/admin/atlassian-status")).body).toMatchObject({ ...atlassianReach(), checkedAt: test.checkedAt });
      expect((await viewer.get("/api/bitbucket-status")).body).toMatchObject({
        connected: true,
        ...bitbucketReach(),
        checkedAt: bbTest.checkedAt,
      });
      // The outcomes are fresh and the facts known: nothing was asked again.
      expect(sandbox.requests()).toEqual([]);
    });

    it("the status learns them in its normal course when nothing is known yet", async () => {
      await admin.post("/api/admin/atlassian-config", atlassian());
      await admin.post("/api/admin/bitbucket-config", bitbucket());
      await forgetReach();
      sandbox.clearRequests();
      const readAt = tick();
      const status = (await admin.get("/api/atlassian-status")).body;
      expect(status).toMatchObject({ jiraConnected: true, confluenceConnected: true, ...atlassianReach(), checkedAt: readAt });
      expect(sandbox.requests().map((r) => r.path)).toEqual(
        expect.arrayContaining(["/rest/api/3/myself", "/rest/api/3/project/search", "/wiki/api/v2/spaces"]),
      );
      const bbReadAt = tick();
      const bb = (await admin.get("/api/bitbucket-status")).body;
      expect(bb).toMatchObject({ connected: true, ...bitbucketReach(), checkedAt: bbReadAt });
    });

    it("a failing service keeps the last known values beside its error: in a test, and in the status once its cache expired", async () => {
      await admin.post("/api/admin/atlassian-config", atlassian());
      await admin.post("/api/admin/bitbucket-config", bitbucket());
      const learned = (await admin.post("/api/admin/test-atlassian")).body;
      const bbLearned = (await admin.post("/api/admin/test-bitbucket")).body;
      expect(learned).toMatchObject(atlassianReach());

      // The token is revoked: the same account, so what was learned still stands.
      await admin.post("/api/admin/atlassian-config", atlassian({ apiToken: "revoked-token-0000" }));
      const refused = (await admin.post("/api/admin/test-atlassian")).body;
      expect(refused).toMatchObject({
        jiraConnected: false,
        confluenceConnected: false,
        ...atlassianReach(),
        checkedAt: learned.checkedAt,
      });
      expect(refused.jiraError).toMatch(/Jira refused the credentials \(401\)/);
      await admin.post("/api/admin/atlassian-config", atlassian());

      // The services fail; the outcomes are old (as five minutes later), so the status probes again, and fails.
      sandbox.faults.add({ path: "/", status: 500 });
      t.container.upstream.meter.forgetOutcomes(["jira", "confluence", "bitbucket"]);
      const status = (await admin.get("/api/atlassian-status")).body;
      expect(status).toMatchObject({ jiraConnected: false, confluenceConnected: false, ...atlassianReach(), checkedAt: learned.checkedAt });
      expect(status.jiraError).toBe("Jira failed with 500: Internal server error");
      const bb = (await admin.get("/api/bitbucket-status")).body;
      expect(bb).toMatchObject({ connected: false, ...bitbucketReach(), checkedAt: bbLearned.checkedAt });
      expect(bb.error).toBe("Bitbucket failed with 500: Internal server error");
      const bbTest = (await admin.post("/api/admin/test-bitbucket")).body;
      expect(bbTest).toMatchObject({ connected: false, ...bitbucketReach(), checkedAt: bbLearned.checkedAt });
    });

    it("a restarted server shows what was learned before (it is kept in the database), though the services fail", async () => {
      await admin.post("/api/admin/atlassian-config", atlassian());
      await admin.post("/api/admin/bitbucket-config", bitbucket());
      const learned = (await admin.post("/api/admin/test-atlassian")).body;
      const bbLearned = (await admin.post("/api/admin/test-bitbucket")).body;
      sandbox.faults.add({ path: "/", status: 500 });
      // A new process: its own meter (nothing measured yet) and recorder, on the same database.
      const { repos, log, upstream, clock } = t.container;
      const meter = createUpstreamMeter({ clock, events: createEventBus(), hourlyBudget: { atlassian: 1000, bitbucket: 1000 } });
      const recorder = createSyncRecorder({ repo: repos.integrationsRepo, meter, log });
      await recorder.restore();
      const restarted = createIntegrationStatusService({
        targets: upstream.targets,
        meter,
        clock,
        probeTimeoutMs: 2_000,
        reach: recorder,
        http: upstream.http,
        learnDeployment: t.container.services.integrations.learnDeployment,
      });
      expect(await restarted.atlassianStatus()).toMatchObject({ ...atlassianReach(), checkedAt: learned.checkedAt });
      expect(await restarted.bitbucketStatus()).toMatchObject({ ...bitbucketReach(), checkedAt: bbLearned.checkedAt });
    });

    it("another account's facts are not shown for a changed configuration", async () => {
      await admin.post("/api/admin/atlassian-config", atlassian());
      expect((await admin.post("/api/admin/test-atlassian")).body).toMatchObject(atlassianReach());
      await admin.post("/api/admin/atlassian-config", atlassian({ email: "someone-else@example.com", apiToken: "their-token" }));
      const other = (await admin.get("/api/atlassian-status")).body;
      expect(other).toMatchObject({
        jiraConnected: false,
        account: null,
        jiraProjectCount: null,
        confluenceSpaceCount: null,
        checkedAt: null,
      });
      await admin.post("/api/admin/atlassian-config", atlassian());
      expect((await admin.get("/api/atlassian-status")).body).toMatchObject(atlassianReach());
    });

    it("Confluence's spaces are counted page by page up to 1,000, then said to be more", async () => {
      await admin.post("/api/admin/atlassian-config", atlassian());
      const page = (n: number) => ({
        results: Array.from({ length: n }, (_, i) => ({ id: String(i), key: `S${i}`, name: `Space ${i}` })),
        _links: { next: "/wiki/api/v2/spaces?limit=250" },
      });
      // Three full pages, each linking to the next, then the sandbox's own spaces (its last page).
      sandbox.faults.add({ path: "/wiki/api/v2/spaces", body: page(250), times: 3 });
      const some = (await admin.post("/api/admin/test-atlassian")).body;
      expect(some).toMatchObject({
        confluenceConnected: true,
        confluenceSpaceCount: 750 + sandbox.state("confluence").spaces.length,
        confluenceSpaceCountCapped: false,
      });
      sandbox.clearRequests();
      sandbox.faults.add({ path: "/wiki/api/v2/spaces", body: page(250) });
      const many = (await admin.post("/api/admin/test-atlassian")).body;
      expect(many).toMatchObject({ confluenceConnected: true, confluenceSpaceCount: 1000, confluenceSpaceCountCapped: true });
      expect(sandbox.requests().filter((r) => r.path === "/wiki/api/v2/spaces")).toHaveLength(4);
    });
  });

  it("server settings: the values in force, secrets masked", async () => {
    const res = await viewer.get("/api/admin/config");
    expect(res.status).toBe(200);
    const entries = Object.fromEntries(res.body.map((e: { key: string; value: string }) => [e.key, e.value]));
    expect(entries).toMatchObject({
      port: "5000",
      nodeEnv: "test",
      bitbucketApiUrl: `${sandbox.url}/2.0`,
      "rateLimit.api.requestsPerMinute": "100",
      "rateLimit.api.burst": "10",
      "rateLimit.oauth.requests": "10",
      "rateLimit.oauth.windowMinutes": "15",
      "rateLimit.sse.streamsPerMinute": "5",
      "rateLimit.sse.maxConcurrent": "50",
    });
    expect(entries.secretKey).toMatch(/^•+ /);
  });

  it("changes are audited without secrets, and no secret reaches the log", async () => {
    await admin.post("/api/admin/atlassian-config", atlassian());
    await admin.post("/api/admin/bitbucket-config", bitbucket());
    const events = (await admin.get("/api/admin/audit?action=integration.update")).body.events;
    expect(events.length).toBeGreaterThan(0);
    expect(events[0]).toMatchObject({ action: "integration.update", targetType: "integration", details: { secretChanged: true } });
    expect(JSON.stringify(events)).not.toContain(TOKEN);
    expect(JSON.stringify(events)).not.toContain(PASSWORD);
    const log = t.logLines.join("\n");
    expect(log).not.toContain(TOKEN);
    expect(log).not.toContain(PASSWORD);
    expect(log).not.toContain(Buffer.from(`demo:${PASSWORD}`).toString("base64"));
  });
});
