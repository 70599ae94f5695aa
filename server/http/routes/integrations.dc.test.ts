import { createServer } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../../sandbox/server";
import { signedInAs } from "../../test/factories";
import type { TestClient } from "../../test/http-client";
import { startTestApp, type TestApp } from "../../test/test-app";

/**
 * Configuring Data Center (issue 28 item 1), over HTTP with the sandbox's Data Center flavour
 * (each product under its context path): what each deployment takes, the deployment detected by the
 * test and overridable, the product and version named, and bad input (a Cloud address as Data
 * Center, an unreachable server, a wrong token) answered clearly with nothing stored that should not be.
 */
describe("integrations on Data Center", () => {
  let sandbox: Sandbox;
  let t: TestApp;
  let admin: TestClient;
  const PAT = "sandbox-dc-pat";
  const jiraDc = (over: Record<string, unknown> = {}) => ({
    deployment: "datacenter",
    instanceUrl: sandbox.dataCenter.jira,
    confluenceUrl: sandbox.dataCenter.confluence,
    authMethod: "token",
    apiToken: PAT,
    confluenceToken: PAT,
    isActive: true,
    ...over,
  });
  const bitbucketDc = (over: Record<string, unknown> = {}) => ({
    deployment: "datacenter",
    baseUrl: sandbox.dataCenter.bitbucket,
    workspace: "PLAT",
    authMethod: "token",
    appPassword: PAT,
    isActive: true,
    ...over,
  });
  /** A loopback port nothing listens on. */
  const closedPort = () =>
    new Promise<number>((resolve) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const { port } = s.address() as { port: number };
        s.close(() => resolve(port));
      });
    });

  beforeAll(async () => {
    sandbox = await startSandbox();
    // The address rule as in production, with the sandbox's loopback named (169.254.169.254 stays refused).
    t = await startTestApp({
      config: {
        BITBUCKET_API_URL: `${sandbox.url}/2.0`,
        UPSTREAM_TIMEOUT_MS: 3_000,
        UPSTREAM_ALLOW_PRIVATE: false,
        UPSTREAM_ALLOWED_HOSTS: ["127.0.0.1"],
      },
    });
    admin = (await signedInAs(t, ["admin"])).client;
  });
  afterAll(async () => {
    await t.close();
    await sandbox.close();
  });
  beforeEach(() => sandbox.reset());

  it("saves Jira and Confluence DC with a personal access token: bearer calls to each base URL, the token write-only", async () => {
    const saved = await admin.post("/api/admin/atlassian-config", jiraDc());
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({
      deploymentChoice: "datacenter",
      deployment: "datacenter",
      instanceUrl: sandbox.dataCenter.jira,
      confluenceUrl: sandbox.dataCenter.confluence,
      authMethod: "token",
      email: "",
      apiTokenHint: PAT.slice(-4),
    });
    expect(JSON.stringify(saved.body)).not.toContain(PAT);
    const targets = t.container.upstream.targets;
    expect(await targets.target("jira")).toEqual({
      baseUrl: sandbox.dataCenter.jira,
      authorization: `Bearer ${PAT}`,
      deployment: "datacenter",
    });
    expect(await targets.target("confluence")).toEqual({
      baseUrl: sandbox.dataCenter.confluence,
      authorization: `Bearer ${PAT}`,
      deployment: "datacenter",
    });
    // Username and password instead: Basic to the same servers; the token is not carried over to another sign-in.
    const again = await admin.post("/api/admin/atlassian-config", jiraDc({ authMethod: "basic", email: "demo", apiToken: "" }));
    expect(again.status).toBe(400);
    expect(again.body.error.fields.apiToken).toMatch(
      /Enter the API token again: the stored one is not sent to a changed sign-in method or email/,
    );
    const basic = await admin.post(
      "/api/admin/atlassian-config",
      jiraDc({ authMethod: "basic", email: "demo", apiToken: "sandbox-dc-password" }),
    );
    expect(basic.status, basic.text).toBe(200);
    expect((await targets.target("jira")).authorization).toBe(`Basic ${Buffer.from("demo:sandbox-dc-password").toString("base64")}`);
  });

  it("Confluence DC is its own server with its own token: required, sealed beside Jira's, a blank keeps it", async () => {
    await admin.post("/api/admin/atlassian-config", jiraDc({ authMethod: "basic", email: "demo", apiToken: "sandbox-dc-password" }));
    const missing = await admin.post("/api/admin/atlassian-config", jiraDc({ confluenceToken: "" }));
    expect(missing.status).toBe(400);
    expect(missing.body.error.fields).toEqual({
      confluenceToken: "Confluence's personal access token is required: on Data Center Confluence is its own server, with its own token",
    });
    const saved = await admin.post(
      "/api/admin/atlassian-config",
      jiraDc({ apiToken: "jira-token-1234", confluenceToken: "conf-token-5678" }),
    );
    expect(saved.body).toMatchObject({ apiTokenHint: "1234", confluenceTokenHint: "5678" });
    const targets = t.container.upstream.targets;
    expect((await targets.target("jira")).authorization).toBe("Bearer jira-token-1234");
    expect((await targets.target("confluence")).authorization).toBe("Bearer conf-token-5678");
    // A new Jira token, Confluence's left blank: Confluence keeps its own.
    await admin.post("/api/admin/atlassian-config", jiraDc({ apiToken: PAT, confluenceToken: "" }));
    expect((await targets.target("jira")).authorization).toBe(`Bearer ${PAT}`);
    expect((await targets.target("confluence")).authorization).toBe("Bearer conf-token-5678");
    const stored = (await admin.get("/api/admin/atlassian-config")).body;
    expect(JSON.stringify(stored)).not.toMatch(/conf-token|jira-token/);
  });

  it("a deployment the test detected stays on the next save while the entries are the same", async () => {
    const auto = {
      deployment: "auto",
      instanceUrl: sandbox.dataCenter.jira,
      email: "demo",
      apiToken: "sandbox-dc-password",
      isActive: true,
    };
    await admin.post("/api/admin/atlassian-config", auto);
    await admin.post("/api/admin/test-atlassian");
    expect((await admin.get("/api/admin/atlassian-config")).body.deployment).toBe("datacenter");
    const again = await admin.post("/api/admin/atlassian-config", { ...auto, apiToken: "", isActive: false });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ deployment: "datacenter", isActive: false });
    // Another address: guessed again from the entries.
    const moved = await admin.post("/api/admin/atlassian-config", { ...auto, instanceUrl: "https://acme.atlassian.net" });
    expect(moved.body.deployment).toBe("cloud");
  });

  it("the test names the products and versions, and the status and dashboard say them", async () => {
    await admin.post("/api/admin/atlassian-config", jiraDc());
    await admin.post("/api/admin/bitbucket-config", bitbucketDc());
    const test = await admin.post("/api/admin/test-atlassian");
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({
      deployment: "datacenter",
      jiraConnected: true,
      confluenceConnected: true,
      jiraProduct: { name: "Jira Data Center", version: "10.3.5", deployment: "datacenter" },
      confluenceProduct: { name: "Confluence Data Center", deployment: "datacenter" },
    });
    expect(test.body.confluenceProduct.version).toMatch(/^\d+\.\d+/);
    const bb = await admin.post("/api/admin/test-bitbucket");
    expect(bb.body).toMatchObject({
      connected: true,
      deployment: "datacenter",
      product: { name: "Bitbucket Data Center", version: "9.4.2" },
    });
    const status = (await admin.get("/api/atlassian-status")).body;
    expect(status.jiraProduct).toMatchObject({ name: "Jira Data Center", version: "10.3.5" });
    expect((await admin.get("/api/bitbucket-status")).body.product).toMatchObject({ name: "Bitbucket Data Center" });
  });

  it("detects Data Center while the choice is automatic, and keeps the token; an explicit Cloud is told it is wrong", async () => {
    // Nothing in the entries says Data Center (Basic, no Confluence URL): saved as Cloud until the test.
    const auto = await admin.post("/api/admin/atlassian-config", {
      deployment: "auto",
      instanceUrl: sandbox.dataCenter.jira,
      email: "demo",
      apiToken: "sandbox-dc-password",
      isActive: true,
    });
    expect(auto.body).toMatchObject({ deploymentChoice: "auto", deployment: "cloud" });
    const test = await admin.post("/api/admin/test-atlassian");
    expect(test.body).toMatchObject({ deployment: "datacenter", jiraConnected: true, jiraProduct: { name: "Jira Data Center" } });
    expect((await admin.get("/api/admin/atlassian-config")).body).toMatchObject({
      deploymentChoice: "auto",
      deployment: "datacenter",
      apiTokenHint: "word",
    });
    const audit = (await admin.get("/api/admin/audit?action=integration.deployment_detected")).body;
    expect(JSON.stringify(audit)).toContain("integration.deployment_detected");

    await admin.post("/api/admin/atlassian-config", {
      deployment: "cloud",
      instanceUrl: sandbox.dataCenter.jira,
      email: "demo",
      apiToken: "sandbox-dc-password",
      isActive: true,
    });
    const wrong = await admin.post("/api/admin/test-atlassian");
    expect(wrong.body.jiraConnected).toBe(false);
    expect(wrong.body.jiraError).toBe(
      "Jira Data Center 10.3.5 answers at this address, but the integration is set to Cloud: choose Data Center (or Detect automatically) and save",
    );
    expect((await admin.get("/api/admin/atlassian-config")).body.deployment).toBe("cloud");
  });

  it("a Cloud address entered as Data Center, missing fields and a private host: 400 by field, nothing stored", async () => {
    const before = [(await admin.get("/api/admin/atlassian-config")).body, (await admin.get("/api/admin/bitbucket-config")).body];
    const cloud = await admin.post("/api/admin/atlassian-config", jiraDc({ instanceUrl: "https://acme.atlassian.net" }));
    expect(cloud.status).toBe(400);
    expect(cloud.body.error.fields.instanceUrl).toBe(
      "acme.atlassian.net is Atlassian Cloud: choose Cloud, or enter your Jira Data Center's base URL",
    );
    const basicNoUser = await admin.post("/api/admin/atlassian-config", jiraDc({ authMethod: "basic" }));
    expect(basicNoUser.body.error.fields.email).toBe("Email or username is required");
    const cloudToken = await admin.post("/api/admin/atlassian-config", jiraDc({ deployment: "cloud", confluenceUrl: "" }));
    expect(cloudToken.body.error.fields.authMethod).toMatch(/personal access token is for Data Center/);
    const noBase = await admin.post("/api/admin/bitbucket-config", bitbucketDc({ baseUrl: "" }));
    expect(noBase.body.error.fields.baseUrl).toBe("Bitbucket's base URL is required for Data Center");
    const bbCloud = await admin.post("/api/admin/bitbucket-config", bitbucketDc({ baseUrl: "https://bitbucket.org" }));
    expect(bbCloud.body.error.fields.baseUrl).toMatch(/bitbucket.org is Bitbucket Cloud/);
    const metadata = await admin.post("/api/admin/atlassian-config", jiraDc({ confluenceUrl: "http://169.254.169.254/confluence" }));
    expect(metadata.status).toBe(400);
    expect(Object.keys(metadata.body.error.fields)).toEqual(["confluenceUrl"]);
    expect([(await admin.get("/api/admin/atlassian-config")).body, (await admin.get("/api/admin/bitbucket-config")).body]).toEqual(before);
  });

  it("an unreachable Data Center and a wrong token read clearly", async () => {
    const port = await closedPort();
    await admin.post("/api/admin/atlassian-config", jiraDc({ instanceUrl: `http://127.0.0.1:${port}/jira`, confluenceUrl: "" }));
    const down = (await admin.post("/api/admin/test-atlassian")).body;
    expect(down.jiraConnected).toBe(false);
    expect(down.jiraError).toMatch(new RegExp(`Jira could not be reached at http://127.0.0.1:${port}`));
    expect(down.confluenceError).toMatch(/Confluence is not configured for this Data Center integration/);

    await admin.post("/api/admin/atlassian-config", jiraDc({ apiToken: "not-the-token", confluenceToken: "not-the-token" }));
    const refused = (await admin.post("/api/admin/test-atlassian")).body;
    expect(refused.jiraError).toMatch(/Jira refused the credentials \(401\)/);
    expect(refused.confluenceError).toMatch(/Confluence refused the credentials \(401\)/);

    await admin.post("/api/admin/bitbucket-config", bitbucketDc({ baseUrl: `${sandbox.url}/nothing-here` }));
    const nothing = (await admin.post("/api/admin/test-bitbucket")).body;
    expect(nothing.connected).toBe(false);
    expect(nothing.error).toMatch(/^No Bitbucket Data Center answers at .*nothing-here/);
  });

  it("tools are offered on Data Center, each link pointing at its own server", async () => {
    await admin.post("/api/admin/atlassian-config", jiraDc());
    const context = await t.container.mcp.toolAvailability.context();
    expect(context.services.has("jira") && context.services.has("confluence")).toBe(true);
    expect(context.deployments).toMatchObject({ jira: "datacenter", confluence: "datacenter" });
    expect(context.confluenceUrl).toBe(sandbox.dataCenter.confluence);
    // Confluence left out: its tools are not offered at all.
    await admin.post("/api/admin/atlassian-config", jiraDc({ confluenceUrl: "" }));
    const without = await t.container.mcp.toolAvailability.context();
    expect(without.services.has("jira")).toBe(true);
    expect(without.services.has("confluence")).toBe(false);
  });
});
