import { describe, expect, it } from "vitest";
import type { PolicyOptionsDto } from "@contract/policy-options";
import { DEFAULT_TOOLSETS, TOOLSET_NAMES } from "@contract/policy";
import { entriesOf, keyFieldNote, keyOptions, normaliseEntry, toolCount, unconfirmedKeys, unknownToolsError } from "./policy-checks";

const up = { available: true, error: null, truncated: false };
const OPTIONS: PolicyOptionsDto = {
  jira: {
    ...up,
    projects: [
      { key: "BK", name: "Bridgekeeper" },
      { key: "OPS", name: "Operations" },
    ],
  },
  confluence: {
    ...up,
    spaces: [
      { key: "ENG", name: "Engineering" },
      { key: "~ada", name: "Ada Lovelace" },
    ],
  },
  bitbucket: {
    ...up,
    workspace: "bridgekeeper",
    repositories: [{ slug: "api-gateway", fullName: "bridgekeeper/api-gateway", name: "API Gateway" }],
  },
  tools: [
    { name: "jira_search", title: "Search Jira", toolset: "jira-issues", service: "jira", scope: "read", destructive: false },
    { name: "jira_create_issue", title: "Create an issue", toolset: "jira-issues", service: "jira", scope: "write", destructive: false },
    { name: "jira_delete_issue", title: "Delete an issue", toolset: "jira-admin", service: "jira", scope: "write", destructive: true },
    {
      name: "confluence_get_page",
      title: "Read a page",
      toolset: "confluence-pages",
      service: "confluence",
      scope: "read",
      destructive: false,
    },
    {
      name: "bitbucket_list_repositories",
      title: "List repositories",
      toolset: "bitbucket-code",
      service: "bitbucket",
      scope: "read",
      destructive: false,
    },
  ],
  services: ["jira", "confluence", "bitbucket"],
  destructiveTools: true,
};

describe("the policy editor's checks", () => {
  it("typed text becomes entries; Jira keys are kept in upper case", () => {
    expect(entriesOf(" bk, ops\nDEV  ")).toEqual(["bk", "ops", "DEV"]);
    expect(normaliseEntry("jiraProjects", "bk")).toBe("BK");
    expect(normaliseEntry("confluenceSpaces", "~ada")).toBe("~ada");
  });

  it("the pickers list the integrations' keys with their names", () => {
    expect(keyOptions("jiraProjects", OPTIONS)).toEqual([
      { value: "BK", label: "BK", hint: "Bridgekeeper" },
      { value: "OPS", label: "OPS", hint: "Operations" },
    ]);
    expect(keyOptions("bitbucketRepositories", OPTIONS)[0]).toEqual({
      value: "api-gateway",
      label: "api-gateway",
      hint: "bridgekeeper/api-gateway · API Gateway",
    });
    expect(keyOptions("jiraProjects", null)).toEqual([]);
  });

  it("a key the listing does not have is a warning naming it; known ones (any case for Jira and Bitbucket) are not", () => {
    expect(keyFieldNote("jiraProjects", ["BK", "ops"], OPTIONS)).toBeNull();
    expect(keyFieldNote("jiraProjects", ["BK", "NOPE"], OPTIONS)).toEqual({
      tone: "warning",
      text: "Jira cannot confirm NOPE: no such project, or not visible to the integration's account.",
    });
    expect(keyFieldNote("confluenceSpaces", ["eng", "DOCS"], OPTIONS)?.text).toBe(
      "Confluence cannot confirm eng, DOCS: no such spaces, or not visible to the integration's account.",
    );
    expect(
      unconfirmedKeys(
        "bitbucketRepositories",
        ["API-Gateway", "bridgekeeper/api-gateway", "bridgekeeper/*", "other/*", "other/api-gateway", "web"],
        OPTIONS,
      ),
    ).toEqual(["other/*", "other/api-gateway", "web"]);
  });

  it("a truncated listing says the key was not among the first ones", () => {
    const many = { ...OPTIONS, jira: { ...OPTIONS.jira, truncated: true } };
    expect(keyFieldNote("jiraProjects", ["NOPE"], many)?.text).toBe(
      "Jira cannot confirm NOPE: not among the first 500 projects it listed.",
    );
  });

  it("an integration that is down is a warning with its error; one not configured is a grey note; nothing is 'unconfirmed' then", () => {
    const down = { ...OPTIONS, jira: { available: false, error: "Jira did not answer within 4 s", truncated: false, projects: [] } };
    expect(keyFieldNote("jiraProjects", ["NOPE"], down)).toEqual({
      tone: "warning",
      text: "Jira is not reachable (Jira did not answer within 4 s): keys cannot be checked.",
    });
    expect(unconfirmedKeys("jiraProjects", ["NOPE"], down)).toEqual([]);
    const off = {
      ...OPTIONS,
      services: ["jira", "confluence"] as const,
      bitbucket: {
        available: false,
        error: "The Bitbucket integration is not configured",
        truncated: false,
        workspace: null,
        repositories: [],
      },
    };
    expect(keyFieldNote("bitbucketRepositories", [], { ...off, services: [...off.services] })).toEqual({
      tone: "muted",
      text: "The Bitbucket integration is not configured: keys cannot be checked.",
    });
  });

  it("a tool this server does not have is an error naming it", () => {
    expect(unknownToolsError(["jira_search"], OPTIONS)).toBeUndefined();
    expect(unknownToolsError(["jira_search", "jira_delete_everything"], OPTIONS)).toBe(
      "jira_delete_everything is not a tool of this server",
    );
    expect(unknownToolsError(["jira_delete_everything"], null)).toBeUndefined();
  });

  it("the tool count follows read-only, toolsets, tools switched off, the client's scopes and the server's switch", () => {
    const form = { readOnly: false, toolsets: [...DEFAULT_TOOLSETS], disabledTools: [] as string[] };
    expect(toolCount(form, OPTIONS, ["read", "write"])).toEqual({ offered: 4, total: 5 });
    expect(toolCount({ ...form, readOnly: true }, OPTIONS, ["read", "write"]).offered).toBe(3);
    expect(toolCount(form, OPTIONS, ["read"]).offered).toBe(3);
    expect(toolCount({ ...form, disabledTools: ["jira_search"] }, OPTIONS, ["read", "write"]).offered).toBe(3);
    expect(toolCount({ ...form, toolsets: [...TOOLSET_NAMES] }, OPTIONS, ["read", "write"]).offered).toBe(5);
    expect(toolCount({ ...form, toolsets: [...TOOLSET_NAMES] }, { ...OPTIONS, destructiveTools: false }, ["read", "write"]).offered).toBe(
      4,
    );
    expect(toolCount(form, { ...OPTIONS, services: ["bitbucket"] }, ["read", "write"]).offered).toBe(1);
  });
});
