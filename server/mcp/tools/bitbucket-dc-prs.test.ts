import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpClient, startMcpRig, type McpRig } from "../mcp.test-rig";
import { closeToolTest, setPolicy, sandboxFault } from "./tool-test-kit";

// @pglite-only: the tools' answers come from the sandbox's Data Center flavour; the database only holds the token and the audit rows.

/**
 * The Bitbucket pull request and review tools on Bitbucket Data Center (issue 28) through a real
 * MCP client, against the sandbox's DC flavour (default project PLAT): pull requests at their
 * version (a change in between is a tool error that says to read it again), comments anchored to
 * a line and replies, threads resolved, tasks as BLOCKER comments, approvals and NEEDS_WORK.
 */
describe("Bitbucket pull request tools on Data Center", () => {
  let rig: McpRig;
  let client: Awaited<ReturnType<typeof mcpClient>>;
  beforeAll(async () => {
    rig = await startMcpRig({ upstream: { maxAttempts: 1 } }, { flavour: "datacenter" });
    await setPolicy(rig, rig.client.clientId);
    client = await mcpClient(rig, await rig.token("read write"), "bitbucket-dc-prs-test");
  });
  afterAll(() => closeToolTest(rig, client));

  const call = (name: string, args: Record<string, unknown>) => client.call(name, args);
  const repo = () => rig.sandbox.state("bitbucket", "datacenter").reposBySlug.get("api-gateway")!;
  /** The `skip`-th open, mergeable pull request of api-gateway not by the service account. */
  const openPr = (skip = 0) =>
    [...repo().pullRequests.values()].filter((p) => p.state === "OPEN" && !p.conflict && p.author.nickname !== "demo")[skip]!;
  /** An open pull request of another PLAT repository, not by the service account, one no earlier test used. */
  const used = new Set<unknown>();
  const elsewhere = () => {
    for (const slug of ["auth-service", "billing-service", "user-service", "notification-service", "payments-api"]) {
      const r = rig.sandbox.state("bitbucket", "datacenter").reposBySlug.get(slug)!;
      const pr = [...r.pullRequests.values()].find((p) => p.state === "OPEN" && p.author.nickname !== "demo" && !used.has(p));
      if (pr) {
        used.add(pr);
        return { slug, pr };
      }
    }
    throw new Error("no open pull request left");
  };
  const PR_PATH = (id: number) => `/dc/bitbucket/rest/api/1.0/projects/PLAT/repos/api-gateway/pull-requests/${id}`;

  it("lists and reads pull requests: branches, author, reviewers with their status, files; diff and diffstat agree", async () => {
    const list = await call("bitbucket_list_pull_requests", { repository: "api-gateway", maxResults: 50 });
    expect(list.isError, list.text).toBe(false);
    expect(list.data.pullRequests.every((p: { state: string }) => p.state === "OPEN")).toBe(true);
    expect(list.text).toMatch(/open pull requests? in PLAT\/api-gateway/);
    const superseded = await call("bitbucket_list_pull_requests", { repository: "api-gateway", state: "SUPERSEDED" });
    expect(superseded.data.pullRequests).toEqual([]);
    const pr = openPr();
    const read = await call("bitbucket_get_pull_request", { repository: "api-gateway", pullRequestId: pr.id });
    expect(read.isError, read.text).toBe(false);
    expect(read.data).toMatchObject({
      id: pr.id,
      state: "OPEN",
      author: pr.author.displayName,
      source: pr.source.branch,
      destination: "main",
    });
    expect(read.data.url).toBe(`${rig.sandbox.dataCenter.bitbucket}/projects/PLAT/repos/api-gateway/pull-requests/${pr.id}`);
    expect(read.data.reviewers.map((r: { name: string }) => r.name).sort()).toEqual(
      [...pr.participants.values()].map((p) => p.user.displayName).sort(),
    );
    const stat = await call("bitbucket_get_pull_request_diffstat", { repository: "api-gateway", pullRequestId: pr.id });
    const diff = await call("bitbucket_get_pull_request_diff", { repository: "api-gateway", pullRequestId: pr.id, maxLines: 5000 });
    expect(diff.data.diff).toMatch(/^diff --git a\//);
    expect(stat.data.files.map((f: { path: string }) => f.path).sort()).toEqual(
      [...(diff.data.diff as string).matchAll(/^diff --git a\/\S+ b\/(\S+)$/gm)].map((m) => m[1]).sort(),
    );
    expect(stat.data.linesAdded).toBe((diff.data.diff as string).split("\n").filter((l) => /^\+(?!\+\+ )/.test(l)).length);
    const commits = await call("bitbucket_list_pull_request_commits", { repository: "api-gateway", pullRequestId: pr.id });
    expect(commits.data.commits.length).toBeGreaterThan(0);
    const missing = await call("bitbucket_get_pull_request", { repository: "api-gateway", pullRequestId: 99999 });
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/\(404\).*Pull request 99999 does not exist/);
  });

  it("opens a pull request with reviewers by user name and edits it; a change made in between is refused with a clear error", async () => {
    const branch = [...repo().branches.keys()].find(
      (b) => b !== "main" && ![...repo().pullRequests.values()].some((p) => p.state === "OPEN" && p.source.branch === b),
    )!;
    const unknown = await call("bitbucket_create_pull_request", {
      repository: "api-gateway",
      title: "x",
      source: branch,
      reviewers: ["no.one"],
    });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/\(400\).*no\.one is not a user/);
    const opened = await call("bitbucket_create_pull_request", {
      repository: "api-gateway",
      title: "Open on DC",
      source: branch,
      description: "From the tools.",
      reviewers: ["alice.nguyen"],
    });
    expect(opened.isError, opened.text).toBe(false);
    expect(opened.data).toMatchObject({ title: "Open on DC", source: branch, destination: "main" });
    const id = opened.data.id as number;
    const edited = await call("bitbucket_update_pull_request", {
      repository: "api-gateway",
      pullRequestId: id,
      title: "Opened on DC",
      reviewers: ["alice.nguyen", "bob.martins"],
    });
    expect(edited.isError, edited.text).toBe(false);
    expect(edited.data.reviewers.sort()).toEqual(["Alice Nguyen", "Bob Martins"]);
    // A description-only edit keeps the reviewers (DC's PUT would drop any it is not sent).
    await call("bitbucket_update_pull_request", { repository: "api-gateway", pullRequestId: id, description: "Edited." });
    expect([...repo().pullRequests.get(id)!.participants.values()].filter((p) => p.role === "REVIEWER")).toHaveLength(2);

    // The tool reads the pull request (its version), then writes; someone edits it in between.
    await sandboxFault(rig, { method: "PUT", path: PR_PATH(id), latencyMs: 400, times: 1 });
    rig.sandbox.clearRequests();
    const racing = call("bitbucket_update_pull_request", { repository: "api-gateway", pullRequestId: id, title: "Lost update" });
    await expect.poll(() => rig.sandbox.requests().some((r) => r.method === "PUT" && r.path === PR_PATH(id))).toBe(true);
    const pr = repo().pullRequests.get(id)!;
    pr.edits.push({ by: pr.author, on: Date.now(), changes: { title: { old: pr.title, new: "Changed meanwhile" } } });
    pr.title = "Changed meanwhile";
    const stale = await racing;
    expect(stale.isError).toBe(true);
    expect(stale.text).toMatch(/conflict \(409\).*changed since it was read.*read the pull request again/);
    expect(pr.title).toBe("Changed meanwhile");
  });

  it("merges (a change in between is refused), declines, and a merged pull request cannot be merged again", async () => {
    const pr = openPr();
    await sandboxFault(rig, { method: "POST", path: `${PR_PATH(pr.id)}/merge`, latencyMs: 400, times: 1 });
    rig.sandbox.clearRequests();
    const racing = call("bitbucket_merge_pull_request", { repository: "api-gateway", pullRequestId: pr.id });
    await expect.poll(() => rig.sandbox.requests().some((r) => r.path === `${PR_PATH(pr.id)}/merge`)).toBe(true);
    pr.edits.push({ by: pr.author, on: Date.now(), changes: { description: { old: pr.description, new: "edited" } } });
    const stale = await racing;
    expect(stale.isError).toBe(true);
    expect(stale.text).toMatch(/read the pull request again/);

    const merged = await call("bitbucket_merge_pull_request", { repository: "api-gateway", pullRequestId: pr.id, strategy: "squash" });
    expect(merged.isError, merged.text).toBe(false);
    expect(merged.data).toMatchObject({ state: "MERGED", mergeCommit: expect.stringMatching(/^[0-9a-f]{40}$/) });
    const again = await call("bitbucket_merge_pull_request", { repository: "api-gateway", pullRequestId: pr.id });
    expect(again.isError).toBe(true);
    expect(again.text).toMatch(/conflict \(409\).*is merged: it cannot be merged/);
    const other = openPr();
    const declined = await call("bitbucket_decline_pull_request", { repository: "api-gateway", pullRequestId: other.id });
    expect(declined.data.state).toBe("DECLINED");
  });

  it("comments on a line and replies; lists them as threads; resolves and reopens a thread", async () => {
    const { slug, pr } = elsewhere();
    const diff = (await call("bitbucket_get_pull_request_diff", { repository: slug, pullRequestId: pr.id, maxLines: 5000 })).data
      .diff as string;
    const file = /^\+\+\+ b\/(\S+)$/m.exec(diff)![1]!;
    const top = await call("bitbucket_comment_pull_request", {
      repository: slug,
      pullRequestId: pr.id,
      body: "Is this right?",
      path: file,
      line: 2,
    });
    expect(top.isError, top.text).toBe(false);
    expect(top.text).toContain(`on ${file}:2`);
    expect(top.data.url).toMatch(/\/pull-requests\/\d+\/overview\?commentId=\d+$/);
    const reply = await call("bitbucket_comment_pull_request", {
      repository: slug,
      pullRequestId: pr.id,
      body: "Yes.",
      parentId: top.data.commentId,
    });
    expect(reply.text).toMatch(/in reply to/);
    const listed = await call("bitbucket_list_pull_request_comments", { repository: slug, pullRequestId: pr.id, maxResults: 100 });
    expect(listed.data.comments.find((c: { id: number }) => c.id === top.data.commentId)).toMatchObject({
      at: `${file}:2`,
      body: "Is this right?",
    });
    expect(listed.data.comments.find((c: { id: number }) => c.id === reply.data.commentId)).toMatchObject({ parentId: top.data.commentId });
    const resolve = (resolveIt: boolean) =>
      call("bitbucket_resolve_comment", { repository: slug, pullRequestId: pr.id, commentId: top.data.commentId, resolve: resolveIt });
    expect((await resolve(true)).data).toMatchObject({ resolved: true, already: false });
    expect((await resolve(true)).data.already).toBe(true);
    expect((await resolve(false)).data).toMatchObject({ resolved: false, already: false });
    const orphan = await call("bitbucket_comment_pull_request", { repository: slug, pullRequestId: pr.id, body: "x", parentId: 12345 });
    expect(orphan.isError).toBe(true);
    expect(orphan.text).toMatch(/\(404\)/);
  });

  it("adds tasks (BLOCKER comments), lists them, resolves one", async () => {
    const { slug, pr } = elsewhere();
    const task = await call("bitbucket_create_pull_request_task", { repository: slug, pullRequestId: pr.id, content: "Add a test" });
    expect(task.isError, task.text).toBe(false);
    expect(task.data).toMatchObject({ content: "Add a test", state: "UNRESOLVED" });
    const done = await call("bitbucket_resolve_pull_request_task", { repository: slug, pullRequestId: pr.id, taskId: task.data.id });
    expect(done.data.state).toBe("RESOLVED");
    const unresolved = await call("bitbucket_list_pull_request_tasks", { repository: slug, pullRequestId: pr.id, state: "UNRESOLVED" });
    expect(unresolved.data.tasks.some((t: { id: number }) => t.id === task.data.id)).toBe(false);
    const resolved = await call("bitbucket_list_pull_request_tasks", { repository: slug, pullRequestId: pr.id, state: "RESOLVED" });
    expect(resolved.data.tasks.map((t: { id: number }) => t.id)).toContain(task.data.id);
  });

  it("approves and requests changes (NEEDS_WORK); the activity tells it; the author cannot review their own", async () => {
    const { slug, pr } = elsewhere();
    expect((await call("bitbucket_approve_pull_request", { repository: slug, pullRequestId: pr.id })).data.approved).toBe(true);
    let read = await call("bitbucket_get_pull_request", { repository: slug, pullRequestId: pr.id, includeFiles: false });
    expect(read.data.reviewers).toEqual(expect.arrayContaining([expect.objectContaining({ name: "Demo Admin", approved: true })]));
    expect((await call("bitbucket_request_changes", { repository: slug, pullRequestId: pr.id })).isError).toBe(false);
    read = await call("bitbucket_get_pull_request", { repository: slug, pullRequestId: pr.id, includeFiles: false });
    expect(read.data.reviewers).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: "Demo Admin", approved: false, state: "changes_requested" })]),
    );
    const activity = await call("bitbucket_get_pull_request_activity", { repository: slug, pullRequestId: pr.id, maxResults: 200 });
    expect(activity.isError, activity.text).toBe(false);
    const kinds = activity.data.events.map((e: { kind: string }) => e.kind);
    expect(kinds[0]).toBe("opened");
    expect(kinds).toContain("changes requested");

    pr.author = rig.sandbox.state("bitbucket", "datacenter").users.find((u) => u.nickname === "demo")!;
    const own = await call("bitbucket_approve_pull_request", { repository: slug, pullRequestId: pr.id });
    expect(own.isError).toBe(true);
    expect(own.text).toMatch(/\(400\).*author of a pull request cannot review it/);
  });
});
