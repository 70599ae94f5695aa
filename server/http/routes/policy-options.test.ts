import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PolicyOptionsDto } from "../../../contract/policy-options";
import { startSandbox, type Sandbox } from "../../../sandbox/server";
import { TOOLS } from "../../mcp/tools/catalogue";
import { signedInAs } from "../../test/factories";
import type { TestClient } from "../../test/http-client";
import { startTestApp, type TestApp } from "../../test/test-app";

const OPTIONS = "/api/admin/policy-options";
const ATLASSIAN = (url: string) => ({ instanceUrl: url, email: "demo@bridgekeeper.test", apiToken: "sandbox-api-token", isActive: true });
const BITBUCKET = { workspace: "bridgekeeper", username: "demo", appPassword: "sandbox-app-password", isActive: true };

/** Every item of a listing, asked of the sandbox directly (Jira's and Bitbucket's paging followed). */
async function upstreamKeys(sandbox: Sandbox): Promise<{ projects: string[]; spaces: string[]; repositories: string[] }> {
  const get = async (path: string, auth: string) =>
    (
      await fetch(`${sandbox.url}${path}`, { headers: { authorization: `Basic ${Buffer.from(auth).toString("base64")}` } })
    ).json() as Promise<Record<string, unknown>>;
  const jira = await get("/rest/api/3/project/search?maxResults=100", "demo@bridgekeeper.test:sandbox-api-token");
  const wiki = await get("/wiki/api/v2/spaces?limit=250", "demo@bridgekeeper.test:sandbox-api-token");
  const repos = await get("/2.0/repositories/bridgekeeper?pagelen=100", "demo:sandbox-app-password");
  return {
    projects: (jira.values as { key: string }[]).map((p) => p.key),
    spaces: (wiki.results as { key: string }[]).map((s) => s.key),
    repositories: (repos.values as { full_name: string }[]).map((r) => r.full_name),
  };
}

/**
 * The policy editor's pickers (issue 25 item 5): GET /api/admin/policy-options against the
 * sandbox over HTTP (happy path, an integration down or not configured, who may ask), and the
 * policy PUT refusing a tool this server does not have.
 */
