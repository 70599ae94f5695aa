import { describe, expect, it } from "vitest";
import { createClient } from "../oauth/oauth.adversarial.helpers";
import { mcpClient, mcpRigForFile, type McpRig } from "./mcp.test-rig";

/**
 * Issue 24 item 6: each caller has a share of an integration's hourly upstream calls
 * (UPSTREAM_CLIENT_SHARE_PERCENT of ATLASSIAN_HOURLY_BUDGET / BITBUCKET_HOURLY_BUDGET), so one
 * client cannot spend the budget for everyone.
 */
describe("each client's share of the integrations' hourly budget", () => {
  let rig: McpRig;
  // A share of 3 Jira/Confluence calls an hour per caller.
  mcpRigForFile((r) => (rig = r), { ATLASSIAN_HOURLY_BUDGET: 6, UPSTREAM_CLIENT_SHARE_PERCENT: 50 });

  it("a client over its share gets a tool error and no upstream call; another client, and its Bitbucket share, are untouched", async () => {
    const greedy = await mcpClient(rig, await rig.token("read", await createClient(rig, { name: "Greedy" })), "greedy");
    let refused: Awaited<ReturnType<typeof greedy.call>> | undefined;
    for (let i = 0; i < 4 && !refused; i++) {
      const answer = await greedy.call("jira_get_issue", { issueKey: "BK-1" });
      if (answer.isError) refused = answer;
    }
    expect(refused?.text).toMatch(/made its share of Jira and Confluence calls for this hour \(3\)/);
    const before = rig.sandbox.requests().length;
    expect((await greedy.call("confluence_search", { cql: "type = page" })).isError).toBe(true);
    expect(rig.sandbox.requests().length).toBe(before);

    expect((await greedy.call("bitbucket_list_repositories", {})).isError).toBe(false);
    const other = await mcpClient(rig, await rig.token("read", await createClient(rig, { name: "Other" })), "other");
    expect((await other.call("jira_get_issue", { issueKey: "BK-1" })).isError).toBe(false);
    await greedy.close();
    await other.close();
  });
});
