import { describe, expect, it } from "vitest";
import { ClientPolicySchema, DEFAULT_TOOLSETS, TOOLSET_NAMES, type ClientPolicyInput } from "../../../contract/policy";
import { isToolOffered, type PolicyService } from "../../../contract/policy-options";
import { offerShapeOf, toolsFor, type Caller } from "../../mcp/mcp-server";
import { TOOLS } from "../../mcp/tools/catalogue";

/**
 * The policy editor counts "This client will have N of M tools" with contract/policy-options.ts
 * `isToolOffered`, which the MCP server's `toolsFor` calls too. What that rule gives is pinned
 * here by what each policy means, not by the rule again: the console's number is tools/list's.
 */
describe("the tools a policy leaves a client (tools/list and the policy editor's count)", () => {
  const options = TOOLS.map(offerShapeOf);
  const all = new Set<PolicyService>(["jira", "confluence", "bitbucket"]);
  const caller = (input: ClientPolicyInput, scopes = ["read", "write"]): Caller => ({
    scopes,
    policy: ClientPolicySchema.parse(input),
    clientId: "c",
    userId: null,
    requestId: null,
  });
  const listed = (input: ClientPolicyInput, services = all, scopes?: string[], destructive = true) =>
    toolsFor(services, caller(input, scopes), { destructive });

  it("each narrowing takes away exactly what it names", () => {
    const everything = listed({ toolsets: [...TOOLSET_NAMES] });
    expect(everything).toHaveLength(TOOLS.length);
    expect(listed({ toolsets: [...TOOLSET_NAMES], readOnly: true })).toEqual(TOOLS.filter((t) => t.scope === "read"));
    expect(listed({ toolsets: [...TOOLSET_NAMES] }, all, ["read"])).toEqual(TOOLS.filter((t) => t.scope === "read"));
    expect(listed({ toolsets: [] })).toEqual([]);
    expect(listed({ toolsets: ["jira-admin"] })).toEqual(TOOLS.filter((t) => t.toolset === "jira-admin"));
    expect(listed({ toolsets: [...TOOLSET_NAMES] }, new Set<PolicyService>(["bitbucket"]))).toEqual(
      TOOLS.filter((t) => t.service === "bitbucket"),
    );
    expect(listed({ toolsets: [...TOOLSET_NAMES] }, all, undefined, false)).toEqual(TOOLS.filter((t) => !t.annotations.destructiveHint));
    const off = ["jira_search", "confluence_get_page"];
    expect(listed({ toolsets: [...TOOLSET_NAMES], disabledTools: off }).map((t) => t.name)).toEqual(
      TOOLS.filter((t) => !off.includes(t.name)).map((t) => t.name),
    );
    // No policy: the default toolsets.
    expect(listed({})).toEqual(TOOLS.filter((t) => DEFAULT_TOOLSETS.includes(t.toolset)));
  });

  it("the policy editor counts with the same shapes tools/list reads", () => {
    const policy = ClientPolicySchema.parse({ readOnly: true });
    const counted = options
      .filter((t) => isToolOffered(t, { services: all, scopes: ["read"], policy, destructive: true }))
      .map((t) => t.name);
    expect(counted).toEqual(listed({ readOnly: true }, all, ["read"]).map((t) => t.name));
  });

  it("without a token's scopes (null) the count is the most any token can get: the read and write scopes both held", () => {
    const policy = ClientPolicySchema.parse({ toolsets: [...TOOLSET_NAMES] });
    const all = new Set<PolicyService>(["jira", "confluence", "bitbucket"]);
    const most = options.filter((t) => isToolOffered(t, { services: all, scopes: null, policy, destructive: true }));
    expect(most.map((t) => t.name)).toEqual(
      toolsFor(all, { scopes: ["read", "write"], policy, clientId: "c", userId: null, requestId: null }).map((t) => t.name),
    );
    expect(most).toHaveLength(TOOLS.length);
  });
});
