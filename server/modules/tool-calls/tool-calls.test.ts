import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolCallPage } from "../../../contract/tool-calls";
import { signedInAs } from "../../test/factories";
import { modernRpc, startMcpRig, type McpRig } from "../../mcp/mcp.test-rig";
import { objectsOf, redactArguments } from "./tool-calls.service";

describe("tool-call audit: what a row keeps", () => {
  it("keeps prose as its length, cuts long strings, bounds nested values", () => {
    const long = "x".repeat(500);
    expect(
      redactArguments({
        issueKey: "BK-1",
        description: "secret plan ".repeat(10),
        summary: long,
        labels: ["a", "b"],
        fields: { customfield_1: { deep: { deeper: 1 }, list: [[1, 2, 3]] } },
      }),
    ).toEqual({
      issueKey: "BK-1",
      description: "[120 characters]",
      summary: `${"x".repeat(200)}… [500 characters]`,
      labels: ["a", "b"],
      fields: { customfield_1: { deep: "[object of 1]", list: "[list of 1]" } },
    });
    expect(redactArguments(null)).toEqual({});
  });

  it("cuts keys like values and bounds the whole, however many and however long the names", () => {
    const name = "k".repeat(76_000);
    const cut = redactArguments({ [name]: 1 });
    expect(Object.keys(cut)).toEqual([`${"k".repeat(100)}… [76000 characters]`]);
    // 20 long names at each of three levels are 8,000 leaves (megabytes): the audit keeps a few thousand characters.
    const level = (depth: number): Record<string, unknown> =>
      Object.fromEntries(
        Array.from({ length: 20 }, (_, i) => [`${"n".repeat(500)}${i}`, depth === 0 ? "v".repeat(500) : level(depth - 1)]),
      );
    const kept = JSON.stringify(redactArguments(level(2)));
    expect(kept.length).toBeLessThan(10_000);
    expect(kept).toMatch(/more left out/);
    const list = JSON.stringify(redactArguments({ keys: Array.from({ length: 10_000 }, () => "x".repeat(199)) }));
    expect(list.length).toBeLessThan(10_000);
  });

  it("cuts each recorded object and bounds how many", () => {
    const objects = objectsOf(
      "jira",
      { issueKey: `BK-${"1".repeat(1_000_000)}`, issueKeys: Array.from({ length: 10_000 }, (_, i) => `BK-${i}`) },
      undefined,
      null,
    );
    expect(objects).toHaveLength(50);
    expect(objects[0]).toBe(`BK-${"1".repeat(125)}… [1000003 characters]`);
    expect(objectsOf("confluence", { pageId: "9".repeat(5_000) }, undefined, null)[0]!.length).toBeLessThan(160);
    expect(objectsOf("bitbucket", { repository: "r".repeat(5_000), pullRequestId: 1 }, {}, "ws")[0]!.length).toBeLessThan(160);
  });

  it("names the upstream objects of each service", () => {
    expect(objectsOf("jira", { issueKey: "bk-2" }, { issues: [{ key: "BK-3" }, { key: "BK-4" }] }, null)).toEqual(["BK-2", "BK-3", "BK-4"]);
    expect(objectsOf("jira", { sprintId: 7, issueKeys: ["bk-5", "OPS-1"] }, { sprintId: 7, moved: [{ key: "BK-5" }] }, null)).toEqual([
      "BK-5",
      "OPS-1",
      "sprint:7",
    ]);
    expect(objectsOf("jira", { boardId: 1, name: "S" }, { sprintId: 9 }, null)).toEqual(["sprint:9", "board:1"]);
    expect(objectsOf("jira", { epicKey: "bk-3" }, { epic: "BK-3", issues: [{ key: "BK-4" }] }, null)).toEqual(["BK-3", "BK-4"]);
    // A board's or sprint's listing names the board or sprint first: 60 issues cannot push it out of the bound.
    const many = Array.from({ length: 60 }, (_, i) => ({ key: `BK-${i + 1}` }));
    const board = objectsOf("jira", { boardId: 4 }, { boardId: 4, issues: many }, null);
    expect(board).toHaveLength(50);
    expect(board.slice(0, 2)).toEqual(["board:4", "BK-1"]);
    expect(objectsOf("jira", { sprintId: 8 }, { issues: many }, null)[0]).toBe("sprint:8");
    expect(
      objectsOf("confluence", { pageId: "12", prefix: "my" }, { pageId: "12", labels: [{ name: "ops", prefix: "global" }] }, null),
    ).toEqual(["page:12"]);
    expect(objectsOf("confluence", { pageId: "12" }, { results: [{ id: "13" }] }, null)).toEqual(["page:12", "page:13"]);
    expect(objectsOf("confluence", { pageId: "12", targetId: "14" }, { pageId: "12" }, null)).toEqual(["page:12", "page:14"]);
    expect(objectsOf("confluence", { commentId: "20" }, { pageId: "15" }, null)).toEqual(["page:15"]);
    expect(objectsOf("bitbucket", { repository: "api-gateway", pullRequestId: 7 }, {}, "bridgekeeper")).toEqual([
      "bridgekeeper/api-gateway#7",
    ]);
    expect(objectsOf("bitbucket", { repository: "other/web", pullRequestId: 3 }, {}, "bridgekeeper")).toEqual(["other/web#3"]);
    expect(objectsOf("bitbucket", {}, { workspace: "acme", repositories: [{ slug: "a" }] }, null)).toEqual(["acme/a"]);
  });
});

