import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../sandbox/server";
import { systemClock } from "../lib/clock";
import { createBitbucketClient } from "./bitbucket.client";
import { createUpstreamHttp, type UpstreamTarget } from "./http";
import { createUpstreamMeter } from "./meter";
import { collect } from "./paginate";

/**
 * The Bitbucket client on Data Center (REST 1.0) against the sandbox's DC flavour over loopback:
 * DC's answers read back into the Cloud shapes the tools use. Reads here; writes in
 * bitbucket-dc-writes.client.test.ts.
 */
describe("Bitbucket Data Center client: reads", () => {
  let sandbox: Sandbox;
  const http = createUpstreamHttp({
    meter: createUpstreamMeter({ clock: systemClock, hourlyBudget: { atlassian: 1000, bitbucket: 10_000 } }),
    timeoutMs: 5_000,
    maxAttempts: 1,
  });
  const as = (authorization: string) => {
    const target: UpstreamTarget = { baseUrl: sandbox.dataCenter.bitbucket, authorization, deployment: "datacenter" };
    return createBitbucketClient(http, async () => target);
  };
  const service = () => as("Bearer sandbox-dc-pat");
  const person = (nickname: string) => as(`Bearer ${sandbox.credentials.people.find((p) => p.nickname === nickname)!.personalAccessToken}`);

  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(async () => {
    await http.close();
    await sandbox.close();
  });

  it("who the credentials are (X-AUSERNAME), a project as the workspace, and its repositories counted", async () => {
    const bb = service();
    expect(await bb.user()).toMatchObject({ username: "demo", nickname: "demo", account_id: "demo" });
    expect(await person("priya.raman").user()).toMatchObject({ nickname: "priya.raman", display_name: "Priya Raman" });
    expect(await bb.workspace("PLAT")).toMatchObject({ slug: "PLAT", name: "Platform" });
    expect(await bb.repositoryCount("PLAT")).toBe(10);
    expect(await bb.repositoryCount("*")).toBe(31); // 30 in PLAT, WEB, DATA and Priya's personal one
    await expect(bb.workspace("NOPE")).rejects.toMatchObject({
      kind: "not_found",
      message: expect.stringMatching(/Project NOPE does not exist/),
    });
  });

  it("a project's repositories page by page, by name, narrowed by name and by an allow-list's clauses", async () => {
    const bb = service();
    const first = await bb.repositoriesPage("PLAT", { pagelen: 4, page: 1 });
    expect(first).toMatchObject({ size: 10, page: 1, next: "2" });
    expect(first.values.map((r) => r.full_name)).toEqual([
      "PLAT/api-gateway",
      "PLAT/auth-service",
      "PLAT/billing-service",
      "PLAT/config-service",
    ]);
    const last = await bb.repositoriesPage("PLAT", { pagelen: 4, page: 3 });
    expect(last.values).toHaveLength(2);
    expect(last.next).toBeUndefined();
    expect((await bb.repositoriesPage("PLAT", { q: 'name ~ "SERVICE"' })).values.map((r) => r.slug)).toEqual([
      "auth-service",
      "billing-service",
      "config-service",
      "notification-service",
      "user-service",
    ]);
    const allowed = await bb.repositoriesPage("PLAT", {
      q: '(slug = "api-gateway" OR slug = "web-frontend" OR slug = "auth-service") AND name ~ "a"',
    });
    expect(allowed.values.map((r) => r.slug)).toEqual(["api-gateway", "auth-service"]); // web-frontend is in WEB
    expect(allowed.size).toBe(2);
  });

  it("every project (*): DC's /repos, with its name filter; and the projects as workspaces", async () => {
    const bb = service();
    const page = await bb.repositoriesPage("*", { pagelen: 50 });
    expect(page.values.map((r) => r.full_name)).toEqual(
      expect.arrayContaining(["DATA/etl-pipelines", "WEB/web-frontend", "~PRIYA.RAMAN/oncall-notes"]),
    );
    expect((await bb.repositoriesPage("*", { q: 'name ~ "portal"' })).values.map((r) => r.full_name)).toEqual(["WEB/docs-portal"]);
    const fullNames = await bb.repositoriesPage("*", { q: 'full_name = "WEB/docs-portal" OR slug = "etl-pipelines"' });
    expect(fullNames.values.map((r) => r.full_name)).toEqual(["DATA/etl-pipelines", "WEB/docs-portal"]);
    const projects = await collect(bb.workspaceMemberships());
    expect(projects.map((m) => m.workspace.slug)).toEqual(["PLAT", "WEB", "DATA"]);
    expect(projects[0]!.workspace.links).toEqual({ html: { href: `${sandbox.dataCenter.bitbucket}/projects/PLAT` } });
  });

  it("a repository in the Cloud shape: full name, main branch from DC's default branch, web link, clone URLs", async () => {
    const r = await service().repository("PLAT", "api-gateway");
    expect(r).toMatchObject({ slug: "api-gateway", full_name: "PLAT/api-gateway", mainbranch: { name: "main" }, is_private: true });
    expect(r.links?.html?.href).toBe(`${sandbox.dataCenter.bitbucket}/projects/PLAT/repos/api-gateway/browse`);
    expect(r.links?.clone?.map((c) => c.name)).toEqual(["https", "ssh"]);
    await expect(service().repository("WEB", "api-gateway")).rejects.toMatchObject({
      kind: "not_found",
      message: expect.stringMatching(/Repository WEB\/api-gateway does not exist/),
    });
  });

  it("a personal project (~user): its owner sees it, another person does not, and a person sees only their repositories", async () => {
    const priya = person("priya.raman");
    expect((await priya.repository("~priya.raman", "oncall-notes")).full_name).toBe("~PRIYA.RAMAN/oncall-notes");
    await expect(person("marcus.chen").repository("~priya.raman", "oncall-notes")).rejects.toMatchObject({ kind: "not_found" });
    const mine = (await priya.repositoriesPage("*", { pagelen: 100 })).values.map((r) => r.full_name);
    expect(mine).toHaveLength(16); // PLAT's 10, 5 of WEB, her own
    expect(mine).not.toContain("DATA/etl-pipelines");
    const marcus = (await person("marcus.chen").repositoriesPage("*", { pagelen: 100 })).values.map((r) => r.full_name);
    expect(marcus).toContain("DATA/etl-pipelines");
    expect(marcus).not.toContain("PLAT/api-gateway");
    await expect(person("marcus.chen").repository("PLAT", "api-gateway")).rejects.toMatchObject({ kind: "not_found" });
  });

  it("files: a file's raw text at a ref, a directory as the Cloud's JSON listing, a missing path as 404", async () => {
    const bb = service();
    expect(await bb.fileContent("PLAT", "api-gateway", "main", "README.md")).toMatch(/^# API Gateway\n/);
    const root = JSON.parse(await bb.fileContent("PLAT", "api-gateway", "main", "")) as { values: { path: string; type: string }[] };
    expect(root.values).toEqual(
      expect.arrayContaining([
        { path: "src", type: "commit_directory" },
        { path: "README.md", type: "commit_file" },
      ]),
    );
    const src = JSON.parse(await bb.fileContent("PLAT", "api-gateway", "main", "src")) as { values: { path: string }[] };
    expect(src.values.every((e) => e.path.startsWith("src/"))).toBe(true);
    await expect(bb.fileContent("PLAT", "api-gateway", "main", "nope.md")).rejects.toMatchObject({ kind: "not_found" });
  });

  it("branches with their tip commits, commits of a ref, one commit, and its diff and diffstat agreeing", async () => {
    const bb = service();
    const branches = await collect(bb.branches("PLAT", "api-gateway"));
    expect(branches.map((b) => b.name)).toContain("main");
    expect(branches.every((b) => /^[0-9a-f]{40}$/.test(b.target.hash) && b.target.message !== "" && b.target.date !== "")).toBe(true);
    const commits = await collect(bb.commits("PLAT", "api-gateway", "main", 5));
    expect(commits).toHaveLength(5);
    const tip = commits[0]!;
    expect(tip.hash).toBe(branches.find((b) => b.name === "main")!.target.hash);
    expect(tip.links).toEqual({ html: { href: `${sandbox.dataCenter.bitbucket}/projects/PLAT/repos/api-gateway/commits/${tip.hash}` } });
    const one = await bb.commit("PLAT", "api-gateway", tip.hash.slice(0, 12));
    expect(one).toMatchObject({ hash: tip.hash, parents: [{ hash: expect.stringMatching(/^[0-9a-f]{40}$/) }] });
    expect(one.author?.raw).toMatch(/^.+ <.+@bridgekeeper\.test>$/);
    const diff = await bb.commitDiff("PLAT", "api-gateway", tip.hash);
    expect(diff).toMatch(/^diff --git a\/\S+ b\/\S+\n/);
    const stats = await collect(bb.commitDiffstat("PLAT", "api-gateway", tip.hash));
    expect(stats.length).toBe(diff.match(/^diff --git /gm)!.length);
    expect(stats.reduce((n, s) => n + s.lines_added, 0)).toBe(diff.split("\n").filter((l) => /^\+(?!\+\+ )/.test(l)).length);
    await expect(bb.commit("PLAT", "api-gateway", "0123456789ab")).rejects.toMatchObject({ kind: "not_found" });
  });

  it("pull requests: a page by state, one in the Cloud shape with its version, its diff, diffstat, commits and activity", async () => {
    const bb = service();
    const open = await bb.pullRequestsPage("PLAT", "api-gateway", { state: "OPEN", pagelen: 50 });
    expect(open.values.length).toBeGreaterThan(0);
    expect(open.values.every((p) => p.state === "OPEN")).toBe(true);
    const merged = await bb.pullRequestsPage("PLAT", "api-gateway", { state: "MERGED", pagelen: 2 });
    expect(merged.values.every((p) => p.state === "MERGED")).toBe(true);
    expect((await bb.pullRequestsPage("PLAT", "api-gateway", { state: "SUPERSEDED" })).values).toEqual([]);
    const pr = (await bb.pullRequest("PLAT", "api-gateway", open.values[0]!.id)) as unknown as Record<string, unknown> & {
      version?: number;
    };
    expect(pr).toMatchObject({
      state: "OPEN",
      version: 0,
      source: { branch: { name: expect.any(String) } },
      destination: { branch: { name: "main" } },
    });
    expect(pr.created_on).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((pr.links as { html: { href: string } }).html.href).toBe(
      `${sandbox.dataCenter.bitbucket}/projects/PLAT/repos/api-gateway/pull-requests/${open.values[0]!.id}`,
    );
    const diff = await bb.pullRequestDiff("PLAT", "api-gateway", pr.id as number);
    const stats = await collect(bb.pullRequestDiffstat("PLAT", "api-gateway", pr.id as number));
    expect(stats.map((s) => s.new?.path ?? s.old?.path).sort()).toEqual(
      [...diff.matchAll(/^diff --git a\/(\S+) /gm)].map((m) => m[1]).sort(),
    );
    expect((await collect(bb.pullRequestCommits("PLAT", "api-gateway", pr.id as number))).length).toBeGreaterThan(0);
    const activity = await collect(bb.pullRequestActivity("PLAT", "api-gateway", pr.id as number));
    expect(activity.at(-1)).toMatchObject({ update: { state: "OPEN" } }); // opened: the oldest, listed last
  });

  it("a repository outside what a person may see is DC's 404, not an empty answer", async () => {
    const elena = person("elena.petrova");
    await expect(collect(elena.branches("PLAT", "auth-service"))).rejects.toMatchObject({ kind: "not_found" });
    expect((await elena.repository("PLAT", "api-gateway")).slug).toBe("api-gateway");
  });
});