describe("policy options", () => {
  let sandbox: Sandbox;
  let t: TestApp;
  let admin: TestClient;

  beforeAll(async () => {
    sandbox = await startSandbox();
    t = await startTestApp({
      config: {
        BITBUCKET_API_URL: `${sandbox.url}/2.0`,
        upstream: { maxAttempts: 1 },
        // A minute's cache would keep the first answer through the fault below: 0 reads every time.
        policyOptions: { cacheMs: 0, waitMs: 2_000 },
      },
    });
    admin = (await signedInAs(t, ["admin"])).client;
  });
  afterAll(async () => {
    await t.close();
    await sandbox.close();
  });

  it("without configured integrations: 200, each listing unavailable with its reason, and every tool", async () => {
    const res = await admin.get(OPTIONS);
    expect(res.status).toBe(200);
    const body = res.body as PolicyOptionsDto;
    expect(body.jira).toEqual({ available: false, error: "The Atlassian integration is not configured", truncated: false, projects: [] });
    expect(body.confluence).toMatchObject({ available: false, error: "The Atlassian integration is not configured", spaces: [] });
    expect(body.bitbucket).toEqual({
      available: false,
      error: "The Bitbucket integration is not configured",
      truncated: false,
      workspace: null,
      repositories: [],
    });
    expect(body.services).toEqual([]);
    expect(body.tools).toHaveLength(TOOLS.length);
  });

  describe("configured against the sandbox", () => {
    beforeAll(async () => {
      expect((await admin.post("/api/admin/atlassian-config", ATLASSIAN(sandbox.url))).status).toBe(200);
      expect((await admin.post("/api/admin/bitbucket-config", BITBUCKET)).status).toBe(200);
    });

    it("lists the sandbox's projects, spaces and repositories, and every tool with what it is", async () => {
      const seeded = await upstreamKeys(sandbox);
      const res = await admin.get(OPTIONS);
      expect(res.status).toBe(200);
      const body = res.body as PolicyOptionsDto;
      expect(body.jira).toMatchObject({ available: true, error: null, truncated: false });
      expect(body.jira.projects.map((p) => p.key).sort()).toEqual([...seeded.projects].sort());
      expect(body.jira.projects).toContainEqual({ key: "BK", name: expect.any(String) });
      expect(body.confluence.spaces.map((s) => s.key).sort()).toEqual([...seeded.spaces].sort());
      expect(body.confluence.spaces.map((s) => s.key)).toEqual(expect.arrayContaining(["ENG", "OPS"]));
      expect(body.bitbucket).toMatchObject({ available: true, error: null, workspace: "bridgekeeper" });
      // 30 repositories: more than one of the client's 100-item pages would hide if paging were wrong.
      expect(body.bitbucket.repositories.map((r) => r.fullName).sort()).toEqual([...seeded.repositories].sort());
      expect(body.bitbucket.repositories).toContainEqual({
        slug: "api-gateway",
        fullName: "bridgekeeper/api-gateway",
        name: expect.any(String),
      });
      expect(body.services).toEqual(["jira", "confluence", "bitbucket"]);
      expect(body.destructiveTools).toBe(true);
      expect(body.tools.map((tool) => tool.name)).toEqual(TOOLS.map((tool) => tool.name));
      const remove = body.tools.find((tool) => tool.name === "jira_delete_issue");
      expect(remove).toEqual({
        name: "jira_delete_issue",
        title: expect.any(String),
        toolset: "jira-admin",
        service: "jira",
        scope: "write",
        destructive: true,
      });
      expect(body.tools.find((tool) => tool.name === "jira_search")).toMatchObject({
        scope: "read",
        destructive: false,
        toolset: "jira-issues",
      });
    });

    it("a failing integration answers with its reason, the others still listed; it recovers", async () => {
      sandbox.faults.add({ path: "/rest/api/3/project/search", status: 500 });
      sandbox.faults.add({ path: "/wiki/api/v2/spaces", hang: true });
      try {
        // Confluence never answers: the answer comes because its listing gave up at its deadline (the
        // message says so), not because Confluence did.
        const res = await admin.get(OPTIONS);
        expect(res.status).toBe(200);
        const body = res.body as PolicyOptionsDto;
        expect(body.jira.available).toBe(false);
        expect(body.jira.error).toMatch(/Jira/);
        expect(body.jira.projects).toEqual([]);
        expect(body.confluence).toMatchObject({ available: false, error: "Confluence did not answer within 2 s", spaces: [] });
        expect(body.bitbucket.available).toBe(true);
        // Configured and active: their tools are on offer even while the listing fails.
        expect(body.services).toEqual(["jira", "confluence", "bitbucket"]);
      } finally {
        sandbox.faults.clear();
      }
      // A failure is kept a few seconds (a down integration is not asked by every dialog).
      await expect
        .poll(async () => ((await admin.get(OPTIONS)).body as PolicyOptionsDto).jira.available, { timeout: 15_000, interval: 500 })
        .toBe(true);
    });

    it("a saved configuration is listed at once (the cached listing is forgotten)", async () => {
      expect((await admin.post("/api/admin/bitbucket-config", { ...BITBUCKET, workspace: "no-such-workspace" })).status).toBe(200);
      const body = (await admin.get(OPTIONS)).body as PolicyOptionsDto;
      expect(body.bitbucket).toMatchObject({ available: false, workspace: "no-such-workspace", repositories: [] });
      expect(body.bitbucket.error).toMatch(/Bitbucket/);
      expect((await admin.post("/api/admin/bitbucket-config", BITBUCKET)).status).toBe(200);
      expect(((await admin.get(OPTIONS)).body as PolicyOptionsDto).bitbucket.available).toBe(true);
    });
  });

  describe("who may ask", () => {
    it("401 without a session; 403 without oauth-clients.write (a viewer sees clients, not this)", async () => {
      const anonymous = await t.client().get(OPTIONS);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.error.code).toBe("unauthenticated");
      const viewer = (await signedInAs(t, ["viewer"])).client;
      const refused = await viewer.get(OPTIONS);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toEqual({ code: "forbidden", message: "You do not have the oauth-clients.write permission" });
      const operator = (await signedInAs(t, ["operator"])).client;
      expect((await operator.get(OPTIONS)).status).toBe(200);
    });
  });

  describe("the policy PUT checks tool names", () => {
    let url: string;
    beforeAll(async () => {
      const created = await admin.post("/api/admin/oauth-clients", {
        name: "Policy editor",
        redirectUris: ["https://app.example.com/cb"],
        scopes: ["read", "write"],
      });
      url = `/api/admin/oauth-clients/${created.body.clientId}/policy`;
    });

    it("an unknown tool is a 400 with the field's message, and nothing is saved", async () => {
      const res = await admin.put(url, { disabledTools: ["jira_search", "jira_delete_everything"], jiraProjects: ["NOPE"] });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({
        code: "validation_failed",
        fields: { disabledTools: "jira_delete_everything is not a tool of this server" },
      });
      expect((await admin.get(url)).body.disabledTools).toEqual([]);
    });

    it("known tools are saved; a key the integration does not have is saved too (only the console warns)", async () => {
      const res = await admin.put(url, { disabledTools: ["jira_search"], jiraProjects: ["NOPE"] });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ disabledTools: ["jira_search"], jiraProjects: ["NOPE"] });
    });
  });
});
