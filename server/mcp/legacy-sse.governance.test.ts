import { describe, expect, it } from "vitest";
import { buildUser, signIn } from "../test/factories";
import { createClient, obtainTokens } from "../oauth/oauth.adversarial.helpers";
import { mcpRigForFile, openEvents, rpc, type McpRig } from "./mcp.test-rig";

/**
 * Issue 24 item 1: a legacy HTTP+SSE session (2024-11-05) lives for hours; each of its messages is
 * held to the client's policy and the token's scopes as they are when it arrives, as /mcp does,
 * not as they were when GET /sse opened the stream.
 */
describe("legacy HTTP+SSE: every message under the policy and rights of now", () => {
  let rig: McpRig;
  mcpRigForFile((r) => (rig = r), { RATE_LIMIT_SSE_PER_MINUTE: 1000 });

  /** A legacy session: its stream, and a `send` that posts one message and reads its answer from the stream. */
  async function session(token: string) {
    const events = await openEvents(`${rig.baseUrl}/sse`, { authorization: `Bearer ${token}` });
    expect(events.status).toBe(200);
    const endpoint = (await events.nextNamed("endpoint")).data;
    let id = 0;
    const post = (message: Record<string, unknown>) => rpc(rig.baseUrl, token, { jsonrpc: "2.0", ...message }, {}, endpoint);
    const send = async (method: string, params: Record<string, unknown> = {}) => {
      const mine = ++id;
      const seen = events.events.length;
      const res = await post({ id: mine, method, params });
      if (res.status !== 202) return { status: res.status, res };
      const answer = await events.next((e) => e.event === "message" && JSON.parse(e.data).id === mine, seen);
      return { status: res.status, message: JSON.parse(answer.data) };
    };
    expect(
      (
        await send("initialize", {
          protocolVersion: "2024-11-05",
          capabilities: {},
          clientInfo: { name: "legacy-governance", version: "1" },
        })
      ).message.result,
    ).toBeDefined();
    await post({ method: "notifications/initialized" });
    const call = async (name: string, args: Record<string, unknown>) => (await send("tools/call", { name, arguments: args })).message;
    return { events, send, call, endpoint };
  }

  it("after an administrator restricts the client, the open session obeys the new policy", async () => {
    const client = await createClient(rig, { name: "Legacy governed" });
    const token = await rig.token("read write", client);
    const s = await session(token);
    // Open at first: another project's issue reads, and jira_search is listed.
    expect((await s.call("jira_get_issue", { issueKey: "OPS-1" })).result.isError).toBeFalsy();
    const before = (await s.send("tools/list")).message.result.tools.map((t: { name: string }) => t.name);
    expect(before).toEqual(expect.arrayContaining(["jira_search", "jira_update_issue"]));

    const set = await rig.admin.put(`/api/admin/oauth-clients/${client.clientId}/policy`, {
      readOnly: true,
      disabledTools: ["jira_search"],
      jiraProjects: ["BK"],
    });
    expect(set.status).toBe(200);

    const outside = (await s.call("jira_get_issue", { issueKey: "OPS-1" })).result;
    expect(outside.isError).toBe(true);
    expect(outside.content[0].text).toMatch(/may not use the Jira project OPS/);
    // A disabled tool and a writing tool under readOnly are not on offer any more.
    expect((await s.call("jira_search", { jql: "project = OPS" })).error.code).toBe(-32602);
    expect(
      (await s.call("jira_update_issue", { issueKey: "BK-1", fields: { summary: "renamed by a restricted client" } })).error.code,
    ).toBe(-32602);
    const after = (await s.send("tools/list")).message.result.tools.map((t: { name: string }) => t.name);
    expect(after).not.toContain("jira_search");
    expect(after).not.toContain("jira_update_issue");
    // Within the list it still works.
    expect((await s.call("jira_get_issue", { issueKey: "BK-1" })).result.isError).toBeFalsy();
    s.events.close();
  });

  it("after a user is demoted from operator to viewer, their open session can no longer write", async () => {
    const user = await buildUser(rig.t.container, { roles: ["operator"] });
    const browser = rig.t.client();
    await signIn(browser, user);
    const client = await createClient(rig, { name: "Legacy demoted" });
    // The token is the user's own: they consent to it themselves.
    const own = await obtainTokens({ ...rig, user: browser }, client, { scope: "read write" });
    expect(own.scope).toBe("read write");
    const s = await session(own.access_token);
    const summary = `Renamed over legacy SSE ${Date.now()}`;
    expect((await s.call("jira_update_issue", { issueKey: "BK-2", fields: { summary } })).result.isError).toBeFalsy();

    const roles = (await rig.admin.get<{ id: string; name: string }[]>("/api/roles")).body;
    const viewer = roles.find((r) => r.name === "viewer")!.id;
    const seen = s.events.events.length;
    expect((await rig.admin.request("PUT", `/api/users/${user.row.id}/roles`, { json: { roleIds: [viewer] } })).status).toBe(200);
    // The session hears that its tool list changed, and lists the read tools only.
    await s.events.next((e) => e.event === "message" && JSON.parse(e.data).method === "notifications/tools/list_changed", seen);
    const listed = (await s.send("tools/list")).message.result.tools.map((t: { name: string }) => t.name);
    expect(listed).toContain("jira_get_issue");
    expect(listed).not.toContain("jira_update_issue");

    // The write is refused at the HTTP level with a scope challenge, as /mcp refuses it.
    const refused = await s.send("tools/call", {
      name: "jira_update_issue",
      arguments: { issueKey: "BK-2", fields: { summary: "written after the demotion" } },
    });
    expect(refused.status).toBe(403);
    expect(refused.res!.headers.get("www-authenticate")).toMatch(/insufficient_scope/);
    // Reading still works: the token keeps read.
    expect((await s.call("jira_get_issue", { issueKey: "BK-2" })).result.structuredContent.summary).toBe(summary);
    s.events.close();
  });
});
