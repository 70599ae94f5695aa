import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DC_DEFAULT_PROJECT, mcpClient, startMcpRig, type McpRig } from "../mcp.test-rig";
import { clearSandboxFaults, closeToolTest, putPolicy, setPolicy, sandboxFault } from "./tool-test-kit";

// @pglite-only: the tools' answers come from the sandbox's Data Center flavour; the database only holds the token and the audit rows.

/**
 * The Bitbucket code and history tools on Bitbucket Data Center (issue 28) through a real MCP
 * client, against the sandbox's DC flavour: the same tools, arguments and answers as on Cloud, a
 * workspace being a project key (the default one PLAT, `~user` a personal project, `*` every
 * project). Pull requests and reviews: bitbucket-dc-prs.test.ts.
 */
describe("Bitbucket code and history tools on Data Center", () => {
  let rig: McpRig;
  let client: Awaited<ReturnType<typeof mcpClient>>;
  beforeAll(async () => {
    rig = await startMcpRig({ upstream: { maxAttempts: 1 } }, { flavour: "datacenter" });
    await setPolicy(rig, rig.client.clientId);
    client = await mcpClient(rig, await rig.token("read write"), "bitbucket-dc-test");
  });
  afterAll(() => closeToolTest(rig, client));

  const call = (name: string, args: Record<string, unknown>) => client.call(name, args);

  it("lists the default project's repositories by name, page by page, and every project's with *", async () => {
    const first = await call("bitbucket_list_repositories", { maxResults: 4 });
    expect(first.isError, first.text).toBe(false);
    expect(first.data).toMatchObject({ workspace: DC_DEFAULT_PROJECT, total: 10 });
    expect(first.data.repositories.map((r: { fullName: string }) => r.fullName)).toEqual([
      "PLAT/api-gateway",
      "PLAT/auth-service",
      "PLAT/billing-service",
      "PLAT/config-service",
    ]);
    expect(first.text).toMatch(/^4 repositories in PLAT \(of 10\):/);
    const second = await call("bitbucket_list_repositories", { maxResults: 4, cursor: first.data.nextCursor });
    expect(second.data.repositories[0].slug).toBe("event-bus");
    const web = await call("bitbucket_list_repositories", { workspace: "WEB", nameContains: "portal" });
    expect(web.data.repositories.map((r: { fullName: string }) => r.fullName)).toEqual(["WEB/docs-portal"]);
    const all = await call("bitbucket_list_repositories", { workspace: "*", maxResults: 100 });
    expect(all.isError, all.text).toBe(false);
    const names = all.data.repositories.map((r: { fullName: string }) => r.fullName);
    expect(names).toHaveLength(31);
    expect(names).toEqual(expect.arrayContaining(["DATA/etl-pipelines", "WEB/web-frontend", "~PRIYA.RAMAN/oncall-notes"]));
    expect(all.text).toMatch(
      /^31 repositories in every project:\n- DATA\/analytics-dashboards: Dashboards as code for product analytics\.\n/,
    );
    const bad = await call("bitbucket_list_repositories", { workspace: "P L A T" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/on Data Center a project key such as PLAT, ~username, or \*/);
    const missing = await call("bitbucket_list_repositories", { workspace: "NOPE" });
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/found nothing there \(404\).*Project NOPE does not exist/);
  });

  it("reads a repository (bare slug in the default project, PROJECT/slug, ~user/slug) and lists the projects as workspaces", async () => {
    const r = await call("bitbucket_get_repository", { repository: "api-gateway" });
    expect(r.isError, r.text).toBe(false);
    // DC keeps no size, language or last-change time of a repository: the answer leaves them out (null).
    expect(r.data).toMatchObject({ fullName: "PLAT/api-gateway", mainBranch: "main", isPrivate: true });
    expect(r.data.sizeBytes ?? null).toBeNull();
    expect(r.data.url).toBe(`${rig.sandbox.dataCenter.bitbucket}/projects/PLAT/repos/api-gateway/browse`);
    expect(r.data.cloneUrls.https).toBe(`${rig.sandbox.dataCenter.bitbucket}/scm/plat/api-gateway.git`);
    expect(r.data.cloneUrls.ssh).toMatch(/^ssh:\/\/git@.+:7999\/plat\/api-gateway\.git$/);
    expect((await call("bitbucket_get_repository", { repository: "DATA/etl-pipelines" })).data.fullName).toBe("DATA/etl-pipelines");
    const personal = await call("bitbucket_get_repository", { repository: "~priya.raman/oncall-notes" });
    expect(personal.isError, personal.text).toBe(false);
    expect(personal.data.fullName).toBe("~PRIYA.RAMAN/oncall-notes");
    const elsewhere = await call("bitbucket_get_repository", { repository: "WEB/api-gateway" });
    expect(elsewhere.isError).toBe(true);
    expect(elsewhere.text).toMatch(/Repository WEB\/api-gateway does not exist/);
    const workspaces = await call("bitbucket_list_workspaces", {});
    expect(workspaces.data.workspaces.map((w: { slug: string }) => w.slug)).toEqual(["PLAT", "WEB", "DATA"]);
    expect(workspaces.data.workspaces[0]).toMatchObject({ name: "Platform", url: `${rig.sandbox.dataCenter.bitbucket}/projects/PLAT` });
  });

  it("reads files and directories at the main branch or a ref; a personal repository's too", async () => {
    const top = await call("bitbucket_get_file", { repository: "api-gateway" });
    expect(top.isError, top.text).toBe(false);
    expect(top.data).toMatchObject({ kind: "directory", ref: "main" });
    expect(top.data.entries).toEqual(
      expect.arrayContaining([
        { path: "src", type: "directory" },
        { path: "README.md", type: "file" },
      ]),
    );
    const readme = await call("bitbucket_get_file", { repository: "api-gateway", path: "README.md", maxLines: 10 });
    expect(readme.data).toMatchObject({ kind: "file", truncated: true });
    expect(readme.data.content).toMatch(/^# API Gateway\n/);
    const src = await call("bitbucket_get_file", { repository: "api-gateway", path: "src/" });
    expect(src.data.entries.every((e: { path: string }) => e.path.startsWith("src/"))).toBe(true);
    const notes = await call("bitbucket_get_file", { repository: "~priya.raman/oncall-notes", path: "README.md" });
    expect(notes.data.content).toMatch(/Add the database failover checklist/);
    const missing = await call("bitbucket_get_file", { repository: "api-gateway", path: "no/such/file.txt" });
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/\(404\).*does not exist at revision/);
  });

  it("lists branches and commits, reads a commit with its files, and its unified diff narrowed to a path", async () => {
    const branches = await call("bitbucket_list_branches", { repository: "api-gateway" });
    expect(branches.isError, branches.text).toBe(false);
    const main = branches.data.branches.find((b: { name: string }) => b.name === "main");
    expect(main.tip).toMatchObject({
      hash: expect.stringMatching(/^[0-9a-f]{12}$/),
      author: expect.any(String),
      message: expect.any(String),
    });
    const commits = await call("bitbucket_list_commits", { repository: "api-gateway", maxResults: 3 });
    expect(commits.data).toMatchObject({ ref: "main", truncated: true });
    expect(commits.data.commits[0].hash).toBe(main.tip.hash);
    expect(commits.data.commits[0].url).toMatch(/\/projects\/PLAT\/repos\/api-gateway\/commits\/[0-9a-f]{40}$/);
    const commit = await call("bitbucket_get_commit", { repository: "api-gateway", commit: main.tip.hash });
    expect(commit.isError, commit.text).toBe(false);
    expect(commit.data.files.length).toBeGreaterThan(0);
    const diff = await call("bitbucket_get_commit_diff", { repository: "api-gateway", commit: main.tip.hash, maxLines: 5000 });
    expect(diff.data.diff).toMatch(/^diff --git a\//);
    const file = commit.data.files[0];
    const added = (diff.data.diff as string)
      .split(/(?=^diff --git )/m)
      .find((f) => f.startsWith(`diff --git a/${file.path} `))!
      .split("\n")
      .filter((l) => /^\+(?!\+\+ )/.test(l)).length;
    expect(file.linesAdded).toBe(added);
    const one = await call("bitbucket_get_commit_diff", { repository: "api-gateway", commit: main.tip.hash, paths: [file.path] });
    expect((one.data.diff as string).match(/^diff --git /gm)).toHaveLength(1);
    const bad = await call("bitbucket_get_commit", { repository: "api-gateway", commit: "0123456789abcdef" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/\(404\).*does not exist in repository 'api-gateway'/);
  });

  it("creates a branch from the main branch; an existing name is a conflict", async () => {
    const made = await call("bitbucket_create_branch", { repository: "api-gateway", name: "feature/dc-tools" });
    expect(made.isError, made.text).toBe(false);
    expect(made.data.name).toBe("feature/dc-tools");
    expect(rig.sandbox.state("bitbucket", "datacenter").reposBySlug.get("api-gateway")!.branches.has("feature/dc-tools")).toBe(true);
    const again = await call("bitbucket_create_branch", { repository: "api-gateway", name: "feature/dc-tools" });
    expect(again.isError).toBe(true);
    expect(again.text).toMatch(/conflict \(409\).*already exists/);
  });

  it("searches code in the default project or every project; an instance without search says so", async () => {
    const found = await call("bitbucket_search_code", { query: "retry", repository: "api-gateway" });
    expect(found.isError, found.text).toBe(false);
    expect(found.data.results.length).toBeGreaterThan(0);
    expect(found.data.results.every((r: { repository: string }) => r.repository === "api-gateway")).toBe(true);
    expect(found.data.results[0].matches[0].text).not.toMatch(/<em>/);
    const everywhere = await call("bitbucket_search_code", { workspace: "*", query: "retry", maxResults: 50 });
    expect(new Set(everywhere.data.results.map((r: { repository: string }) => r.repository.split("/")[0])).size).toBeGreaterThan(1);
    await sandboxFault(rig, { method: "POST", path: "/dc/bitbucket/rest/search/latest/search", status: 404 });
    const none = await call("bitbucket_search_code", { query: "retry" });
    await clearSandboxFaults(rig);
    expect(none.isError).toBe(true);
    expect(none.text).toMatch(/^Code search is not available on this Bitbucket Data Center/);
  });

  it("with a person's personal access token, only their repositories: priya.raman sees PLAT, part of WEB and her own", async () => {
    const saved = await rig.admin.post("/api/admin/bitbucket-config", {
      deployment: "datacenter",
      baseUrl: rig.sandbox.dataCenter.bitbucket,
      workspace: DC_DEFAULT_PROJECT,
      authMethod: "token",
      appPassword: "sandbox-dc-pat-priya",
      isActive: true,
    });
    expect(saved.status).toBeLessThan(300);
    const all = await call("bitbucket_list_repositories", { workspace: "*", maxResults: 100 });
    const names: string[] = all.data.repositories.map((r: { fullName: string }) => r.fullName);
    expect(names).toHaveLength(16);
    expect(names).toContain("~PRIYA.RAMAN/oncall-notes");
    expect(names.some((n) => n.startsWith("DATA/"))).toBe(false);
    expect((await call("bitbucket_list_workspaces", {})).data.workspaces.map((w: { slug: string }) => w.slug)).toEqual(["PLAT", "WEB"]);
    const hidden = await call("bitbucket_get_repository", { repository: "DATA/etl-pipelines" });
    expect(hidden.isError).toBe(true);
    expect(hidden.text).toMatch(/\(404\)/);
  });
});

describe("Bitbucket Cloud: every project (*) is Data Center's", () => {
  let rig: McpRig;
  let client: Awaited<ReturnType<typeof mcpClient>>;
  beforeAll(async () => {
    rig = await startMcpRig({ upstream: { maxAttempts: 1 } });
    await putPolicy(rig, rig.client.clientId);
    client = await mcpClient(rig, await rig.token("read write"), "bitbucket-cloud-all-test");
  });
  afterAll(() => closeToolTest(rig, client));

  it("refuses workspace * on Cloud with a sentence, without calling Bitbucket", async () => {
    rig.sandbox.clearRequests();
    for (const [name, args] of [
      ["bitbucket_list_repositories", { workspace: "*" }],
      ["bitbucket_search_code", { workspace: "*", query: "retry" }],
    ] as const) {
      const answer = await client.call(name, args);
      expect(answer.isError).toBe(true);
      expect(answer.text).toMatch(/workspace "\*" \(every project\) is for Bitbucket Data Center/);
    }
    expect(rig.sandbox.requests().filter((r) => r.path.startsWith("/2.0/"))).toEqual([]);
  });
});
