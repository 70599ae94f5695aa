import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../../sandbox/server";
import { signedInAs } from "../../test/factories";
import { startTestApp, type TestApp } from "../../test/test-app";
import { configureDemo } from "./demo";
import { configureDemoAi, DEMO_PROVIDER_NAME } from "../ai-providers/demo";
import { startFakeAi, type FakeAi } from "../../test/fake-ai/fake-ai.server";

/** `npm run demo` (DEMO_SANDBOX_URL): both integrations point at the sandbox and work. */
describe("demo mode", () => {
  let sandbox: Sandbox;
  let t: TestApp;
  let fake: FakeAi;
  beforeAll(async () => {
    sandbox = await startSandbox();
    fake = await startFakeAi();
    t = await startTestApp({ config: { BITBUCKET_API_URL: `${sandbox.url}/2.0` } });
  });
  afterAll(async () => {
    await t.close();
    await sandbox.close();
    await fake.close();
  });

  it("configures Atlassian and Bitbucket to the sandbox; both connect and report live data", async () => {
    await configureDemo(t.container.services.integrations, sandbox.url);
    const admin = (await signedInAs(t, ["admin"])).client;
    expect((await admin.get("/api/admin/atlassian-config")).body).toMatchObject({ configured: true, instanceUrl: sandbox.url, isActive: true });
    expect((await admin.post("/api/admin/test-atlassian")).body).toEqual({ jiraConnected: true, confluenceConnected: true });
    expect((await admin.get("/api/bitbucket-status")).body).toMatchObject({ connected: true, workspaceName: "Bridgekeeper", repositoryCount: 30 });
    const audit = (await admin.get("/api/admin/audit?action=integration.update")).body.events;
    expect(audit.map((e: { actorUsername: string }) => e.actorUsername)).toEqual(["demo-mode", "demo-mode"]);
  });

  it("running it again (a restart) leaves one configuration, still working", async () => {
    await configureDemo(t.container.services.integrations, sandbox.url);
    expect((await t.container.services.integrationStatus.testBitbucket())).toEqual({ connected: true });
  });

  it("DEMO_AI_URL adds one offline provider, which the chat answers with (a tool call on the sandbox)", async () => {
    await configureDemoAi(t.container.services.aiProviders, fake.url);
    await configureDemoAi(t.container.services.aiProviders, fake.url);
    const user = (await signedInAs(t, ["viewer"])).client;
    const providers = (await user.get("/api/chat/providers")).body;
    expect(providers).toEqual([{ id: expect.any(String), name: DEMO_PROVIDER_NAME, provider: "openai-compatible", model: "demo-model" }]);
    const reply = await user.post("/api/chat/send", { message: "Which Jira issues were updated recently?", providerId: providers[0].id, mcpTools: ["jira"] });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.mcpCalls).toEqual([{ tool: "jira_search", results: 5, error: null }]);
  });
});
