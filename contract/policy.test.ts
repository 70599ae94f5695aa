import { describe, expect, it } from "vitest";
import { ClientPolicySchema, DEFAULT_TOOLSETS, isOpenPolicy, OPEN_POLICY, policyFromForm, policyToForm, TOOLSET_NAMES, toolsetsOf } from "./policy";

/** The console's policy form and the API's policy convert both ways without losing anything. */
describe("policy form", () => {
  it("an open policy is the default toolsets ticked and blank lists, and comes back open", () => {
    const form = policyToForm(OPEN_POLICY);
    expect(form).toEqual({ readOnly: false, toolsets: [...DEFAULT_TOOLSETS], disabledTools: "", jiraProjects: "", confluenceSpaces: "", bitbucketRepositories: "" });
    expect(ClientPolicySchema.parse(policyFromForm(form))).toEqual(OPEN_POLICY);
    expect(isOpenPolicy(OPEN_POLICY)).toBe(true);
  });

  it("lists split on commas, spaces and lines; toolsets keep the catalogue's order", () => {
    const input = policyFromForm({ readOnly: true, toolsets: ["bitbucket-prs", "jira-issues"], disabledTools: "jira_create_issue,\njira_update_issue", jiraProjects: " bk,ops  dev ", confluenceSpaces: "", bitbucketRepositories: "api-gateway bridgekeeper/web" });
    const policy = ClientPolicySchema.parse(input);
    expect(policy).toEqual({ readOnly: true, toolsets: ["jira-issues", "bitbucket-prs"], disabledTools: ["jira_create_issue", "jira_update_issue"], jiraProjects: ["BK", "OPS", "DEV"], confluenceSpaces: null, bitbucketRepositories: ["api-gateway", "bridgekeeper/web"] });
    expect(isOpenPolicy(policy)).toBe(false);
    expect(ClientPolicySchema.parse(policyFromForm(policyToForm(policy)))).toEqual(policy);
  });

  it("the default toolsets leave out comments, work logs and links; every toolset ticked is a list of all", () => {
    expect(DEFAULT_TOOLSETS).toEqual(["jira-issues", "jira-projects", "confluence-pages", "bitbucket-code", "bitbucket-prs"]);
    expect(toolsetsOf(OPEN_POLICY)).toEqual(DEFAULT_TOOLSETS);
    expect(policyFromForm({ ...policyToForm(OPEN_POLICY), toolsets: [...TOOLSET_NAMES] }).toolsets).toEqual(TOOLSET_NAMES);
  });

  it("no toolset ticked is an empty list (nothing on offer), not 'default'", () => {
    expect(policyFromForm({ ...policyToForm(OPEN_POLICY), toolsets: [] }).toolsets).toEqual([]);
  });

  it("a bad key is a message naming what a key looks like", () => {
    const parsed = ClientPolicySchema.safeParse(policyFromForm({ ...policyToForm(OPEN_POLICY), confluenceSpaces: "ENG bad!" }));
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]).toMatchObject({ path: ["confluenceSpaces", 1], message: "each Confluence space key must look like ENG" });
  });
});
