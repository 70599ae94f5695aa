import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MODERN, modernRpc, startMcpRig, type McpRig } from "../mcp.test-rig";

const REPO = "api-gateway";

async function connect(rig: McpRig, token: string): Promise<Client> {
  const client = new Client({ name: "bitbucket-prs-test", version: "1.0.0" }, { versionNegotiation: { mode: { pin: MODERN } } });
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", rig.baseUrl), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

/** The Bitbucket pull request tools through a real MCP client against the sandbox over HTTP. */
describe("Bitbucket pull request tools", () => {
  let rig: McpRig;
  let client: Client;
  beforeAll(async () => {
    rig = await startMcpRig({ upstream: { maxAttempts: 1 } });
    client = await connect(rig, await rig.token("read write"));
  });
  afterAll(async () => {
    await client?.close();
    await rig?.t.close();
    await rig?.sandbox.close();
  });

  const call = async (name: string, args: Record<string, unknown>) => {
    const res = await client.callTool({ name, arguments: args });
    return { isError: res.isError === true, text: (res.content as { text: string }[])[0]!.text, data: res.structuredContent as Record<string, never> };
  };
  const openPrs = async () => (await call("bitbucket_list_pull_requests", { repository: REPO, maxResults: 50 })).data.pullRequests as unknown as { id: number; title: string; state: string }[];

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
    if (lines > 20) {
      expect(cut.data.truncated).toBe(true);
      expect(cut.data.shownLines as unknown as number).toBeLessThanOrEqual(20);
      expect(cut.text).toMatch(/more lines: raise maxLines, or pass paths\]$/);
    }
    const file = /^diff --git a\/(\S+) b\//m.exec(full.data.diff as unknown as string)![1]!;
    const one = await call("bitbucket_get_pull_request_diff", { repository: REPO, pullRequestId: pr!.id, paths: [file], maxLines: 5000 });
    expect((one.data.diff as unknown as string).match(/^diff --git /gm)).toHaveLength(1);
  });

  it("comments on the PR, on a line, and as a reply; approves and withdraws", async () => {
    const [pr] = await openPrs();
    const top = await call("bitbucket_comment_pull_request", { repository: REPO, pullRequestId: pr!.id, body: "Looks **good** overall." });
    expect(top.isError).toBe(false);
    const reply = await call("bitbucket_comment_pull_request", { repository: REPO, pullRequestId: pr!.id, body: "Agreed.", parentId: top.data.commentId });
    expect(reply.text).toMatch(/in reply to/);
    const diff = (await call("bitbucket_get_pull_request_diff", { repository: REPO, pullRequestId: pr!.id, maxLines: 5000 })).data.diff as unknown as string;
    const file = /^diff --git a\/\S+ b\/(\S+)$/m.exec(diff)![1]!;
    const inline = await call("bitbucket_comment_pull_request", { repository: REPO, pullRequestId: pr!.id, body: "Rename this?", path: file, line: 1 });
    expect(inline.text).toContain(`on ${file}:1`);
    const half = await call("bitbucket_comment_pull_request", { repository: REPO, pullRequestId: pr!.id, body: "x", path: file });
    expect(half.isError).toBe(true);
    expect(half.text).toMatch(/path and line go together/);

    expect((await call("bitbucket_approve_pull_request", { repository: REPO, pullRequestId: pr!.id })).data.approved).toBe(true);
    const read = await call("bitbucket_get_pull_request", { repository: REPO, pullRequestId: pr!.id, includeFiles: false });
    expect((read.data.reviewers as unknown as { approved: boolean }[]).some((r) => r.approved)).toBe(true);
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
    if ((read.data.lines as unknown as number) > 10) expect(read.data.truncated).toBe(true);

    const word = ((read.data.content as unknown as string).match(/[A-Za-z]{5,}/) ?? ["README"])[0];
    const found = await call("bitbucket_search_code", { query: word, repository: REPO });
    expect(found.isError).toBe(false);
    expect((found.data.results as unknown as { repository: string }[]).every((r) => r.repository === REPO)).toBe(true);

    expect((await call("bitbucket_get_file", { repository: REPO, path: "../secrets" })).text).toMatch(/path must be relative/);
    const missing = await call("bitbucket_get_file", { repository: REPO, path: "no/such/file.txt" });
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/\(404\)/);
  });

  it("merges and declines; a second merge is a tool error saying why", async () => {
    const [first, second] = await openPrs();
    const merged = await call("bitbucket_merge_pull_request", { repository: REPO, pullRequestId: first!.id, strategy: "squash" });
    if (merged.isError) {
      // The sandbox seeds some pull requests with conflicts: Bitbucket's refusal comes back as a sentence.
      expect(merged.text).toMatch(/Bitbucket/);
    } else {
      expect(merged.data.state).toBe("MERGED");
      const again = await call("bitbucket_merge_pull_request", { repository: REPO, pullRequestId: first!.id });
      expect(again.isError).toBe(true);
      expect(again.text).toMatch(/can't merge a pull request that is merged/);
    }
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
  afterAll(async () => {
    await rig?.t.close();
    await rig?.sandbox.close();
  });

  it("hides merge and decline from every client, and refuses them", async () => {
    const token = await rig.token("read write");
    const list = await modernRpc(rig.baseUrl, token, "tools/list");
    const names = (list.json.result.tools as { name: string }[]).map((t) => t.name);
    expect(names).toContain("bitbucket_comment_pull_request");
    expect(names).not.toContain("bitbucket_merge_pull_request");
    expect(names).not.toContain("bitbucket_decline_pull_request");
    const merge = await modernRpc(rig.baseUrl, token, "tools/call", { name: "bitbucket_merge_pull_request", arguments: { repository: REPO, pullRequestId: 1 } });
    expect(merge.json.error.code).toBe(-32602);
  });
});
