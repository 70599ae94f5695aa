import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpClient, modernRpc, startMcpRig, type McpRig } from "../mcp.test-rig";
import { closeToolTest, putPolicy } from "./tool-test-kit";

// @pglite-only: the tools' answers come from the sandbox; the database only holds the token and the audit rows (tool-calls and policy tests run on both).

const REPO = "api-gateway";

/** The Bitbucket pull request tools through a real MCP client against the sandbox over HTTP. */
describe("Bitbucket pull request tools", () => {
  let rig: McpRig;
  let client: Awaited<ReturnType<typeof mcpClient>>;
  beforeAll(async () => {
    rig = await startMcpRig({ upstream: { maxAttempts: 1 } });
    client = await mcpClient(rig, await rig.token("read write"), "bitbucket-prs-test");
  });
  afterAll(() => closeToolTest(rig, client));

  const call = (name: string, args: Record<string, unknown>) => client.call(name, args);
  const openPrs = async () =>
    (await call("bitbucket_list_pull_requests", { repository: REPO, maxResults: 50 })).data.pullRequests as unknown as {
      id: number;
      title: string;
      state: string;
    }[];

  it("lists open pull requests, and others by state", async () => {
    const open = await call("bitbucket_list_pull_requests", { repository: REPO });
    expect(open.isError).toBe(false);
    const prs = open.data.pullRequests as unknown as { id: number; state: string; url: string | null }[];
    expect(prs.length).toBeGreaterThan(0);
    expect(prs.every((p) => p.state === "OPEN")).toBe(true);
    expect(open.text).toMatch(/open pull requests? in bridgekeeper\/api-gateway/);
    const merged = await call("bitbucket_list_pull_requests", { repository: REPO, state: "MERGED" });
    expect((merged.data.pullRequests as unknown as { state: string }[]).every((p) => p.state === "MERGED")).toBe(true);
  });

  it("reads a diff, bounded with a truncated flag, and narrowed to given files", async () => {
    const [pr] = await openPrs();
    const full = await call("bitbucket_get_pull_request_diff", { repository: REPO, pullRequestId: pr!.id, maxLines: 5000 });
    expect(full.isError).toBe(false);
    expect(full.data.diff).toMatch(/^diff --git a\//);
    expect(full.data.truncated).toBe(false);
    const lines = full.data.lines as unknown as number;

    const cut = await call("bitbucket_get_pull_request_diff", { repository: REPO, pullRequestId: pr!.id, maxLines: 20 });
    expect(lines).toBeGreaterThan(20);
    expect(cut.data.truncated).toBe(true);
    expect(cut.data.shownLines as unknown as number).toBeLessThanOrEqual(20);
    expect(cut.text).toMatch(/more lines: raise maxLines, or pass paths\]$/);
    const file = /^diff --git a\/(\S+) b\//m.exec(full.data.diff as unknown as string)![1]!;
    const one = await call("bitbucket_get_pull_request_diff", { repository: REPO, pullRequestId: pr!.id, paths: [file], maxLines: 5000 });
    expect((one.data.diff as unknown as string).match(/^diff --git /gm)).toHaveLength(1);
  });

  it("a large diff (the seeded 700-line pull request) is cut at maxLines, flagged, and narrowed by paths", async () => {
    const prs = (await call("bitbucket_list_pull_requests", { repository: "config-service" })).data.pullRequests as unknown as {
      id: number;
      title: string;
    }[];
    const large = prs.find((p) => p.title === "Validate every setting against its schema")!;
    const cut = await call("bitbucket_get_pull_request_diff", { repository: "config-service", pullRequestId: large.id, maxLines: 500 });
    expect(cut.data).toMatchObject({ truncated: true, shownLines: 500 });
    expect(cut.data.lines as unknown as number).toBeGreaterThan(600);
    expect(cut.text).toMatch(/more lines: raise maxLines, or pass paths\]$/);
    const one = await call("bitbucket_get_pull_request_diff", {
      repository: "config-service",
      pullRequestId: large.id,
      maxLines: 500,
      paths: ["internal/schema/validate_cases_test.go"],
    });
    expect(one.data.truncated).toBe(false);
    expect((one.data.diff as unknown as string).match(/^diff --git /gm)).toHaveLength(1);
  });

  it("comments on the PR, on a line, and as a reply; approves and withdraws", async () => {
    const [pr] = await openPrs();
    const top = await call("bitbucket_comment_pull_request", { repository: REPO, pullRequestId: pr!.id, body: "Looks **good** overall." });
    expect(top.isError).toBe(false);
    const reply = await call("bitbucket_comment_pull_request", {
      repository: REPO,
      pullRequestId: pr!.id,
      body: "Agreed.",
      parentId: top.data.commentId,
    });
    expect(reply.text).toMatch(/in reply to/);
    const diff = (await call("bitbucket_get_pull_request_diff", { repository: REPO, pullRequestId: pr!.id, maxLines: 5000 })).data
      .diff as unknown as string;
    const file = /^diff --git a\/\S+ b\/(\S+)$/m.exec(diff)![1]!;
    const inline = await call("bitbucket_comment_pull_request", {
      repository: REPO,
      pullRequestId: pr!.id,
      body: "Rename this?",
      path: file,
      line: 1,
    });
    expect(inline.text).toContain(`on ${file}:1`);
    const half = await call("bitbucket_comment_pull_request", { repository: REPO, pullRequestId: pr!.id, body: "x", path: file });
    expect(half.isError).toBe(true);
    expect(half.text).toMatch(/path and line go together/);

    expect((await call("bitbucket_approve_pull_request", { repository: REPO, pullRequestId: pr!.id })).data.approved).toBe(true);
    const read = await call("bitbucket_get_pull_request", { repository: REPO, pullRequestId: pr!.id, includeFiles: false });
    expect((read.data.reviewers as unknown as { approved: boolean }[]).some((r) => r.approved)).toBe(true);
    // workspace/slug names the same repository; a separate workspace argument is not silently dropped.
    expect(
      (await call("bitbucket_get_pull_request", { repository: `bridgekeeper/${REPO}`, pullRequestId: pr!.id, includeFiles: false })).data,
    ).toEqual(read.data);
    const stray = await call("bitbucket_get_pull_request", { workspace: "elsewhere", repository: REPO, pullRequestId: pr!.id });
    expect(stray.isError).toBe(true);
    expect(stray.text).toMatch(
      /^Invalid arguments\. bitbucket_get_pull_request does not take 'workspace'; its arguments are repository, pullRequestId, includeFiles\./,
    );
    const elsewhere = await call("bitbucket_get_pull_request", { repository: `no-such-workspace/${REPO}`, pullRequestId: pr!.id });
    expect(elsewhere.isError).toBe(true);
    expect(elsewhere.text).toMatch(/\(404\)/);
    expect((await call("bitbucket_approve_pull_request", { repository: REPO, pullRequestId: pr!.id, approve: false })).isError).toBe(false);
  });

  it("searches code and reads files and directories at the main branch or a ref", async () => {
    const top = await call("bitbucket_get_file", { repository: REPO });
    expect(top.isError).toBe(false);
    expect(top.data.kind).toBe("directory");
    const entries = top.data.entries as unknown as { path: string; type: string }[];
    const file = entries.find((e) => e.type === "file")!;
    const read = await call("bitbucket_get_file", { repository: REPO, path: file.path, maxLines: 10 });
    expect(read.isError).toBe(false);
    expect(read.data).toMatchObject({ kind: "file", path: file.path });
    expect(read.text).toMatch(/```/);
    expect(read.data.truncated).toBe((read.data.lines as unknown as number) > 10);

    const word = ((read.data.content as unknown as string).match(/[A-Za-z]{5,}/) ?? ["README"])[0];
    const found = await call("bitbucket_search_code", { query: word, repository: REPO });
    expect(found.isError).toBe(false);
    expect((found.data.results as unknown as { repository: string }[]).every((r) => r.repository === REPO)).toBe(true);

    expect((await call("bitbucket_get_file", { repository: REPO, path: "../secrets" })).text).toMatch(/path must be relative/);
    const missing = await call("bitbucket_get_file", { repository: REPO, path: "no/such/file.txt" });
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/\(404\)/);
  });

  it("merges and declines; a conflicted or second merge is a tool error saying why", async () => {
    // The sandbox seeds a few open pull requests with conflicts: try them in turn until one merges,
    // and every refusal on the way must be Bitbucket's sentence about the conflict.
    const open = await openPrs();
    let mergedId: number | null = null;
    for (const pr of open) {
      const merged = await call("bitbucket_merge_pull_request", { repository: REPO, pullRequestId: pr.id, strategy: "squash" });
      if (!merged.isError) {
        expect(merged.data.state).toBe("MERGED");
        mergedId = pr.id;
        break;
      }
      expect(merged.text).toMatch(/Merge conflict: resolve the conflicts in /);
    }
    expect(mergedId).not.toBeNull();
    const again = await call("bitbucket_merge_pull_request", { repository: REPO, pullRequestId: mergedId! });
    expect(again.isError).toBe(true);
    expect(again.text).toMatch(/can't merge a pull request that is merged/);

    const second = open.find((pr) => pr.id !== mergedId);
    const declined = await call("bitbucket_decline_pull_request", { repository: REPO, pullRequestId: second!.id });
    expect(declined.isError).toBe(false);
    expect(declined.data.state).toBe("DECLINED");
    const bad = await call("bitbucket_merge_pull_request", { repository: REPO, pullRequestId: second!.id, strategy: "rebase" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/strategy must be merge_commit, squash or fast_forward/);
  });
});

describe("MCP_DESTRUCTIVE_TOOLS=false", () => {
  let rig: McpRig;
  beforeAll(async () => {
    rig = await startMcpRig({ MCP_DESTRUCTIVE_TOOLS: false });
  });
  afterAll(() => closeToolTest(rig));

  it("hides merge, decline, the Jira deletes and the Confluence page delete from every client, and refuses them", async () => {
    // Every toolset on: the switch hides destructive tools whatever the policy offers.
    expect((await putPolicy(rig, rig.client.clientId)).status).toBe(200);
    const token = await rig.token("read write");
    const list = await modernRpc(rig.baseUrl, token, "tools/list");
    const names = (list.json.result.tools as { name: string }[]).map((t) => t.name);
    expect(names).toContain("bitbucket_comment_pull_request");
    expect(names).not.toContain("bitbucket_merge_pull_request");
    expect(names).not.toContain("bitbucket_decline_pull_request");
    expect(names).toContain("jira_edit_comment");
    expect(names).not.toContain("jira_delete_comment");
    expect(names).not.toContain("jira_delete_issue");
    expect(names).toContain("confluence_update_page_section");
    expect(names).not.toContain("confluence_delete_page");
    const merge = await modernRpc(rig.baseUrl, token, "tools/call", {
      name: "bitbucket_merge_pull_request",
      arguments: { repository: REPO, pullRequestId: 1 },
    });
    expect(merge.json.error.code).toBe(-32602);
  });
});
