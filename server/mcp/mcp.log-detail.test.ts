import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LogEntryDetailDto, LogEntryDto } from "../../contract/logs";
import { modernRpc, startMcpRig, type McpRig } from "./mcp.test-rig";

/** A logged MCP request's detail (issue 12 item 3): the headers safe to show, the JSON-RPC method, the tool and its audit entry. */
describe("request log detail of an MCP call", () => {
  let rig: McpRig;
  beforeAll(async () => {
    rig = await startMcpRig();
  });
  afterAll(async () => {
    await rig?.t.close();
    await rig?.sandbox.close();
  });

  it("shows what the client sent (never its token), and the tool call the request made", async () => {
    const token = await rig.token("read");
    const call = await modernRpc(rig.baseUrl, token, "tools/call", {
      name: "jira_search",
      arguments: { jql: "project = BK", maxResults: 2 },
    });
    expect(call.status).toBe(200);
    const requestId = call.headers.get("x-request-id")!;
    await rig.t.container.services.requestLog.flush();
    await rig.t.container.services.toolCalls.flush();
    const [entry] = (await rig.admin.get<LogEntryDto[]>(`/api/admin/logs?tool=jira_search&limit=1`)).body;
    expect(entry).toMatchObject({
      method: "POST",
      endpoint: "/mcp",
      statusCode: 200,
      rpcMethod: "tools/call",
      toolName: "jira_search",
      clientId: rig.client.clientId,
    });
    const detail = (await rig.admin.get<LogEntryDetailDto>(`/api/admin/logs/${entry!.id}`)).body;
    expect(detail.requestId).toBe(requestId);
    expect(detail.headers).toMatchObject({
      "content-type": "application/json",
      "mcp-method": "tools/call",
      "mcp-name": "jira_search",
      "mcp-protocol-version": "2026-07-28",
    });
    expect(Object.keys(detail.headers)).not.toContain("authorization");
    expect(JSON.stringify(detail)).not.toContain(token);
    expect(detail.toolCall).toMatchObject({
      tool: "jira_search",
      outcome: "ok",
      requestId,
      clientId: rig.client.clientId,
      arguments: { jql: "project = BK", maxResults: 2 },
    });

    // A request that ran no tool has no tool call.
    const list = await modernRpc(rig.baseUrl, token, "tools/list");
    expect(list.status).toBe(200);
    await rig.t.container.services.requestLog.flush();
    const listed = (await rig.admin.get<LogEntryDto[]>(`/api/admin/logs?search=tools%2Flist&limit=5`)).body;
    const row = listed.find((e) => e.rpcMethod === "tools/list")!;
    expect((await rig.admin.get<LogEntryDetailDto>(`/api/admin/logs/${row.id}`)).body.toolCall).toBeNull();
  });
});
