import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpClient, modernRpc, startMcpRig, type McpRig } from "../mcp.test-rig";
import { closeToolTest, putPolicy, sandboxFault } from "./tool-test-kit";

// @pglite-only: the tools' answers come from the sandbox; the database only holds the token and the audit rows (tool-calls and policy tests run on both).

const REPO = "api-gateway";

/** The Bitbucket workspace, repository and commit tools (bitbucket-history) through a real MCP client against the sandbox. */
describe("Bitbucket history tools", () => {
  let rig: McpRig;
  let client: Awaited<ReturnType<typeof mcpClient>>;
  const policy = (p: Record<string, unknown>) => putPolicy(rig, rig.client.clientId, p);
  beforeAll(async () => {
    rig = await startMcpRig({ upstream: { maxAttempts: 1 } });
    const set = await policy({});
    if (set.status !== 200) throw new Error(`policy: ${set.status}`);
    client = await mcpClient(rig, await rig.token("read write"), "bitbucket-history-test");
  });
  afterAll(() => closeToolTest(rig, client));

  const call = (name: string, args: Record<string, unknown>) => client.call(name, args);
  const fault = (spec: Record<string, unknown>) => sandboxFault(rig, { ...spec, times: 1 });
  /** The latest commit of api-gateway's main branch with exactly one parent (not a merge, not the root). */
  const plainCommit = async () => {
    const commits = (await call("bitbucket_list_commits", { repository: REPO, maxResults: 50 })).data.commits as {
      hash: string;
      message: string;
    }[];
    for (const c of commits) {
      const read = await call("bitbucket_get_commit", { repository: REPO, commit: c.hash });
      if ((read.data.parents as string[]).length === 1) return read;
    }
    throw new Error("no single-parent commit");
  };

  it("lists the workspaces the account can see, and those an allow-list reaches", async () => {
    const res = await call("bitbucket_list_workspaces", {});
    expect(res.isError).toBe(false);
    expect(res.data.workspaces).toEqual([
      { slug: "bridgekeeper", name: "Bridgekeeper", permission: "owner", url: `${rig.sandbox.url}/bridgekeeper/` },
    ]);
    expect(res.text).toContain(`- bridgekeeper (Bridgekeeper) · owner · ${rig.sandbox.url}/bridgekeeper/`);
    try {
      expect((await policy({ bitbucketRepositories: ["acme/api-gateway"] })).status).toBe(200);
      const none = await call("bitbucket_list_workspaces", {});
      expect(none.data.workspaces).toEqual([]);
      expect(none.text).toBe("No workspaces.");
      // A bare slug allows that repository in any workspace.
      expect((await policy({ bitbucketRepositories: [REPO] })).status).toBe(200);
      expect((await call("bitbucket_list_workspaces", {})).data.workspaces).toHaveLength(1);
    } finally {
      await policy({});
    }
    expect((await fault({ path: "/2.0/user/permissions/workspaces", status: 502 })).status).toBeLessThan(300);
    const down = await call("bitbucket_list_workspaces", {});
    expect(down.isError).toBe(true);
    expect(down.text).toMatch(/^Bitbucket failed with an internal error \(502\)/);
    const bad = await call("bitbucket_list_workspaces", { maxResults: 500 });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/maxResults may be at most 100/);
  });

  it("reads a repository's facts with link and clone URLs", async () => {
    const res = await call("bitbucket_get_repository", { repository: REPO });
    expect(res.isError).toBe(false);
    expect(res.data).toMatchObject({
      slug: REPO,
      fullName: `bridgekeeper/${REPO}`,
      mainBranch: "main",
      isPrivate: true,
      url: `${rig.sandbox.url}/bridgekeeper/${REPO}`,
      cloneUrls: {
        https: expect.stringMatching(new RegExp(`/bridgekeeper/${REPO}\\.git$`)),
        ssh: `git@bitbucket.org:bridgekeeper/${REPO}.git`,
      },
    });
    expect(res.data.sizeBytes).toBeGreaterThan(0);
    expect(res.data.language).toEqual(expect.any(String));
    expect(res.text).toMatch(new RegExp(`^# bridgekeeper/${REPO}\\n`));
    expect(res.text).toContain("main branch main");
    expect(res.text).toContain(`clone: git@bitbucket.org:bridgekeeper/${REPO}.git`);
    // The same through workspace/slug.
    expect((await call("bitbucket_get_repository", { repository: `bridgekeeper/${REPO}` })).data).toEqual(res.data);

    const missing = await call("bitbucket_get_repository", { repository: "no-such-repo" });
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/\(404\)/);
    // Not a slug, nor a dot segment that would move the request path (../etc is /2.0/etc, ./x the workspace x).
    for (const repository of ["api gateway", "../etc", "./x", ".."]) {
      const bad = await call("bitbucket_get_repository", { repository });
      expect(bad.isError, repository).toBe(true);
      expect(bad.text, repository).toMatch(/repository must be a repository slug/);
    }
  });

  it("reads a commit with its files, and its diff bounded and narrowed to paths", async () => {
    const commit = await plainCommit();
    expect(commit.isError).toBe(false);
    const data = commit.data as {
      hash: string;
      author: string;
      message: string;
      parents: string[];
      url: string;
      files: { path: string; linesAdded: number; linesRemoved: number }[];
      truncated: boolean;
    };
    expect(data.hash).toMatch(/^[0-9a-f]{40}$/);
    expect(data.author).toEqual(expect.any(String));
    expect(data.message.length).toBeGreaterThan(0);
    expect(data.url).toBe(`${rig.sandbox.url}/bridgekeeper/${REPO}/commits/${data.hash}`);
    expect(data.files.length).toBeGreaterThan(0);
    expect(data.truncated).toBe(false);
    expect(commit.text).toContain(`# Commit ${data.hash.slice(0, 12)} in bridgekeeper/${REPO}`);
    expect(commit.text).toContain(`- modified ${data.files[0]!.path}`);

    // The diff agrees with the diffstat, line for line.
    const diff = await call("bitbucket_get_commit_diff", { repository: REPO, commit: data.hash, maxLines: 5000 });
    expect(diff.isError).toBe(false);
    expect(diff.data.truncated).toBe(false);
    const text = diff.data.diff as string;
    expect(text.match(/^diff --git /gm)).toHaveLength(data.files.length);
    expect(text.split("\n").filter((l) => l.startsWith("+") && !l.startsWith("+++")).length).toBe(
      data.files.reduce((n, f) => n + f.linesAdded, 0),
    );
    expect(diff.text).toMatch(/^```diff\n/);

    const one = await call("bitbucket_get_commit_diff", { repository: REPO, commit: data.hash.slice(0, 12), paths: [data.files[0]!.path] });
    expect((one.data.diff as string).match(/^diff --git /gm)).toHaveLength(1);
    const cut = await call("bitbucket_get_commit_diff", { repository: REPO, commit: data.hash, maxLines: 20 });
    if ((diff.data.lines as number) > 20) {
      expect(cut.data).toMatchObject({ truncated: true });
      expect(cut.data.shownLines as number).toBeLessThanOrEqual(20);
      expect(cut.text).toMatch(/more lines: raise maxLines, or pass paths\]$/);
    }

    const few = await call("bitbucket_get_commit", { repository: REPO, commit: data.hash, maxFiles: 1 });
    expect(few.data.files).toHaveLength(1);
    expect(few.data.truncated).toBe(data.files.length > 1);
  });

  it("a large diff is cut at maxLines (the seeded schema-validation commit)", async () => {
    const commits = (
      await call("bitbucket_list_commits", { repository: "config-service", ref: "feature/schema-validation", maxResults: 1 })
    ).data.commits as { hash: string }[];
    const cut = await call("bitbucket_get_commit_diff", { repository: "config-service", commit: commits[0]!.hash, maxLines: 100 });
    expect(cut.data).toMatchObject({ truncated: true });
    expect(cut.data.lines as number).toBeGreaterThan(500);
    expect(cut.data.shownLines as number).toBeLessThanOrEqual(100);
  });

  it("bad hashes, unknown commits, repositories outside the allow-list and upstream failures are tool errors", async () => {
    for (const tool of ["bitbucket_get_commit", "bitbucket_get_commit_diff"]) {
      const bad = await call(tool, { repository: REPO, commit: "main; rm" });
      expect(bad.isError, tool).toBe(true);
      expect(bad.text).toMatch(/commit must be a commit hash/);
      const missing = await call(tool, { repository: REPO, commit: "0000000000000000" });
      expect(missing.isError, tool).toBe(true);
      expect(missing.text).toMatch(/\(404\)/);
    }
    const commit = await plainCommit();
    try {
      expect((await policy({ bitbucketRepositories: ["billing-service"] })).status).toBe(200);
      for (const [tool, args] of [
        ["bitbucket_get_repository", { repository: REPO }],
        ["bitbucket_get_commit", { repository: REPO, commit: commit.data.hash }],
        ["bitbucket_get_commit_diff", { repository: REPO, commit: commit.data.hash }],
      ] as const) {
        const res = await call(tool, args);
        expect(res.isError, tool).toBe(true);
        expect(res.text).toMatch(/may not use the Bitbucket repository bridgekeeper\/api-gateway/);
      }
      expect((await call("bitbucket_get_repository", { repository: "billing-service" })).isError).toBe(false);
    } finally {
      await policy({});
    }
    expect((await fault({ path: `/2.0/repositories/bridgekeeper/${REPO}/commit/`, status: 500 })).status).toBeLessThan(300);
    const down = await call("bitbucket_get_commit", { repository: REPO, commit: commit.data.hash });
    expect(down.isError).toBe(true);
    expect(down.text).toMatch(/^Bitbucket failed with an internal error \(500\)/);
    expect((await call("bitbucket_get_commit", { repository: REPO, commit: commit.data.hash })).isError).toBe(false);
  });

  it("are read tools: a read-only token sees them all", async () => {
    const list = await modernRpc(rig.baseUrl, await rig.token("read"), "tools/list");
    const names = (list.json.result.tools as { name: string }[]).map((t) => t.name);
    for (const n of ["bitbucket_list_workspaces", "bitbucket_get_repository", "bitbucket_get_commit", "bitbucket_get_commit_diff"])
      expect(names).toContain(n);
    expect(names).not.toContain("bitbucket_create_branch");
  });
});
