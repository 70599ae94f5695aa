import { describe, expect, it } from "vitest";
import type { LogEntryDetailDto, LogEntryDto, LogSummaryDto } from "../../contract/logs";
import type { TrafficMinuteDto } from "../../contract/stats";
import { createClient } from "../oauth/oauth.adversarial.helpers";
import { signedInAs } from "../test/factories";
import { mcpRigForFile, modernRpc, rpc, type McpRig } from "./mcp.test-rig";

/**
 * Issue 25 item 6: the request log tells how each MCP exchange ended (ok, tool error, JSON-RPC
 * error, with the error's text), whoever answered it: a direct answer, the SDK, a check's refusal.
 */
describe("the request log's MCP outcomes", () => {
  let rig: McpRig;
  mcpRigForFile((r) => (rig = r));

  /** The logged row of the request with this X-Request-Id. */
  async function rowOf(answer: { headers: Headers }): Promise<LogEntryDetailDto> {
    const requestId = answer.headers.get("x-request-id");
    expect(requestId).toBeTruthy();
    await rig.t.container.services.requestLog.flush();
    await rig.t.container.services.toolCalls.flush();
    const rows = (await rig.admin.get<LogEntryDto[]>(`/api/admin/logs?clientId=${encodeURIComponent(rig.client.clientId)}&limit=100`)).body;
    for (const row of rows) {
      const detail = (await rig.admin.get<LogEntryDetailDto>(`/api/admin/logs/${row.id}`)).body;
      if (detail.requestId === requestId) return detail;
    }
    throw new Error(`no row for ${requestId}`);
  }

  it("a tool that answers is ok, a tool that fails is a tool error with its sentence (answered directly)", async () => {
    const token = await rig.token("read");
    const ok = await modernRpc(rig.baseUrl, token, "tools/call", { name: "jira_get_issue", arguments: { issueKey: "BK-1" } });
    expect(ok.json.result.isError).toBeFalsy();
    expect(await rowOf(ok)).toMatchObject({
      statusCode: 200,
      toolName: "jira_get_issue",
      outcome: "ok",
      error: null,
      clientName: "MCP test client",
    });

    const failed = await modernRpc(rig.baseUrl, token, "tools/call", { name: "jira_get_issue", arguments: { issueKey: "BK-99999" } });
    expect(failed.status).toBe(200);
    expect(failed.json.result.isError).toBe(true);
    const row = await rowOf(failed);
    expect(row).toMatchObject({ statusCode: 200, outcome: "tool_error", error: failed.json.result.content[0].text });
    expect(row.toolCall).toMatchObject({ outcome: "error", error: failed.json.result.content[0].text });
  });

  it("a tool error is noted on a request with a query string too", async () => {
    const token = await rig.token("read");
    const failed = await modernRpc(
      rig.baseUrl,
      token,
      "tools/call",
      { name: "jira_get_issue", arguments: { issueKey: "BK-99999" } },
      7,
      "/mcp?via=express",
    );
    expect(failed.json.result.isError).toBe(true);
    expect(await rowOf(failed)).toMatchObject({ outcome: "tool_error", error: failed.json.result.content[0].text });
  });

  it("the SDK's JSON-RPC errors are rpc_error with their message, in both eras; its results are ok", async () => {
    const token = await rig.token("read");
    const unknown = await modernRpc(rig.baseUrl, token, "tools/call", { name: "jira_delete_everything", arguments: {} });
    expect(unknown.json.error.code).toBe(-32602);
    expect(await rowOf(unknown)).toMatchObject({ statusCode: unknown.status, outcome: "rpc_error", error: unknown.json.error.message });

    const legacy = { "mcp-protocol-version": "2025-11-25" };
    const noMethod = await rpc(rig.baseUrl, token, { jsonrpc: "2.0", id: 3, method: "no/such/method" }, legacy);
    expect(noMethod.json.error.code).toBe(-32601);
    expect(await rowOf(noMethod)).toMatchObject({ outcome: "rpc_error", error: noMethod.json.error.message });

    const ping = await rpc(rig.baseUrl, token, { jsonrpc: "2.0", id: 4, method: "ping" }, legacy);
    expect(ping.json.result).toEqual({});
    expect(await rowOf(ping)).toMatchObject({ rpcMethod: "ping", outcome: "ok", error: null });

    const broken = await rpc(rig.baseUrl, token, "{not json", legacy);
    expect(broken.status).toBe(400);
    expect(await rowOf(broken)).toMatchObject({ statusCode: 400, outcome: "rpc_error", error: broken.json.error.message });
  });

  it("a request no JSON-RPC answered (a bearer refusal) has no outcome", async () => {
    const refused = await modernRpc(rig.baseUrl, "not-a-token", "tools/list");
    expect(refused.status).toBe(401);
    await rig.t.container.services.requestLog.flush();
    const requestId = refused.headers.get("x-request-id");
    const rows = (await rig.admin.get<LogEntryDto[]>(`/api/admin/logs?statusCode=401&limit=50`)).body;
    const details = await Promise.all(rows.map(async (r) => (await rig.admin.get<LogEntryDetailDto>(`/api/admin/logs/${r.id}`)).body));
    expect(details.find((d) => d.requestId === requestId)).toMatchObject({ endpoint: "/mcp", outcome: null, error: null });
  });

  it("rows filter by outcome and by source (traffic without the console's own calls, or those alone); a bad value is a 400 naming the field", async () => {
    const token = await rig.token("read");
    await modernRpc(rig.baseUrl, token, "tools/call", { name: "jira_get_issue", arguments: { issueKey: "BK-99998" } });
    await modernRpc(rig.baseUrl, token, "tools/list");
    await rig.t.container.services.requestLog.flush();
    const rows = async (query: string) => (await rig.admin.get<LogEntryDto[]>(`/api/admin/logs?${query}&limit=500`)).body;

    const toolErrors = await rows("outcome=tool_error");
    expect(toolErrors.length).toBeGreaterThan(0);
    expect(toolErrors.every((r) => r.outcome === "tool_error")).toBe(true);
    const oks = await rows("outcome=ok");
    expect(oks.length).toBeGreaterThan(0);
    expect(oks.every((r) => r.outcome === "ok")).toBe(true);

    const traffic = await rows("source=traffic");
    const console = await rows("source=console");
    expect(traffic.some((r) => r.endpoint === "/mcp")).toBe(true);
    expect(traffic.some((r) => r.endpoint.startsWith("/api/admin/"))).toBe(false);
    expect(console.length).toBeGreaterThan(0);
    expect(console.every((r) => r.endpoint.startsWith("/api/admin/"))).toBe(true);
    // The stat cards follow the same filter, from the per-minute sums or the rows alike.
    const summary = (query: string) => rig.admin.get<LogSummaryDto>(`/api/admin/logs/summary?${query}`).then((r) => r.body);
    // Read together, until no batch of the log (these reads are logged too) landed between them.
    await expect
      .poll(async () => {
        const [all, ofTraffic, ofConsole] = await Promise.all([summary(""), summary("source=traffic"), summary("source=console")]);
        return ofTraffic.total > 0 && ofConsole.total > 0 && ofTraffic.total + ofConsole.total === all.total;
      })
      .toBe(true);
    expect((await summary("outcome=tool_error")).total).toBe(toolErrors.length);

    const bad = await rig.admin.get<{ error: { fields: Record<string, string> } }>("/api/admin/logs?outcome=maybe&source=everyone");
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toMatchObject({
      outcome: "outcome must be one of ok, tool_error, rpc_error",
      source: "source must be one of traffic, console",
    });
  });

  it("rows name the client and the user; a deleted client's rows keep its id and lose the name", async () => {
    const token = await rig.userToken("read");
    const call = await modernRpc(rig.baseUrl, token, "tools/list");
    const me = (await rig.user.get<{ user: { id: string; username: string } }>("/api/session")).body.user;
    expect(await rowOf(call)).toMatchObject({
      clientId: rig.client.clientId,
      clientName: "MCP test client",
      userId: me.id,
      userName: me.username,
    });

    const gone = await createClient(rig, { name: "Short-lived client" });
    const goneToken = await rig.token("read", gone);
    const before = await modernRpc(rig.baseUrl, goneToken, "tools/list");
    expect(before.status).toBe(200);
    expect((await rig.admin.request("DELETE", `/api/admin/oauth-clients/${gone.clientId}`)).status).toBeLessThan(300);
    await rig.t.container.services.requestLog.flush();
    const [row] = (await rig.admin.get<LogEntryDto[]>(`/api/admin/logs?clientId=${gone.clientId}&limit=1`)).body;
    expect(row).toMatchObject({ clientId: gone.clientId, clientName: null });
  });

  it("names are shown only to a reader who may read clients and users: one with logs.read alone sees the ids", async () => {
    const token = await rig.userToken("read");
    const call = await modernRpc(rig.baseUrl, token, "tools/list");
    const requestId = call.headers.get("x-request-id");
    const role = await rig.admin.post<{ id: string }>("/api/roles", {
      name: "log-reader",
      description: "Reads the request log",
      permissions: ["logs.read"],
    });
    expect(role.status).toBe(201);
    const { client: reader } = await signedInAs(rig.t, ["log-reader"]);
    await rig.t.container.services.requestLog.flush();
    const rows = (await reader.get<LogEntryDto[]>(`/api/admin/logs?clientId=${encodeURIComponent(rig.client.clientId)}&limit=100`)).body;
    const details = await Promise.all(rows.map(async (r) => (await reader.get<LogEntryDetailDto>(`/api/admin/logs/${r.id}`)).body));
    const row = details.find((d) => d.requestId === requestId)!;
    expect(row.userId).not.toBeNull();
    expect(row).toMatchObject({ clientId: rig.client.clientId, clientName: null, userName: null });
    expect(rows.every((r) => r.clientName === null && r.userName === null)).toBe(true);
  });

  it("tool errors count among the dashboard's errors per minute, though their status is 200; the Errors card keeps status codes", async () => {
    const token = await rig.token("read");
    await rig.t.container.services.requestLog.flush();
    const errorsNow = async () =>
      (await rig.admin.get<TrafficMinuteDto[]>("/api/admin/stats/traffic")).body.reduce((n, m) => n + m.errors, 0);
    const cardErrors = async () => (await rig.admin.get<LogSummaryDto>("/api/admin/logs/summary")).body.errors;
    const [chartBefore, cardBefore] = [await errorsNow(), await cardErrors()];
    for (const key of ["BK-99990", "BK-99991", "BK-99992"]) {
      const failed = await modernRpc(rig.baseUrl, token, "tools/call", { name: "jira_get_issue", arguments: { issueKey: key } });
      expect(failed.status).toBe(200);
      expect(failed.json.result.isError).toBe(true);
    }
    await rig.t.container.services.requestLog.flush();
    expect((await errorsNow()) - chartBefore).toBe(3);
    expect(await cardErrors()).toBe(cardBefore);
  });
});
