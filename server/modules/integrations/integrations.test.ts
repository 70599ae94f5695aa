import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../../sandbox/server";
import { startTestApp, type TestApp } from "../../test/test-app";
import { createUpstreamMeter } from "../../upstream/meter";
import { createEventBus } from "../../lib/event-bus";
import { createSecretBox } from "../../lib/secret-box";
import { createFakeClock } from "../../test/fake-clock";
import { createIntegrationConfigService } from "./integration-config.service";
import { createSyncRecorder } from "./sync-recorder";
import { configureDemo } from "./demo";

const ACTOR = { userId: null, username: "integrations-test", ip: null };

/** The integrations' three parts: configuration, upstream targets and the sync recorder. */
describe("integrations: configuration, targets, sync", () => {
  let sandbox: Sandbox;
  let t: TestApp;
  beforeAll(async () => {
    sandbox = await startSandbox();
    t = await startTestApp({ config: { BITBUCKET_API_URL: `${sandbox.url}/2.0` } });
  });
  afterAll(async () => {
    await t.close();
    await sandbox.close();
  });

  it("a save and its audit row commit together: when the audit row cannot be written, nothing is saved", async () => {
    const { repos, transact, clock, upstream, config, services } = t.container;
    const failingAudit = { ...services.audit, record: async () => Promise.reject(new Error("audit store down")) };
    const events = createEventBus();
    const heard: string[] = [];
    events.on("integration.saved", ({ kind }) => heard.push(kind));
    const configService = createIntegrationConfigService({
      repos,
      transact,
      secretBox: createSecretBox(randomBytes(32)),
      audit: failingAudit,
      clock,
      hostPolicy: upstream.hostPolicy,
      bitbucketApiUrl: config.BITBUCKET_API_URL,
      events,
    });
    await expect(
      configService.saveBitbucket(
        { workspace: "bridgekeeper", username: "demo", appPassword: "sandbox-app-password", isActive: true },
        ACTOR,
      ),
    ).rejects.toThrow("audit store down");
    expect(await repos.integrationsRepo.find("bitbucket")).toBeUndefined();
    expect(heard).toEqual([]);
  });

  it("a save here reaches the targets at once; the secret is opened for each call", async () => {
    const { services, upstream } = t.container;
    expect(await upstream.targets.state("atlassian")).toBeNull();
    await expect(upstream.targets.clients.jira.myself()).rejects.toThrow("The Atlassian integration is not configured");
    await configureDemo(services.integrations, sandbox.url);
    expect(await upstream.targets.state("atlassian")).toMatchObject({ isActive: true, settings: { instanceUrl: sandbox.url } });
    const target = await upstream.targets.target("jira");
    expect(target).toEqual({
      baseUrl: sandbox.url,
      authorization: `Basic ${Buffer.from("demo@bridgekeeper.test:sandbox-api-token").toString("base64")}`,
      deployment: "cloud",
    });
    expect((await upstream.targets.clients.jira.myself()).emailAddress).toBe("demo@bridgekeeper.test");

    await services.integrations.saveAtlassian(
      { instanceUrl: sandbox.url, email: "demo@bridgekeeper.test", apiToken: "another-token", isActive: false },
      ACTOR,
    );
    await expect(upstream.targets.clients.jira.myself()).rejects.toThrow("The Atlassian integration is inactive");
    expect((await upstream.targets.target("jira", { requireActive: false })).authorization).toBe(
      `Basic ${Buffer.from("demo@bridgekeeper.test:another-token").toString("base64")}`,
    );
    await configureDemo(services.integrations, sandbox.url);
  });

  it("the sync recorder writes outcomes through (a success at most once a minute) and a restart reads them back", async () => {
    const { repos, log } = t.container;
    const clock = createFakeClock(new Date("2026-11-24T10:00:00Z"));
    const events = createEventBus();
    const meter = createUpstreamMeter({ clock, events, hourlyBudget: { atlassian: 1000, bitbucket: 1000 } });
    const recorder = createSyncRecorder({ repo: repos.integrationsRepo, meter, log });
    events.on("upstream.outcome", ({ service, outcome }) => recorder.record(service, outcome));
    const stored = async () => (await repos.integrationsRepo.listSync()).find((r) => r.service === "confluence");

    meter.recordOutcome("confluence", true);
    await expect.poll(async () => (await stored())?.lastSuccessAt?.toISOString()).toBe("2026-11-24T10:00:00.000Z");
    clock.advance(1000);
    meter.recordOutcome("confluence", true); // within the minute: not written
    clock.advance(1000);
    meter.recordOutcome("confluence", false, "Confluence is down (503)"); // a change of state: written at once
    await expect.poll(async () => (await stored())?.lastError).toBe("Confluence is down (503)");
    // The write carries the meter's whole state, the unwritten success included.
    expect((await stored())?.lastSuccessAt?.toISOString()).toBe("2026-11-24T10:00:01.000Z");

    const restarted = createUpstreamMeter({ clock, events: createEventBus(), hourlyBudget: { atlassian: 1000, bitbucket: 1000 } });
    await createSyncRecorder({ repo: repos.integrationsRepo, meter: restarted, log }).restore();
    expect(restarted.health("confluence")).toMatchObject({
      lastSuccessAt: new Date("2026-11-24T10:00:01Z"),
      lastFailureAt: new Date("2026-11-24T10:00:02Z"),
      lastError: "Confluence is down (503)",
    });
  });
});
