import { describe, expect, it } from "vitest";
import { ClientPolicySchema, TOOLSET_NAMES, type ClientPolicyInput } from "../../../contract/policy";
import { isToolOffered, type PolicyService } from "../../../contract/policy-options";
import { toolsFor, type Caller } from "../../mcp/mcp-server";
import { TOOLS } from "../../mcp/tools/catalogue";

/**
 * The policy editor counts "This client will have N of M tools" with contract/policy-options.ts
 * `isToolOffered`; the MCP server lists tools with its own `toolsFor`. They must agree on every
 * combination, or the dialog's number would promise what tools/list does not give.
 */
describe("the policy editor's tool count is the MCP server's", () => {
  const options = TOOLS.map((t) => ({ name: t.name, toolset: t.toolset, service: t.service, scope: t.scope, destructive: t.annotations.destructiveHint }));
  const policies: ClientPolicyInput[] = [
    {},
    { readOnly: true },
    { toolsets: [...TOOLSET_NAMES] },
    { toolsets: [...TOOLSET_NAMES], readOnly: true },
    { toolsets: [] },
    { toolsets: ["jira-admin", "confluence-history", "bitbucket-reviews"] },
    { disabledTools: ["jira_search", "jira_create_issue", "confluence_get_page", "bitbucket_list_repositories"] },
    { toolsets: [...TOOLSET_NAMES], disabledTools: TOOLS.filter((_, i) => i % 3 === 0).map((t) => t.name) },
  ];
  const serviceSets: PolicyService[][] = [["jira", "confluence", "bitbucket"], ["jira", "confluence"], ["bitbucket"], []];
  const scopeSets = [["read", "write"], ["read"], []];

  it.each(policies.map((p) => [JSON.stringify(p), p] as const))("%s", (_label, input) => {
    const policy = ClientPolicySchema.parse(input);
    for (const services of serviceSets) {
      for (const scopes of scopeSets) {
        for (const destructive of [true, false]) {
          const caller: Caller = { scopes, policy, clientId: "c", userId: null, requestId: null };
          const server = toolsFor(new Set(services), caller, { destructive }).map((t) => t.name);
          const console = options.filter((t) => isToolOffered(t, { services: new Set(services), scopes, policy, destructive })).map((t) => t.name);
          expect(console, `${services.join("+")} ${scopes.join("+")} destructive=${destructive}`).toEqual(server);
        }
      }
    }
  });

  it("without a token's scopes (null) the count is the most any token can get: the read and write scopes both held", () => {
    const policy = ClientPolicySchema.parse({ toolsets: [...TOOLSET_NAMES] });
    const all = new Set<PolicyService>(["jira", "confluence", "bitbucket"]);
    const most = options.filter((t) => isToolOffered(t, { services: all, scopes: null, policy, destructive: true }));
    expect(most.map((t) => t.name)).toEqual(toolsFor(all, { scopes: ["read", "write"], policy, clientId: "c", userId: null, requestId: null }).map((t) => t.name));
    expect(most).toHaveLength(TOOLS.length);
  });
});
