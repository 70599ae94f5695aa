import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../sandbox/server";
import { systemClock } from "../lib/clock";
import { createBitbucketClient } from "./bitbucket.client";
import { createUpstreamHttp, type UpstreamTarget } from "./http";
import { createUpstreamMeter } from "./meter";
import { collect } from "./paginate";

/**
 * The Bitbucket client's writes on Data Center against the sandbox's DC flavour: branches, pull
 * requests at their version (and the stale-version conflict), comments anchored to a line and
 * replies, thread resolution, tasks (BLOCKER comments), review status, and code search.
 */
describe("Bitbucket Data Center client: writes", () => {
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
  const bb = () => as("Bearer sandbox-dc-pat");
  const dcState = () => sandbox.state("bitbucket", "datacenter");
  /** An open, mergeable pull request of api-gateway not by the service account (demo). */
  const openPr = () => {
    const repo = dcState().reposBySlug.get("api-gateway")!;
    return [...repo.pullRequests.values()].find((p) => p.state === "OPEN" && !p.conflict && p.author.nickname !== "demo")!;
  };

  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  beforeEach(() => sandbox.reset());
  afterAll(async () => {
    await http.close();
    await sandbox.close();
  });

  it("creates a branch at a commit; an existing name is DC's conflict", async () => {
    const [tip] = await collect(bb().commits("PLAT", "api-gateway", "main", 1));
    const branch = await bb().createBranch("PLAT", "api-gateway", "feature/dc-branch", tip!.hash);
    expect(branch).toMatchObject({ name: "feature/dc-branch", target: { hash: tip!.hash } });
    expect(dcState().reposBySlug.get("api-gateway")!.branches.get("feature/dc-branch")).toBe(tip!.hash);
    await expect(bb().createBranch("PLAT", "api-gateway", "feature/dc-branch", tip!.hash)).rejects.toMatchObject({ kind: "conflict" });
  });

  it("opens a pull request with reviewers by name, edits it at its version, and refuses a stale version with a clear conflict", async () => {
    const repo = dcState().reposBySlug.get("api-gateway")!;
    const [tip] = await collect(bb().commits("PLAT", "api-gateway", "main", 1));
    repo.branches.set("feature/dc-pr", repo.commits.get(tip!.hash)!.parents[0]!); // behind main: nothing to merge
    await expect(bb().createPullRequest("PLAT", "api-gateway", { title: "Nothing", source: "feature/dc-pr" })).rejects.toMatchObject({
      kind: "conflict",
    });
    const source = [...repo.branches.keys()].find(
      (b) => b !== "main" && ![...repo.pullRequests.values()].some((p) => p.state === "OPEN" && p.source.branch === b),
    );
    expect(source).toBeDefined();
    await expect(
      bb().createPullRequest("PLAT", "api-gateway", { title: "x", source: source!, reviewers: ["nobody.here"] }),
    ).rejects.toMatchObject({ kind: "bad_request", message: expect.stringMatching(/nobody\.here is not a user/) });
    const pr = await bb().createPullRequest("PLAT", "api-gateway", {
      title: "DC pull request",
      source: source!,
      reviewers: ["alice.nguyen"],
    });
    expect(pr).toMatchObject({ title: "DC pull request", state: "OPEN", destination: { branch: { name: "main" } }, version: 0 });

    const updated = await bb().updatePullRequest("PLAT", "api-gateway", pr.id, {
      title: "DC pull request, edited",
      description: "Now with a description.",
      destination: { branch: { name: "main" } },
      reviewers: [{ account_id: "alice.nguyen" }, { account_id: "bob.martins" }],
    });
    expect(updated).toMatchObject({ title: "DC pull request, edited", version: 1 });
    expect((updated as { reviewers?: { nickname: string }[] }).reviewers?.map((r) => r.nickname).sort()).toEqual([
      "alice.nguyen",
      "bob.martins",
    ]);
    // The version the caller read (0) is stale now: DC refuses, and the error says to read the pull request again.
    await expect(
      bb().updatePullRequest("PLAT", "api-gateway", pr.id, {
        title: "Lost update",
        description: "",
        destination: { branch: { name: "main" } },
        reviewers: [],
        version: 0,
      } as Parameters<ReturnType<typeof bb>["updatePullRequest"]>[3]),
    ).rejects.toMatchObject({ kind: "conflict", message: expect.stringMatching(/read the pull request again/) });
    expect(repo.pullRequests.get(pr.id)!.title).toBe("DC pull request, edited");
  });

  it("merges at the current version (a change in between is a conflict), the merge commit named; declines another", async () => {
    const target = openPr();
    const path = `/dc/bitbucket/rest/api/1.0/projects/PLAT/repos/api-gateway/pull-requests/${target.id}/merge`;
    sandbox.faults.add({ method: "POST", path, latencyMs: 400, times: 1 });
    const racing = bb()
      .mergePullRequest("PLAT", "api-gateway", target.id)
      .then(
        () => null,
        (err: unknown) => err,
      );
    await expect.poll(() => sandbox.requests().some((r) => r.method === "POST" && r.path === path)).toBe(true);
    target.edits.push({ by: target.author, on: Date.now(), changes: { title: { old: target.title, new: "Changed meanwhile" } } });
    expect(await racing).toMatchObject({
      kind: "conflict",
      message: expect.stringMatching(/changed since it was read.*read the pull request again/),
    });
    expect(target.state).toBe("OPEN");

    const merged = await bb().mergePullRequest("PLAT", "api-gateway", target.id, { merge_strategy: "squash", close_source_branch: true });
    expect(merged).toMatchObject({ state: "MERGED", merge_commit: { hash: expect.stringMatching(/^[0-9a-f]{40}$/) } });
    expect(dcState().reposBySlug.get("api-gateway")!.branches.has(target.source.branch)).toBe(false);
    await expect(bb().declinePullRequest("PLAT", "api-gateway", target.id)).rejects.toMatchObject({ kind: "conflict" });
    const other = openPr();
    expect((await bb().declinePullRequest("PLAT", "api-gateway", other.id)).state).toBe("DECLINED");
  });

  it("comments on a line (anchored ADDED or CONTEXT as the diff has it), replies, and resolves and reopens the thread", async () => {
    const pr = openPr();
    const diff = await bb().pullRequestDiff("PLAT", "api-gateway", pr.id);
    const file = /^\+\+\+ b\/(\S+)$/m.exec(diff)![1]!;
    const hunk = /^@@ -\d+,\d+ \+(\d+),\d+ @@\n((?:[ +-].*\n)+)/m.exec(diff.slice(diff.indexOf(`+++ b/${file}`)))!;
    let line = Number(hunk[1]);
    for (const l of hunk[2]!.split("\n")) {
      if (l.startsWith("+")) break;
      if (!l.startsWith("-")) line++;
    }
    const top = await bb().commentOnPullRequest("PLAT", "api-gateway", pr.id, "Why this line?", { inline: { path: file, to: line } });
    const raw = await fetch(
      `${sandbox.dataCenter.bitbucket}/rest/api/1.0/projects/PLAT/repos/api-gateway/pull-requests/${pr.id}/comments/${top.id}`,
      {
        headers: { authorization: "Bearer sandbox-dc-pat" },
      },
    ).then((r) => r.json() as Promise<{ anchor: Record<string, unknown> }>);
    expect(raw.anchor).toMatchObject({ path: file, line, lineType: "ADDED", fileType: "TO", diffType: "EFFECTIVE" });
    const reply = await bb().commentOnPullRequest("PLAT", "api-gateway", pr.id, "Because.", { parentId: top.id });
    const page = await bb().pullRequestCommentsPage("PLAT", "api-gateway", pr.id, { pagelen: 100 });
    expect(page.values.find((c) => c.id === top.id)).toMatchObject({ inline: { path: file, to: line }, parent: null });
    expect(page.values.find((c) => c.id === reply.id)).toMatchObject({ parent: { id: top.id }, content: { raw: "Because." } });

    expect(await bb().resolveComment("PLAT", "api-gateway", pr.id, top.id)).toMatchObject({ user: { nickname: "demo" } });
    await expect(bb().resolveComment("PLAT", "api-gateway", pr.id, top.id)).rejects.toMatchObject({ status: 409 });
    expect(
      (await bb().pullRequestCommentsPage("PLAT", "api-gateway", pr.id, { pagelen: 100 })).values.find((c) => c.id === top.id)?.resolution,
    ).toBeTruthy();
    await bb().reopenComment("PLAT", "api-gateway", pr.id, top.id);
    await expect(bb().reopenComment("PLAT", "api-gateway", pr.id, top.id)).rejects.toMatchObject({ status: 409 });
    await expect(bb().commentOnPullRequest("PLAT", "api-gateway", pr.id, "x", { parentId: 1 })).rejects.toMatchObject({
      kind: "not_found",
    });
  });

  it("tasks are BLOCKER comments: added (also on a comment), listed, resolved and reopened", async () => {
    const pr = openPr();
    const before = (await collect(bb().pullRequestTasks("PLAT", "api-gateway", pr.id))).length;
    const task = await bb().createPullRequestTask("PLAT", "api-gateway", pr.id, "Add a test");
    expect(task).toMatchObject({ content: { raw: "Add a test" }, state: "UNRESOLVED", creator: { nickname: "demo" } });
    const top = await bb().commentOnPullRequest("PLAT", "api-gateway", pr.id, "A thread");
    expect(await bb().createPullRequestTask("PLAT", "api-gateway", pr.id, "Fix the thread's point", top.id)).toMatchObject({
      comment: { id: top.id },
    });
    expect(await collect(bb().pullRequestTasks("PLAT", "api-gateway", pr.id))).toHaveLength(before + 2);
    expect(await bb().setPullRequestTaskState("PLAT", "api-gateway", pr.id, task.id, "RESOLVED")).toMatchObject({
      state: "RESOLVED",
      resolved_by: { nickname: "demo" },
    });
    expect((await bb().setPullRequestTaskState("PLAT", "api-gateway", pr.id, task.id, "UNRESOLVED")).state).toBe("UNRESOLVED");
    // Tasks are not listed among the comments (as on Cloud).
    expect((await bb().pullRequestCommentsPage("PLAT", "api-gateway", pr.id, { pagelen: 100 })).values.some((c) => c.id === task.id)).toBe(
      false,
    );
  });

  it("approves, withdraws, and requests changes (NEEDS_WORK) as the caller; the author cannot review their own", async () => {
    const pr = openPr();
    await bb().approvePullRequest("PLAT", "api-gateway", pr.id);
    expect(pr.participants.get("demo")).toMatchObject({ approved: true, state: "approved" });
    await bb().unapprovePullRequest("PLAT", "api-gateway", pr.id);
    expect(pr.participants.get("demo")).toMatchObject({ approved: false, state: null });
    await bb().requestChanges("PLAT", "api-gateway", pr.id);
    expect(pr.participants.get("demo")?.state).toBe("changes_requested");
    const got = await bb().pullRequest("PLAT", "api-gateway", pr.id);
    expect((got as { participants?: { user: { nickname: string }; state: string | null }[] }).participants).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ user: expect.objectContaining({ nickname: "demo" }), state: "changes_requested" }),
      ]),
    );
    // Priya (who may see api-gateway) as the author: her own approval is refused.
    pr.author = dcState().users.find((u) => u.nickname === "priya.raman")!;
    pr.participants.delete("priya.raman");
    const priya = as(`Bearer ${sandbox.credentials.people.find((p) => p.nickname === "priya.raman")!.personalAccessToken}`);
    await expect(priya.approvePullRequest("PLAT", "api-gateway", pr.id)).rejects.toMatchObject({
      kind: "bad_request",
      message: expect.stringMatching(/author of a pull request cannot review it/),
    });
  });

  it("searches code in a project (matches as plain text), and an instance without search is a clear not_found", async () => {
    const page = await bb().searchCode("PLAT", "retry");
    expect(page.values.length).toBeGreaterThan(0);
    const hit = page.values[0] as {
      file: { path: string; commit: { repository: { full_name: string } } };
      content_matches: { lines: { segments: { text: string }[] }[] }[];
    };
    expect(hit.file.commit.repository.full_name).toMatch(/^PLAT\//);
    const text = hit.content_matches.flatMap((m) => m.lines.flatMap((l) => l.segments.map((s) => s.text))).join("\n");
    expect(text.toLowerCase()).toContain("retry");
    expect(text).not.toMatch(/<em>|&#x2F;/);
    const all = await bb().searchCode("*", "retry");
    expect(new Set(all.values.map((v) => (v as typeof hit).file.commit.repository.full_name.split("/")[0])).size).toBeGreaterThan(1);
    sandbox.faults.add({ method: "POST", path: "/dc/bitbucket/rest/search/latest/search", status: 404 });
    await expect(bb().searchCode("PLAT", "retry")).rejects.toMatchObject({
      kind: "not_found",
      message: expect.stringMatching(/no code search/),
    });
  });
});
