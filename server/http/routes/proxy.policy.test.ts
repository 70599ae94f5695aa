import { describe, expect, it } from "vitest";
import type { ClientPolicyInput } from "../../../contract/policy";
import { createClient } from "../../oauth/oauth.adversarial.helpers";
import { mcpRigForFile, type McpRig } from "../../mcp/mcp.test-rig";

/**
 * Issue 24 item 8 (docs/decisions.md#tools-and-client-policy, #read-only-proxy): the raw proxy
 * paths pass any GET, so they honour no limit. A client restricted in any way for a service (an
 * allow-list, one of its tools switched off, one of its default toolsets off) is refused there with
 * 403 naming the rule; an open client passes.
 */
describe("raw proxy paths under a client's policy", () => {
  let rig: McpRig;
  mcpRigForFile((r) => (rig = r));

  async function clientWith(policy: ClientPolicyInput) {
    const client = await createClient(rig, { name: `Proxy policy ${JSON.stringify(policy).slice(0, 40)}` });
    expect((await rig.admin.put(`/api/admin/oauth-clients/${client.clientId}/policy`, policy)).status).toBe(200);
    const token = await rig.token("read", client);
    return async (path: string) => {
      const res = await fetch(`${rig.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
      const body = await res.text();
      return {
        status: res.status,
        message: res.status === 403 ? (JSON.parse(body) as { error: { message: string } }).error.message : body,
      };
    };
  }
  const JIRA_ISSUE = "/api/atlassian/jira/rest/api/3/issue/BK-1";
  const JQL = "/api/atlassian/jira/rest/api/3/search/jql?jql=project%3DOPS";
  const CONFLUENCE = "/api/atlassian/confluence/api/v2/spaces?limit=1";

  it("an open client reads through the proxies", async () => {
    const get = await clientWith({});
    expect((await get(JIRA_ISSUE)).status).toBe(200);
    expect((await get(CONFLUENCE)).status).toBe(200);
  });

  it("jira_get_issue and jira_search switched off: Jira's proxy is 403 naming the tools; Confluence's still answers", async () => {
    const get = await clientWith({ disabledTools: ["jira_get_issue", "jira_search"] });
    for (const path of [JIRA_ISSUE, JQL]) {
      const refused = await get(path);
      expect(refused.status).toBe(403);
      expect(refused.message).toMatch(/switches off Jira tools \(jira_get_issue, jira_search\)/);
    }
    expect((await get(CONFLUENCE)).status).toBe(200);
  });

  it("a default toolset of the service off: 403 naming the toolset", async () => {
    const get = await clientWith({ toolsets: ["jira-projects", "confluence-pages", "bitbucket-code", "bitbucket-prs"] });
    const refused = await get(JIRA_ISSUE);
    expect(refused.status).toBe(403);
    expect(refused.message).toMatch(/switches off Jira toolsets \(jira-issues\)/);
    expect((await get(CONFLUENCE)).status).toBe(200);
    // None of a service's toolsets on: refused, naming its default ones.
    const noBitbucket = await clientWith({ toolsets: ["jira-issues", "jira-projects", "confluence-pages"] });
    const refusedBitbucket = await noBitbucket("/api/bitbucket/repositories/bridgekeeper");
    expect(refusedBitbucket.status).toBe(403);
    expect(refusedBitbucket.message).toMatch(/switches off Bitbucket toolsets \(bitbucket-code, bitbucket-prs\)/);
    expect((await noBitbucket(JIRA_ISSUE)).status).toBe(200);
  });

  it("more toolsets than the default: not a restriction", async () => {
    const get = await clientWith({
      toolsets: ["jira-issues", "jira-projects", "jira-agile", "confluence-pages", "bitbucket-code", "bitbucket-prs"],
    });
    expect((await get(JIRA_ISSUE)).status).toBe(200);
  });

  it("an allow-list: 403 naming it, on every service", async () => {
    const get = await clientWith({ confluenceSpaces: ["ENG"] });
    for (const path of [JIRA_ISSUE, CONFLUENCE]) {
      const refused = await get(path);
      expect(refused.status).toBe(403);
      expect(refused.message).toMatch(/limits it to some Confluence spaces \(allow-lists\)/);
    }
  });
});
