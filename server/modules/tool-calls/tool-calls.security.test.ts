import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LogEntryDto } from "../../../contract/logs";
import type { OAuthClientDto } from "../../../contract/oauth";
import type { ToolCallDto, ToolCallPage } from "../../../contract/tool-calls";
import { MODERN, modernRpc, rpc, startMcpRig, type McpRig } from "../../mcp/mcp.test-rig";
import { createClient } from "../../oauth/oauth.adversarial.helpers";

/**
 * What one client sends cannot erase or swell what the audit and the request log keep of others
 * (issue 25 items 2 and 7): text PostgreSQL cannot store is made storable before it is queued,
 * and every recorded argument, key and object is bounded.
 */
describe("tool-call audit and request log: one client cannot erase or swell another's rows", () => {
  let rig: McpRig;
  let other: OAuthClientDto;
  let xToken: string;
  let yToken: string;
  beforeAll(async () => {
    // Only an explicit flush writes: every row of a test lands in one batch.
    rig = await startMcpRig({ requestLog: { flushIntervalMs: 3_600_000 } });
    other = await createClient(rig, { name: "Client X" });
    xToken = await rig.token("read write", other);
    yToken = await rig.token();
  });
  afterAll(async () => {
    await rig?.t.close();
    await rig?.sandbox.close();
  });
  const flush = async () => {
    await rig.t.container.services.toolCalls.flush();
    await rig.t.container.services.requestLog.flush();
  };
  const toolCalls = async (query: string) => {
    await flush();
    return rig.admin.get<ToolCallPage>(`/api/admin/tool-calls${query}`);
  };
  const logs = async (query: string) => {
    await flush();
    return (await rig.admin.get<LogEntryDto[]>(`/api/admin/logs${query}`)).body;
  };

  it("a NUL or a lone surrogate in one client's call loses none of another client's rows in the same batch", async () => {
    const jql = 'summary ~ "a\u0000b" AND text ~ "\ud800c\udfff"';
    const bad = await modernRpc(rig.baseUrl, xToken, "tools/call", { name: "jira_search", arguments: { jql, maxResults: 1 } });
    expect(bad.status).toBe(200);
    // A JSON-RPC method and a tool name a client made up, NUL and all: answered, and logged.
    await rpc(rig.baseUrl, xToken, { jsonrpc: "2.0", id: 2, method: "tools/call\u0000", params: {} }, { "mcp-protocol-version": MODERN });
    await rpc(
      rig.baseUrl,
      xToken,
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "jira_search\u0000\ud800", arguments: {} } },
      { "mcp-protocol-version": MODERN },
    );
    for (let i = 1; i <= 5; i++)
      expect(
        (await modernRpc(rig.baseUrl, yToken, "tools/call", { name: "jira_get_issue", arguments: { issueKey: `BK-${i}` } }, 10 + i)).status,
      ).toBe(200);

    const ys = (await toolCalls(`?clientId=${encodeURIComponent(rig.client.clientId)}`)).body.items;
    expect(ys.map((c) => c.objects[0]).sort()).toEqual(["BK-1", "BK-2", "BK-3", "BK-4", "BK-5"]);
    expect(await logs(`?clientId=${encodeURIComponent(rig.client.clientId)}&tool=jira_get_issue`)).toHaveLength(5);

    const [x] = (await toolCalls(`?clientId=${encodeURIComponent(other.clientId)}`)).body.items;
    expect(x).toMatchObject({ tool: "jira_search", arguments: { jql: 'summary ~ "a\ufffdb" AND text ~ "\ufffdc\ufffd"', maxResults: 1 } });
    const xLogs = await logs(`?clientId=${encodeURIComponent(other.clientId)}`);
    expect(xLogs.map((e) => e.rpcMethod)).toContain("tools/call\ufffd");
    expect(xLogs.map((e) => e.toolName)).toContain("jira_search\ufffd\ufffd");
  });

  it("huge argument names, a huge issue key or huge nested keys leave a bounded row, and a page of 50 stays small", async () => {
    const huge = (c: string, i: number, size = 76_000) => `${c.repeat(size)}${i}`;
    for (let i = 0; i < 5; i++)
      await modernRpc(
        rig.baseUrl,
        xToken,
        "tools/call",
        { name: "jira_get_issue", arguments: { issueKey: "BK-1", [huge("k", i)]: 1 } },
        100 + i,
      );
    await modernRpc(
      rig.baseUrl,
      xToken,
      "tools/call",
      { name: "jira_get_issue", arguments: { issueKey: `BK-${"1".repeat(1_000_000)}` } },
      110,
    );
    const nested = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [huge("n", i, 20_000), { [huge("m", i, 20_000)]: "v".repeat(150) }]),
    );
    await modernRpc(
      rig.baseUrl,
      xToken,
      "tools/call",
      { name: "jira_create_issue", arguments: { projectKey: "BK", summary: "Bounded", fields: { customfield_10016: nested } } },
      111,
    );

    const page = await toolCalls(`?clientId=${encodeURIComponent(other.clientId)}&limit=50`);
    expect(page.status).toBe(200);
    expect(page.text.length).toBeLessThan(100_000);
    const rows = page.body.items.filter((c) => c.tool !== "jira_search");
    expect(rows).toHaveLength(7);
    for (const row of rows) expect(JSON.stringify(row).length, row.tool).toBeLessThan(12_000);

    // Refused by argument validation: the tool, the client and the (bounded) error; no arguments, no objects.
    const refused = rows.filter((c) => c.tool === "jira_get_issue");
    expect(refused).toHaveLength(6);
    for (const row of refused) {
      expect(row).toMatchObject({ outcome: "error", arguments: {}, objects: [], clientId: other.clientId });
      expect(row.error).toMatch(/^Invalid arguments\./);
      expect(row.error!.length).toBeLessThanOrEqual(1000);
    }
    const created = rows.find((c) => c.tool === "jira_create_issue") as ToolCallDto;
    expect(created.arguments).toMatchObject({ projectKey: "BK", summary: "Bounded" });
  });
});
