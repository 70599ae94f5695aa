import { describe, expect, it } from "vitest";
import { createClient } from "../../oauth/oauth.adversarial.helpers";
import { mcpClient, mcpRigForFile, type McpRig } from "../mcp.test-rig";

/** Issue 24 item 9: a tool's nextCursor is bound to the client it was given to, as well as to its query. */
describe("tool cursors across clients", () => {
  let rig: McpRig;
  mcpRigForFile((r) => (rig = r));

  it("client B cannot page with client A's cursor, even for the same query; A can", async () => {
    const a = await mcpClient(rig, await rig.token("read", await createClient(rig, { name: "Cursor A" })), "cursor-a");
    const b = await mcpClient(rig, await rig.token("read", await createClient(rig, { name: "Cursor B" })), "cursor-b");
    const args = { jql: "project = BK ORDER BY key", maxResults: 2 };
    const first = await a.call("jira_search", args);
    expect(first.isError).toBe(false);
    const cursor = first.data.nextCursor as string;
    expect(cursor).toEqual(expect.any(String));
    expect((await a.call("jira_search", { ...args, cursor })).isError).toBe(false);
    const stolen = await b.call("jira_search", { ...args, cursor });
    expect(stolen.isError).toBe(true);
    expect(stolen.text).toMatch(/not a nextCursor this server gave for this query/);
    await a.close();
    await b.close();
  });
});