/** Every MCP tool call is a row an administrator can read (GET /api/admin/tool-calls), newest first. */
describe("tool-call audit: recorded for every call, read by administrators", () => {
  let rig: McpRig;
  let token: string;
  beforeAll(async () => {
    rig = await startMcpRig();
    token = await rig.token();
  });
  afterAll(async () => {
    await rig?.t.close();
    await rig?.sandbox.close();
  });
  const calls = async (query = "") => {
    await rig.t.container.services.toolCalls.flush();
    return rig.admin.get<ToolCallPage>(`/api/admin/tool-calls${query}`);
  };

  it("records who called which tool with what, how it ended and what it touched", async () => {
    const ok = await modernRpc(rig.baseUrl, token, "tools/call", { name: "jira_get_issue", arguments: { issueKey: "BK-1" } });
    expect(ok.status).toBe(200);
    const failed = await modernRpc(
      rig.baseUrl,
      token,
      "tools/call",
      { name: "jira_add_comment", arguments: { issueKey: "BK-999999", body: "A private note about the plan" } },
      2,
    );
    expect(failed.json.result.isError).toBe(true);

    const page = await calls();
    expect(page.status).toBe(200);
    const [comment, read] = page.body.items;
    expect(read).toMatchObject({
      tool: "jira_get_issue",
      clientId: rig.client.clientId,
      userId: null,
      outcome: "ok",
      error: null,
      arguments: { issueKey: "BK-1" },
      objects: ["BK-1"],
      requestId: ok.headers.get("x-request-id"),
    });
    expect(read!.durationMs).toBeGreaterThan(0);
    expect(comment).toMatchObject({
      tool: "jira_add_comment",
      outcome: "error",
      arguments: { issueKey: "BK-999999", body: "[29 characters]" },
      objects: ["BK-999999"],
      requestId: failed.headers.get("x-request-id"),
    });
    expect(comment!.error).toMatch(/found nothing there \(404\)/);
    expect(JSON.stringify(page.body)).not.toContain("private note");
  });

  it("keeps arguments with quotes, backslashes and other scripts exactly", async () => {
    const jql = 'summary ~ "say \\"hi\\"" AND text ~ "{a,b}" AND labels = "Grüße_日本"';
    await modernRpc(rig.baseUrl, token, "tools/call", { name: "jira_search", arguments: { jql, maxResults: 1 } }, 3);
    const [row] = (await calls("?tool=jira_search&limit=1")).body.items;
    expect(row!.arguments).toEqual({ jql, maxResults: 1 });
  });

  it("filters by tool, outcome and client, and pages with a cursor", async () => {
    for (let i = 0; i < 3; i++)
      await modernRpc(rig.baseUrl, token, "tools/call", { name: "jira_search", arguments: { jql: "project = BK", maxResults: 1 } }, 10 + i);
    const searches = await calls("?tool=jira_search");
    expect(searches.body.items.map((c) => c.tool)).toEqual(["jira_search", "jira_search", "jira_search", "jira_search"]);
    expect((await calls("?outcome=error")).body.items.every((c) => c.outcome === "error")).toBe(true);
    expect((await calls(`?clientId=${encodeURIComponent(rig.client.clientId)}`)).body.items.length).toBeGreaterThanOrEqual(5);
    expect((await calls("?clientId=bk_someone_else")).body.items).toHaveLength(0);

    const first = await calls("?tool=jira_search&limit=2");
    expect(first.body.items).toHaveLength(2);
    const second = await calls(`?tool=jira_search&limit=2&before=${first.body.nextCursor}`);
    expect(second.body.items).toHaveLength(2);
    expect(second.body.nextCursor).toBeNull();
    expect(new Set([...first.body.items, ...second.body.items].map((c) => c.id)).size).toBe(4);
    // The cursor is sealed and bound to its filters: edited, or carried to another tool's list, it is refused.
    const [body, tag] = first.body.nextCursor!.split(".");
    const edited = `${body!.slice(0, -1)}${body!.endsWith("A") ? "B" : "A"}.${tag}`;
    for (const query of [`?tool=jira_search&limit=2&before=${edited}`, `?tool=jira_get_issue&limit=2&before=${first.body.nextCursor}`]) {
      const res = await rig.admin.get<{ error: { fields: Record<string, string> } }>(`/api/admin/tool-calls${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.fields.before, query).toBeDefined();
    }
  });

  it("bad filters are 400 with field messages; only administrators may read it", async () => {
    for (const query of ["?limit=0", "?outcome=maybe", "?tool=Bad%20Tool", "?before=bm90LWEtY3Vyc29y"]) {
      const res = await rig.admin.get<{ error: { fields: Record<string, string> } }>(`/api/admin/tool-calls${query}`);
      expect(res.status, query).toBe(400);
      expect(Object.keys(res.body.error.fields).length).toBeGreaterThan(0);
    }
    const operator = (await signedInAs(rig.t, ["operator"])).client;
    expect((await operator.get("/api/admin/tool-calls")).status).toBe(403);
    expect((await fetch(`${rig.baseUrl}/api/admin/tool-calls`)).status).toBe(401);
  });
});

/** The SDK's path (what answers whatever is not answered directly) records its calls the same way. */
describe("tool-call audit: the SDK path", () => {
  let rig: McpRig;
  beforeAll(async () => {
    rig = await startMcpRig({ MCP_FAST_LANE: false });
  });
  afterAll(async () => {
    await rig?.t.close();
    await rig?.sandbox.close();
  });

  it("records a call served by the SDK, with its request id", async () => {
    const token = await rig.token("read");
    const res = await modernRpc(rig.baseUrl, token, "tools/call", { name: "confluence_get_page", arguments: { pageId: "not-a-page" } });
    expect(res.json.result.isError).toBe(true);
    await rig.t.container.services.toolCalls.flush();
    const page = await rig.admin.get<ToolCallPage>("/api/admin/tool-calls?tool=confluence_get_page");
    expect(page.body.items).toHaveLength(1);
    expect(page.body.items[0]).toMatchObject({
      tool: "confluence_get_page",
      outcome: "error",
      clientId: rig.client.clientId,
      requestId: res.headers.get("x-request-id"),
    });
  });
});
