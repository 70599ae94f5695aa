import { describe, expect, it } from "vitest";
import { clientPolicySchemaFor, isToolOffered } from "./policy-options";
import {
  ClientPolicySchema,
  DEFAULT_TOOLSETS,
  isOpenPolicy,
  OPEN_POLICY,
  policyFromForm,
  policyToForm,
  TOOLSET_NAMES,
  toolsetsOf,
} from "./policy";

/** The console's policy form and the API's policy convert both ways without losing anything. */
describe("policy form", () => {
  it("an open policy is the default toolsets ticked and blank lists, and comes back open", () => {
    const form = policyToForm(OPEN_POLICY);
    expect(form).toEqual({
      readOnly: false,
      toolsets: [...DEFAULT_TOOLSETS],
      disabledTools: [],
      jiraProjects: [],
      confluenceSpaces: [],
      bitbucketRepositories: [],
    });
    expect(ClientPolicySchema.parse(policyFromForm(form))).toEqual(OPEN_POLICY);
    expect(isOpenPolicy(OPEN_POLICY)).toBe(true);
  });

  it("lists keep their entries (Jira keys in upper case, once each); toolsets keep the catalogue's order", () => {
    const input = policyFromForm({
      readOnly: true,
      toolsets: ["bitbucket-prs", "jira-issues"],
      disabledTools: ["jira_create_issue", "jira_update_issue"],
      jiraProjects: ["bk", "OPS", "dev", "ops"],
      confluenceSpaces: [],
      bitbucketRepositories: ["api-gateway", "bridgekeeper/web"],
    });
    const policy = ClientPolicySchema.parse(input);
    expect(policy).toEqual({
      readOnly: true,
      toolsets: ["jira-issues", "bitbucket-prs"],
      disabledTools: ["jira_create_issue", "jira_update_issue"],
      jiraProjects: ["BK", "OPS", "DEV"],
      confluenceSpaces: null,
      bitbucketRepositories: ["api-gateway", "bridgekeeper/web"],
    });
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
    const parsed = ClientPolicySchema.safeParse(policyFromForm({ ...policyToForm(OPEN_POLICY), confluenceSpaces: ["ENG", "bad!"] }));
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]).toMatchObject({
      path: ["confluenceSpaces", 1],
      message: "each Confluence space key must look like ENG",
    });
  });
});

/** The schema the PUT and the form use with this server's tool names, and the offer rule the dialog counts with. */
describe("policy options", () => {
  const schema = clientPolicySchemaFor(new Set(["jira_search", "jira_create_issue"]));

  it("a tool switched off that the server does not have is a message under disabledTools", () => {
    expect(schema.safeParse({ disabledTools: ["jira_search"] }).success).toBe(true);
    const one = schema.safeParse({ disabledTools: ["jira_search", "jira_delete_everything"] });
    expect(one.error!.issues).toEqual([
      expect.objectContaining({ path: ["disabledTools"], message: "jira_delete_everything is not a tool of this server" }),
    ]);
    const two = schema.safeParse({ disabledTools: ["jira_nope", "jira_never"] });
    expect(two.error!.issues[0]!.message).toBe("jira_nope, jira_never are not tools of this server");
  });

  it("a tool is offered when its integration is on, the scope held, the policy and the server allow it", () => {
    const write = { name: "jira_create_issue", toolset: "jira-issues", service: "jira", scope: "write", destructive: false } as const;
    const remove = { name: "jira_delete_issue", toolset: "jira-admin", service: "jira", scope: "write", destructive: true } as const;
    const on = { services: new Set(["jira"] as const), scopes: null, policy: OPEN_POLICY, destructive: true };
    expect(isToolOffered(write, on)).toBe(true);
    expect(isToolOffered(write, { ...on, services: new Set() })).toBe(false);
    expect(isToolOffered(write, { ...on, scopes: ["read"] })).toBe(false);
    expect(isToolOffered(write, { ...on, policy: { ...OPEN_POLICY, readOnly: true } })).toBe(false);
    expect(isToolOffered(write, { ...on, policy: { ...OPEN_POLICY, disabledTools: ["jira_create_issue"] } })).toBe(false);
    expect(isToolOffered(write, { ...on, policy: { ...OPEN_POLICY, toolsets: ["jira-projects"] } })).toBe(false);
    expect(isToolOffered(remove, on)).toBe(false); // jira-admin is not a default toolset
    expect(isToolOffered(remove, { ...on, policy: { ...OPEN_POLICY, toolsets: ["jira-admin"] } })).toBe(true);
    expect(isToolOffered(remove, { ...on, destructive: false, policy: { ...OPEN_POLICY, toolsets: ["jira-admin"] } })).toBe(false);
  });

  it("a tool its service's deployment cannot serve is not offered there (issue 28)", () => {
    const cloudOnly: Parameters<typeof isToolOffered>[0] = {
      name: "jira_x",
      toolset: "jira-issues",
      service: "jira",
      scope: "read",
      destructive: false,
      deployments: ["cloud"],
    };
    const { deployments: _all, ...both } = { ...cloudOnly, name: "jira_y" };
    const on = { services: new Set(["jira"] as const), scopes: null, policy: OPEN_POLICY, destructive: true };
    expect(isToolOffered(cloudOnly, on)).toBe(true);
    expect(isToolOffered(cloudOnly, { ...on, deployments: { jira: "cloud" } })).toBe(true);
    expect(isToolOffered(cloudOnly, { ...on, deployments: { jira: "datacenter" } })).toBe(false);
    expect(isToolOffered(cloudOnly, { ...on, deployments: { bitbucket: "datacenter" } })).toBe(true);
    expect(isToolOffered(both, { ...on, deployments: { jira: "datacenter" } })).toBe(true);
  });
});
