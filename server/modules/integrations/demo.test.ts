import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../../sandbox/server";
import { signedInAs } from "../../test/factories";
import { startTestApp, type TestApp } from "../../test/test-app";
import { configureDemo } from "./demo";
import { configureDemoAi, DEMO_PROVIDER_NAME } from "../ai-providers/demo";
import { startFakeAi, type FakeAi } from "../../../sandbox/fake-ai/fake-ai.server";

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
    expect((await admin.get("/api/admin/atlassian-config")).body).toMatchObject({
      configured: true,
      instanceUrl: sandbox.url,
      isActive: true,
    });
    expect((await admin.post("/api/admin/test-atlassian")).body).toMatchObject({
      jiraConnected: true,
      confluenceConnected: true,
      account: { displayName: "Demo Admin" },
    });
    expect((await admin.get("/api/bitbucket-status")).body).toMatchObject({
      connected: true,
      workspaceName: "Bridgekeeper",
      repositoryCount: 30,
    });
    const audit = (await admin.get("/api/admin/audit?action=integration.update")).body.events;
    expect(audit.map((e: { actorUsername: string }) => e.actorUsername)).toEqual(["demo-mode", "demo-mode"]);
  });

  it("running it again (a restart) leaves one configuration, still working", async () => {
    await configureDemo(t.container.services.integrations, sandbox.url);
    expect(await t.container.services.integrationStatus.testBitbucket({ userId: null, username: "test", ip: null })).toMatchObject({
      connected: true,
      account: { nickname: "demo" },
    });
  });

  it("DEMO_AI_URL adds one offline provider, which the chat answers with (a tool call on the sandbox)", async () => {
    await configureDemoAi(t.container.services.aiProviders, fake.url);
    await configureDemoAi(t.container.services.aiProviders, fake.url);
    const user = (await signedInAs(t, ["viewer"])).client;
    const providers = (await user.get("/api/chat/providers")).body;
    expect(providers).toEqual([{ id: expect.any(String), name: DEMO_PROVIDER_NAME, provider: "openai-compatible", model: "demo-model" }]);
    const reply = await user.post("/api/chat/send", {
      message: "Which Jira issues were updated recently?",
      providerId: providers[0].id,
      mcpTools: ["jira"],
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.mcpCalls).toEqual([{ tool: "jira_search", results: 5, error: null }]);
  });

  it("the chat's three suggested questions get right answers from the demo's model: open bugs only, pages, pull requests (not repositories); no text meant for the model", async () => {
    await configureDemoAi(t.container.services.aiProviders, fake.url);
    const user = (await signedInAs(t, ["viewer"])).client;
    const providerId = (await user.get("/api/chat/providers")).body[0].id as string;
    const ask = async (message: string) => {
      const reply = await user.post("/api/chat/send", { message, providerId, mcpTools: ["jira", "confluence", "bitbucket"] });
      expect(reply.status, reply.text).toBe(200);
      return reply.body as { content: string; mcpCalls: { tool: string; results: number | null; error: string | null }[] };
    };

    const bugs = await ask("Which Jira bugs are open?");
    expect(bugs.mcpCalls.map((c) => c.tool)).toEqual(["jira_search"]);
    const keys = [...bugs.content.matchAll(/\b(BK-\d+)\b/g)].map((m) => m[1]!);
    expect(keys.length).toBeGreaterThan(0);
    const auth = { authorization: `Basic ${Buffer.from("demo@bridgekeeper.test:sandbox-api-token").toString("base64")}` };
    for (const key of new Set(keys)) {
      const issue = (await (await fetch(`${sandbox.url}/rest/api/3/issue/${key}?fields=issuetype,status`, { headers: auth })).json()) as {
        fields: { issuetype: { name: string }; status: { statusCategory: { key: string } } };
      };
      expect(issue.fields.issuetype.name, key).toBe("Bug");
      expect(issue.fields.status.statusCategory.key, key).not.toBe("done");
    }

    const pages = await ask("Find the Confluence pages about deployment");
    expect(pages.mcpCalls.map((c) => c.tool)).toEqual(["confluence_search"]);

    const prs = await ask("List open pull requests");
    expect(prs.mcpCalls[0]!.tool).toBe("bitbucket_list_repositories");
    expect(prs.mcpCalls.slice(1).map((c) => c.tool)).toEqual(expect.arrayContaining(["bitbucket_list_pull_requests"]));
    expect(prs.mcpCalls.slice(1).every((c) => c.tool === "bitbucket_list_pull_requests" && c.error === null)).toBe(true);
    expect(prs.content).toMatch(/open pull requests? in /);

    for (const answer of [bugs, pages, prs]) expect(answer.content).not.toMatch(/more: call again|nextCursor|cursor below/);
  });
});
