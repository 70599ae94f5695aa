import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpClient, modernRpc, startMcpRig, type McpRig } from "../mcp.test-rig";
import { closeToolTest, putPolicy, sandboxFault } from "./tool-test-kit";

// @pglite-only: the tools' answers come from the sandbox; the database only holds the token and the audit rows (tool-calls and policy tests run on both).

const REPO = "api-gateway";
const WRITE_TOOLS = [
  "bitbucket_resolve_comment",
  "bitbucket_update_pull_request",
  "bitbucket_create_pull_request_task",
  "bitbucket_resolve_pull_request_task",
];
const READ_TOOLS = [
  "bitbucket_get_pull_request_activity",
  "bitbucket_list_pull_request_commits",
  "bitbucket_list_pull_request_comments",
  "bitbucket_list_pull_request_tasks",
  "bitbucket_get_pull_request_diffstat",
];

interface Event {
  date: string;
  kind: string;
  user: string | null;
  detail: string;
  commentId: number | null;
}
interface Comment {
  id: number;
  author: string | null;
  body: string;
  at: string | null;
  parentId: number | null;
  resolved: boolean;
  url: string | null;
}

/** The Bitbucket review tools (bitbucket-reviews) through a real MCP client against the sandbox over HTTP. */
describe("Bitbucket review tools", () => {
  let rig: McpRig;
  let client: Awaited<ReturnType<typeof mcpClient>>;
  /** The sandbox account's display name (the author of what the tools write). */
  let me: string;
  const policy = (p: Record<string, unknown>) => putPolicy(rig, rig.client.clientId, p);
  beforeAll(async () => {
    rig = await startMcpRig({ upstream: { maxAttempts: 1 } });
    const set = await policy({});
    if (set.status !== 200) throw new Error(`policy: ${set.status}`);
    client = await mcpClient(rig, await rig.token("read write"), "bitbucket-reviews-test");
    me = (await sandboxGet<{ display_name: string }>("/2.0/user")).display_name;
  });
  afterAll(() => closeToolTest(rig, client));

  const call = (name: string, args: Record<string, unknown>) => client.call(name, args);
  const fault = (spec: Record<string, unknown>) => sandboxFault(rig, { ...spec, times: 1 });
  const sandboxGet = async <T>(path: string): Promise<T> =>
    (await (
      await fetch(`${rig.sandbox.url}${path}`, {
        headers: { authorization: `Basic ${Buffer.from("demo:sandbox-app-password").toString("base64")}` },
      })
    ).json()) as T;
  /** The `n`-th open pull request of api-gateway. */
  const openPr = async (n = 0) =>
    (
      (await call("bitbucket_list_pull_requests", { repository: REPO, maxResults: 50 })).data.pullRequests as {
        id: number;
        title: string;
      }[]
    )[n]!;
  const readPr = async (id: number) =>
    (await call("bitbucket_get_pull_request", { repository: REPO, pullRequestId: id, includeFiles: false })).data;
  const comments = async (id: number): Promise<Comment[]> => {
    const out: Comment[] = [];
    let cursor: string | undefined;
    do {
      const page = await call("bitbucket_list_pull_request_comments", {
        repository: REPO,
        pullRequestId: id,
        maxResults: 2,
        ...(cursor ? { cursor } : {}),
      });
      expect(page.isError, page.text).toBe(false);
      out.push(...(page.data.comments as Comment[]));
      cursor = page.data.nextCursor ?? undefined;
    } while (cursor);
    return out;
  };

  it("tells a pull request's activity in time order, the newest entries included", async () => {
    const pr = await openPr();
    await call("bitbucket_comment_pull_request", { repository: REPO, pullRequestId: pr.id, body: "Activity check: **looks fine**." });
    expect((await call("bitbucket_approve_pull_request", { repository: REPO, pullRequestId: pr.id })).isError).toBe(false);
    const res = await call("bitbucket_get_pull_request_activity", { repository: REPO, pullRequestId: pr.id });
    expect(res.isError).toBe(false);
    const events = res.data.events as Event[];
    expect(res.data.truncated).toBe(false);
    expect(events[0]).toMatchObject({ kind: "opened", user: (await readPr(pr.id)).author });
    const times = events.map((e) => Date.parse(e.date));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(events.at(-1)).toMatchObject({ kind: "approved", user: me });
    expect(events.at(-2)).toMatchObject({ kind: "comment", detail: "Activity check: **looks fine**.", commentId: expect.any(Number) });
    expect(res.text).toMatch(new RegExp(`^${events.length} events on #${pr.id} in bridgekeeper/${REPO}:\\n`));
    expect(res.text).toContain(`${me} comment #${events.at(-2)!.commentId}: Activity check`);

    const latest = await call("bitbucket_get_pull_request_activity", { repository: REPO, pullRequestId: pr.id, maxResults: 1 });
    expect(latest.data).toMatchObject({ truncated: true, events: [{ kind: "approved" }] });
    expect(latest.text).toContain("older ones: raise maxResults");
    await call("bitbucket_approve_pull_request", { repository: REPO, pullRequestId: pr.id, approve: false });
  });

  it("lists a pull request's commits, bounded", async () => {
    const pr = await openPr();
    const res = await call("bitbucket_list_pull_request_commits", { repository: REPO, pullRequestId: pr.id });
    expect(res.isError).toBe(false);
    const commits = res.data.commits as { hash: string; message: string; url: string }[];
    const raw = await sandboxGet<{ values: { hash: string }[] }>(`/2.0/repositories/bridgekeeper/${REPO}/pullrequests/${pr.id}/commits`);
    expect(commits.map((c) => c.hash)).toEqual(raw.values.map((c) => c.hash.slice(0, 12)));
    expect(commits[0]!.url).toContain(`/bridgekeeper/${REPO}/commits/`);
    expect(res.text).toContain(`- ${commits[0]!.hash} `);
    if (commits.length > 1)
      expect(
        (await call("bitbucket_list_pull_request_commits", { repository: REPO, pullRequestId: pr.id, maxResults: 1 })).data,
      ).toMatchObject({ truncated: true });
  });

  it("lists the files a pull request changes with status and line counts, capped at maxFiles; the answer fits the listed output schema", async () => {
    const schema = (await client.client.listTools()).tools.find((t) => t.name === "bitbucket_get_pull_request_diffstat")!.outputSchema!;
    const ajv = new Ajv2020({ strict: false });
    const diffstat = async (args: Record<string, unknown>) => {
      const res = await call("bitbucket_get_pull_request_diffstat", args);
      if (!res.isError) expect(ajv.validate(schema, res.data), JSON.stringify(ajv.errors)).toBe(true);
      return res;
    };
    type Raw = {
      values: { status: string; lines_added: number; lines_removed: number; old: { path: string } | null; new: { path: string } | null }[];
    };
    // The open pull request that changes the most files.
    const open = (await call("bitbucket_list_pull_requests", { repository: REPO, maxResults: 50 })).data.pullRequests as {
      id: number;
      title: string;
    }[];
    const raws = await Promise.all(
      open.map((p) => sandboxGet<Raw>(`/2.0/repositories/bridgekeeper/${REPO}/pullrequests/${p.id}/diffstat`)),
    );
    const at = raws.reduce((best, r, i) => (r.values.length > raws[best]!.values.length ? i : best), 0);
    const pr = open[at]!;
    const raw = raws[at]!.values;
    expect(raw.length).toBeGreaterThan(1);

    const res = await diffstat({ repository: REPO, pullRequestId: pr.id });
    expect(res.isError, res.text).toBe(false);
    const files = raw.map((f) => ({
      path: (f.new ?? f.old)!.path,
      status: f.status,
      linesAdded: f.lines_added,
      linesRemoved: f.lines_removed,
    }));
    const added = files.reduce((n, f) => n + f.linesAdded, 0);
    const removed = files.reduce((n, f) => n + f.linesRemoved, 0);
    const url = (await readPr(pr.id)).url as string;
    expect(res.data).toEqual({
      pullRequestId: pr.id,
      title: pr.title,
      url,
      files,
      linesAdded: added,
      linesRemoved: removed,
      truncated: false,
    });
    expect(res.text.split("\n")).toEqual([
      `#${pr.id} "${pr.title}" in bridgekeeper/${REPO}: ${files.length} files changed, +${added} −${removed}`,
      url,
      ...files.map((f) => `- ${f.status} ${f.path} (+${f.linesAdded} −${f.linesRemoved})`),
    ]);
    // The same files and counts as the pull request's unified diff.
    const diff = (await call("bitbucket_get_pull_request_diff", { repository: REPO, pullRequestId: pr.id, maxLines: 5000 })).data
      .diff as string;
    const sections = diff.split(/^(?=diff --git )/m).filter(Boolean);
    expect(sections).toHaveLength(files.length);
    for (const f of files) {
      const section = sections.find((d) => d.includes(` b/${f.path}\n`) || d.startsWith(`diff --git a/${f.path} `))!;
      expect(section, f.path).toBeDefined();
      const body = section.split("\n").filter((l) => !l.startsWith("+++") && !l.startsWith("---"));
      expect(body.filter((l) => l.startsWith("+")).length, f.path).toBe(f.linesAdded);
      expect(body.filter((l) => l.startsWith("-")).length, f.path).toBe(f.linesRemoved);
    }

    const cut = await diffstat({ repository: REPO, pullRequestId: pr.id, maxFiles: 1 });
    expect(cut.data).toMatchObject({
      truncated: true,
      files: [files[0]],
      linesAdded: files[0]!.linesAdded,
      linesRemoved: files[0]!.linesRemoved,
    });
    expect(cut.text).toMatch(
      new RegExp(
        `^#${pr.id} ".+" in bridgekeeper/${REPO}: 1\\+ files changed, \\+${files[0]!.linesAdded} −${files[0]!.linesRemoved} in the first 1 \\(more: raise maxFiles\\)\\n`,
      ),
    );
    expect((await diffstat({ repository: `bridgekeeper/${REPO}`, pullRequestId: pr.id, maxFiles: files.length })).data).toMatchObject({
      truncated: false,
      files,
    });

    for (const [args, message] of [
      [{ repository: REPO, pullRequestId: 0 }, /pullRequestId: pullRequestId must be at least 1/],
      [{ repository: REPO, pullRequestId: pr.id, maxFiles: 501 }, /maxFiles: maxFiles may be at most 500/],
      [{ repository: REPO, pullRequestId: pr.id, maxFiles: 0 }, /maxFiles: maxFiles must be at least 1/],
      [{ repository: REPO }, /pullRequestId: /],
      [
        { repository: REPO, pullRequestId: pr.id, paths: ["x"] },
        /does not take 'paths'; its arguments are repository, pullRequestId, maxFiles/,
      ],
    ] as const) {
      const bad = await diffstat(args);
      expect(bad.isError, JSON.stringify(args)).toBe(true);
      expect(bad.text).toMatch(message);
    }
    const missing = await diffstat({ repository: REPO, pullRequestId: 99_999 });
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/^Bitbucket found nothing there \(404\)/);
    expect((await diffstat({ repository: "no-such-repository", pullRequestId: 1 })).text).toMatch(/^Bitbucket found nothing there \(404\)/);
  });

  it("lists comments with inline places, replies and resolved threads, paged by cursor; resolves and reopens a thread", async () => {
    const pr = await openPr();
    const diff = (await call("bitbucket_get_pull_request_diff", { repository: REPO, pullRequestId: pr.id, maxLines: 5000 })).data
      .diff as string;
    const file = /^diff --git a\/\S+ b\/(\S+)$/m.exec(diff)![1]!;
    const top = (
      await call("bitbucket_comment_pull_request", {
        repository: REPO,
        pullRequestId: pr.id,
        body: "Why this *default*?",
        path: file,
        line: 2,
      })
    ).data.commentId as number;
    const reply = (
      await call("bitbucket_comment_pull_request", { repository: REPO, pullRequestId: pr.id, body: "Because of `retries`.", parentId: top })
    ).data.commentId as number;

    const all = await comments(pr.id);
    // Null fields are left out on the wire: a top comment has no parentId.
    expect(all.find((c) => c.id === top)?.parentId).toBeUndefined();
    expect(all.find((c) => c.id === top)).toMatchObject({
      author: me,
      body: "Why this *default*?",
      at: `${file}:2`,
      resolved: false,
      url: expect.stringContaining(`#comment-${top}`),
    });
    expect(all.find((c) => c.id === reply)).toMatchObject({ body: "Because of `retries`.", parentId: top });
    expect(new Set(all.map((c) => c.id)).size).toBe(all.length);
    const first = await call("bitbucket_list_pull_request_comments", { repository: REPO, pullRequestId: pr.id, maxResults: 100 });
    expect(first.text).toContain(`- #${top} ${me} `);
    expect(first.text).toContain(`[${file}:2]:\n  Why this *default*?`);
    expect(first.text).toContain(`[reply to #${top}]`);

    const resolved = await call("bitbucket_resolve_comment", { repository: REPO, pullRequestId: pr.id, commentId: top });
    expect(resolved.data).toEqual({ commentId: top, resolved: true, already: false });
    expect((await comments(pr.id)).find((c) => c.id === top)!.resolved).toBe(true);
    expect(
      (await call("bitbucket_list_pull_request_comments", { repository: REPO, pullRequestId: pr.id, maxResults: 100 })).text,
    ).toContain(`[${file}:2, resolved]`);
    const again = await call("bitbucket_resolve_comment", { repository: REPO, pullRequestId: pr.id, commentId: top });
    expect(again.data).toMatchObject({ already: true });
    expect(again.text).toMatch(/was already resolved/);
    expect(
      (await call("bitbucket_resolve_comment", { repository: REPO, pullRequestId: pr.id, commentId: top, resolve: false })).data,
    ).toEqual({ commentId: top, resolved: false, already: false });
    expect((await comments(pr.id)).find((c) => c.id === top)!.resolved).toBe(false);

    const onReply = await call("bitbucket_resolve_comment", { repository: REPO, pullRequestId: pr.id, commentId: reply });
    expect(onReply.isError).toBe(true);
    expect(onReply.text).toMatch(/Only a top-level comment can be resolved/);
    const missing = await call("bitbucket_resolve_comment", { repository: REPO, pullRequestId: pr.id, commentId: 1 });
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/\(404\)/);
    const stray = await call("bitbucket_list_pull_request_comments", {
      repository: REPO,
      pullRequestId: pr.id + 1,
      cursor: first.data.nextCursor ?? "abc.def",
    });
    expect(stray.isError).toBe(true);
    expect(stray.text).toMatch(/cursor is not a nextCursor/);
  });

  it("edits a pull request: only what is given changes, reviewers are kept unless replaced", async () => {
    const pr = await openPr(1);
    const before = await readPr(pr.id);
    const retitled = await call("bitbucket_update_pull_request", { repository: REPO, pullRequestId: pr.id, title: "Retitled by a tool" });
    expect(retitled.isError).toBe(false);
    expect(retitled.data).toMatchObject({ id: pr.id, title: "Retitled by a tool", destination: before.destination, url: before.url });
    expect(retitled.text).toMatch(new RegExp(`^Updated #${pr.id} in bridgekeeper/${REPO} \\(title\\): Retitled by a tool`));
    const after = await readPr(pr.id);
    expect(after).toMatchObject({ title: "Retitled by a tool", description: before.description, destination: before.destination });
    const reviewersOf = (p: { reviewers: { name: string; role: string }[] }) =>
      p.reviewers
        .filter((r) => r.role === "REVIEWER")
        .map((r) => r.name)
        .sort();
    expect(reviewersOf(after)).toEqual(reviewersOf(before));
    expect(reviewersOf(after).length).toBeGreaterThan(0);

    // New reviewers replace the list: one member who is neither the author nor a reviewer now.
    const members = (
      await sandboxGet<{ values: { user: { uuid: string; display_name: string } }[] }>("/2.0/workspaces/bridgekeeper/members?pagelen=50")
    ).values.map((m) => m.user);
    const newcomer = members.find((u) => u.display_name !== before.author && !reviewersOf(before).includes(u.display_name))!;
    const description = "## Why\n\n- retries are **bounded**\n- see `config.ts`";
    const replaced = await call("bitbucket_update_pull_request", {
      repository: REPO,
      pullRequestId: pr.id,
      description,
      reviewers: [newcomer.uuid],
    });
    expect(replaced.isError, replaced.text).toBe(false);
    expect(replaced.data.reviewers).toEqual([newcomer.display_name]);
    const read = await readPr(pr.id);
    expect(read).toMatchObject({ title: "Retitled by a tool", description });
    expect(reviewersOf(read)).toEqual([newcomer.display_name]);
    const activity = (await call("bitbucket_get_pull_request_activity", { repository: REPO, pullRequestId: pr.id })).data.events as Event[];
    expect(activity.some((e) => e.kind === "edited" && e.detail.includes("title:") && e.detail.includes("→ Retitled by a tool"))).toBe(
      true,
    );

    const nothing = await call("bitbucket_update_pull_request", { repository: REPO, pullRequestId: pr.id });
    expect(nothing.isError).toBe(true);
    expect(nothing.text).toMatch(/nothing to change: give title, description, destination or reviewers/);
    const badReviewer = await call("bitbucket_update_pull_request", { repository: REPO, pullRequestId: pr.id, reviewers: ["not a uuid!"] });
    expect(badReviewer.text).toMatch(/each reviewer must be a user's \{UUID\} or account id/);
    const noBranch = await call("bitbucket_update_pull_request", { repository: REPO, pullRequestId: pr.id, destination: "no/such-branch" });
    expect(noBranch.isError).toBe(true);
    expect(noBranch.text).toMatch(/Branch not found: no\/such-branch/);
    const merged = (
      (await call("bitbucket_list_pull_requests", { repository: REPO, state: "MERGED" })).data.pullRequests as { id: number }[]
    )[0]!;
    const closed = await call("bitbucket_update_pull_request", { repository: REPO, pullRequestId: merged.id, title: "x" });
    expect(closed.isError).toBe(true);
    expect(closed.text).toMatch(/is merged: only an open pull request can be edited/);
  });

  it("lists, adds and resolves tasks; the pull request's task count follows", async () => {
    const pr = await openPr();
    const count = (await readPr(pr.id)).taskCount as number;
    const listed = await call("bitbucket_list_pull_request_tasks", { repository: REPO, pullRequestId: pr.id, state: "UNRESOLVED" });
    expect(listed.isError).toBe(false);
    expect(listed.data.tasks).toHaveLength(count);

    const comment = (await call("bitbucket_comment_pull_request", { repository: REPO, pullRequestId: pr.id, body: "Needs a test." })).data
      .commentId as number;
    const created = await call("bitbucket_create_pull_request_task", {
      repository: REPO,
      pullRequestId: pr.id,
      content: "Add a test for the **timeout**",
      commentId: comment,
    });
    expect(created.isError).toBe(false);
    expect(created.data).toMatchObject({ content: "Add a test for the **timeout**", state: "UNRESOLVED", creator: me, commentId: comment });
    expect(created.text).toContain(`Added task #${created.data.id} to #${pr.id} in bridgekeeper/${REPO} on comment #${comment}`);
    expect((await readPr(pr.id)).taskCount).toBe(count + 1);
    const open = await call("bitbucket_list_pull_request_tasks", { repository: REPO, pullRequestId: pr.id });
    expect(open.text).toContain(`- [ ] #${created.data.id} Add a test for the **timeout** (on comment #${comment})`);

    const done = await call("bitbucket_resolve_pull_request_task", { repository: REPO, pullRequestId: pr.id, taskId: created.data.id });
    expect(done.data).toMatchObject({ id: created.data.id, state: "RESOLVED" });
    expect((await readPr(pr.id)).taskCount).toBe(count);
    expect(
      (await call("bitbucket_resolve_pull_request_task", { repository: REPO, pullRequestId: pr.id, taskId: created.data.id })).data.state,
    ).toBe("RESOLVED");
    const resolvedOnly = await call("bitbucket_list_pull_request_tasks", { repository: REPO, pullRequestId: pr.id, state: "RESOLVED" });
    expect(resolvedOnly.data.tasks).toEqual([expect.objectContaining({ id: created.data.id })]);
    expect(resolvedOnly.text).toContain(`- [x] #${created.data.id}`);
    expect(
      (
        await call("bitbucket_resolve_pull_request_task", {
          repository: REPO,
          pullRequestId: pr.id,
          taskId: created.data.id,
          resolved: false,
        })
      ).data.state,
    ).toBe("UNRESOLVED");
    expect((await readPr(pr.id)).taskCount).toBe(count + 1);

    const empty = await call("bitbucket_create_pull_request_task", { repository: REPO, pullRequestId: pr.id, content: "  " });
    expect(empty.isError).toBe(true);
    expect(empty.text).toMatch(/content must not be empty/);
    const badState = await call("bitbucket_list_pull_request_tasks", { repository: REPO, pullRequestId: pr.id, state: "DONE" });
    expect(badState.text).toMatch(/state must be UNRESOLVED or RESOLVED/);
    const missing = await call("bitbucket_resolve_pull_request_task", { repository: REPO, pullRequestId: pr.id, taskId: 1 });
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/\(404\)/);
  });

  it("repositories outside the allow-list are refused; read-only clients see only the reads; upstream failures are tool errors", async () => {
    const pr = await openPr();
    try {
      expect((await policy({ bitbucketRepositories: ["billing-service"] })).status).toBe(200);
      for (const [tool, args] of [
        ["bitbucket_get_pull_request_activity", {}],
        ["bitbucket_list_pull_request_commits", {}],
        ["bitbucket_list_pull_request_comments", {}],
        ["bitbucket_list_pull_request_tasks", {}],
        ["bitbucket_resolve_comment", { commentId: 1 }],
        ["bitbucket_update_pull_request", { title: "outside" }],
        ["bitbucket_create_pull_request_task", { content: "outside" }],
        ["bitbucket_resolve_pull_request_task", { taskId: 1 }],
      ] as const) {
        const res = await call(tool, { repository: REPO, pullRequestId: pr.id, ...args });
        expect(res.isError, tool).toBe(true);
        expect(res.text, tool).toMatch(/may not use the Bitbucket repository bridgekeeper\/api-gateway/);
      }
    } finally {
      await policy({});
    }
    expect((await readPr(pr.id)).title).not.toBe("outside");

    const readOnly = ((await modernRpc(rig.baseUrl, await rig.token("read"), "tools/list")).json.result.tools as { name: string }[]).map(
      (t) => t.name,
    );
    for (const n of READ_TOOLS) expect(readOnly).toContain(n);
    for (const n of WRITE_TOOLS) expect(readOnly).not.toContain(n);
    const everything = (
      (await modernRpc(rig.baseUrl, await rig.token("read write"), "tools/list")).json.result.tools as { name: string }[]
    ).map((t) => t.name);
    for (const n of [...READ_TOOLS, ...WRITE_TOOLS]) expect(everything).toContain(n);

    expect(
      (await fault({ path: `/2.0/repositories/bridgekeeper/${REPO}/pullrequests/${pr.id}/activity`, status: 500 })).status,
    ).toBeLessThan(300);
    const down = await call("bitbucket_get_pull_request_activity", { repository: REPO, pullRequestId: pr.id });
    expect(down.isError).toBe(true);
    expect(down.text).toMatch(/^Bitbucket failed with an internal error \(500\)/);
    expect((await call("bitbucket_get_pull_request_activity", { repository: REPO, pullRequestId: pr.id })).isError).toBe(false);
    // A write the upstream refuses changes nothing.
    const count = (await readPr(pr.id)).taskCount as number;
    expect(
      (await fault({ method: "POST", path: `/2.0/repositories/bridgekeeper/${REPO}/pullrequests/${pr.id}/tasks`, status: 503 })).status,
    ).toBeLessThan(300);
    const refused = await call("bitbucket_create_pull_request_task", { repository: REPO, pullRequestId: pr.id, content: "Not added" });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/^Bitbucket failed with an internal error \(503\)/);
    expect((await readPr(pr.id)).taskCount).toBe(count);
    for (const tool of READ_TOOLS) {
      const missing = await call(tool, { repository: REPO, pullRequestId: 99_999 });
      expect(missing.isError, tool).toBe(true);
      expect(missing.text, tool).toMatch(/\(404\)/);
    }
  });
});
