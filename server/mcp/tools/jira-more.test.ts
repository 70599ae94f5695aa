import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_TOOLSETS } from "../../../contract/policy";
import { createClient } from "../../oauth/oauth.adversarial.helpers";
import { mcpClient, startMcpRig, type McpRig } from "../mcp.test-rig";
import { closeToolTest, putPolicy } from "./tool-test-kit";

// @pglite-only: the tools' answers come from the sandbox; the database only holds the token and the audit rows (tool-calls and policy tests run on both).

/**
 * The Jira tools beyond the default toolsets (comments, work logs, links) and the newer default
 * ones (assign, delete, project, fields, current user), through a real MCP client against the
 * sandbox, on a client whose policy switches every toolset on.
 */
describe("Jira comments, work logs, links, projects; assign and delete", () => {
  let rig: McpRig;
  let client: Awaited<ReturnType<typeof mcpClient>>;
  beforeAll(async () => {
    rig = await startMcpRig({ upstream: { maxAttempts: 1 } });
    const set = await putPolicy(rig, rig.client.clientId);
    if (set.status !== 200) throw new Error(`policy: ${set.status}`);
    client = await mcpClient(rig, await rig.token("read write"), "jira-more-test");
  });
  afterAll(() => closeToolTest(rig, client));

  const call = (name: string, args: Record<string, unknown> = {}) => client.call(name, args);
  const newIssue = async (summary: string) => (await call("jira_create_issue", { projectKey: "BK", summary })).data.key as string;

  it("the default toolsets leave comments, work logs and links out; a policy switches them on", async () => {
    const other = await createClient(rig, { name: "default-toolsets" });
    const defaults = await mcpClient(rig, await rig.token("read write", other), "default-toolsets");
    try {
      const names = (await defaults.client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(["jira_assign_issue", "jira_get_project", "jira_transition_issue"]));
      for (const name of [
        "jira_list_comments",
        "jira_edit_comment",
        "jira_delete_comment",
        "jira_list_worklogs",
        "jira_add_worklog",
        "jira_list_link_types",
        "jira_link_issues",
        "jira_delete_issue",
        "jira_search_fields",
        "jira_current_user",
        "jira_get_transitions",
        "jira_list_boards",
      ])
        expect(names).not.toContain(name);
      expect(DEFAULT_TOOLSETS).not.toContain("jira-comments");
    } finally {
      await defaults.close();
    }
    const all = (await client.client.listTools()).tools.map((t) => t.name);
    expect(all).toEqual(
      expect.arrayContaining([
        "jira_list_comments",
        "jira_add_worklog",
        "jira_link_issues",
        "jira_delete_issue",
        "jira_get_transitions",
        "jira_list_boards",
      ]),
    );
  });

  it("assigns to an accountId and unassigns", async () => {
    const me = await call("jira_current_user");
    expect(me.isError).toBe(false);
    expect(me.data).toMatchObject({ accountId: expect.any(String), displayName: expect.any(String) });
    const key = await newIssue("To be assigned");
    const assigned = await call("jira_assign_issue", { issueKey: key, accountId: me.data.accountId });
    expect(assigned.isError).toBe(false);
    expect((await call("jira_get_issue", { issueKey: key })).data.assignee).toBe(me.data.displayName);
    expect((await call("jira_assign_issue", { issueKey: key, accountId: null })).text).toBe(
      `Unassigned ${key}.\n${rig.sandbox.url}/browse/${key}`,
    );
    expect((await call("jira_get_issue", { issueKey: key })).data).not.toHaveProperty("assignee"); // null fields are left out
    const nobody = await call("jira_assign_issue", { issueKey: key, accountId: "no-such-account" });
    expect(nobody.isError).toBe(true);
  });

  it("deletes an issue for good; a second delete is a tool error", async () => {
    const key = await newIssue("To be deleted");
    const deleted = await call("jira_delete_issue", { issueKey: key });
    expect(deleted).toMatchObject({ isError: false, text: `Deleted ${key}.` });
    expect((await call("jira_get_issue", { issueKey: key })).isError).toBe(true);
    const again = await call("jira_delete_issue", { issueKey: key });
    expect(again.isError).toBe(true);
    expect(again.text).toMatch(/\(404\)/);
  });

  it("lists every comment newest first, page by page; edits and deletes one", async () => {
    const key = await newIssue("Many comments");
    for (const n of [1, 2, 3]) expect((await call("jira_add_comment", { issueKey: key, body: `Comment **${n}**` })).isError).toBe(false);
    const first = await call("jira_list_comments", { issueKey: key, maxResults: 2 });
    expect(first.data.total).toBe(3);
    expect((first.data.comments as { body: string }[]).map((c) => c.body)).toEqual(["Comment **3**", "Comment **2**"]);
    const second = await call("jira_list_comments", { issueKey: key, maxResults: 2, cursor: first.data.nextCursor });
    expect((second.data.comments as { body: string }[]).map((c) => c.body)).toEqual(["Comment **1**"]);
    expect(second.data).not.toHaveProperty("nextCursor");
    expect((await call("jira_list_comments", { issueKey: "BK-1", cursor: first.data.nextCursor })).isError).toBe(true);

    const id = (second.data.comments as { id: string }[])[0]!.id;
    expect((await call("jira_edit_comment", { issueKey: key, commentId: id, body: "Edited **twice**" })).isError).toBe(false);
    const after = await call("jira_list_comments", { issueKey: key });
    expect((after.data.comments as { id: string; body: string }[]).find((c) => c.id === id)?.body).toBe("Edited **twice**");
    expect((await call("jira_delete_comment", { issueKey: key, commentId: id })).isError).toBe(false);
    expect((await call("jira_list_comments", { issueKey: key })).data.total).toBe(2);

    const missing = await call("jira_delete_comment", { issueKey: key, commentId: id });
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/\(404\)/);
    const bad = await call("jira_edit_comment", { issueKey: key, commentId: "abc", body: "x" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/commentId must be a comment id/);
  });

  it("logs time in Jira's units and lists the work log with its total", async () => {
    const key = await newIssue("Time tracked");
    const logged = await call("jira_add_worklog", {
      issueKey: key,
      timeSpent: "1h 30m",
      started: "2026-11-20T09:00:00Z",
      comment: "Pairing on the **fix**",
    });
    expect(logged.data).toMatchObject({ key, timeSpentSeconds: 5400 });
    expect((await call("jira_add_worklog", { issueKey: key, timeSpent: "1d" })).data.timeSpentSeconds).toBe(8 * 3600);
    const list = await call("jira_list_worklogs", { issueKey: key });
    expect(list.data.total).toBe(2);
    expect(list.data.loggedSeconds).toBe(5400 + 8 * 3600);
    expect((list.data.worklogs as { comment: string; started: string }[])[0]).toMatchObject({
      comment: "Pairing on the **fix**",
      started: expect.stringMatching(/^2026-11-20T09:00/),
    });

    const nonsense = await call("jira_add_worklog", { issueKey: key, timeSpent: "a while" });
    expect(nonsense.isError).toBe(true);
    expect(nonsense.text).toMatch(/is not a duration/);
    expect((await call("jira_add_worklog", { issueKey: key, timeSpent: "1h", started: "yesterday" })).text).toMatch(
      /started must be a date and time/,
    );
  });

  it("links two issues with a named type, reading as the type says; unknown types and self-links are refused", async () => {
    const types = await call("jira_list_link_types");
    expect(types.data.linkTypes).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: "Blocks", outward: "blocks", inward: "is blocked by" })]),
    );
    const [a, b] = [await newIssue("Blocker"), await newIssue("Blocked")];
    const linked = await call("jira_link_issues", { from: a, type: "blocks", to: b });
    expect(linked.data).toMatchObject({ from: a, type: "Blocks", to: b, reading: `${a} blocks ${b}` });
    expect((await call("jira_get_issue", { issueKey: a })).data.links).toEqual([expect.objectContaining({ type: "blocks", key: b })]);
    expect((await call("jira_get_issue", { issueKey: b })).data.links).toEqual([
      expect.objectContaining({ type: "is blocked by", key: a }),
    ]);

    const unknown = await call("jira_link_issues", { from: a, type: "Haunts", to: b });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/There is no link type "Haunts"\. The types are: .*Blocks/);
    expect((await call("jira_link_issues", { from: a, type: "Blocks", to: a.toLowerCase() })).text).toMatch(/cannot be linked to itself/);
  });

  it("reads a project with its types, components and versions; finds fields by name", async () => {
    const project = await call("jira_get_project", { projectKey: "bk" });
    expect(project.isError).toBe(false);
    expect(project.data).toMatchObject({ key: "BK", url: `${rig.sandbox.url}/browse/BK` });
    expect((project.data.issueTypes as { name: string }[]).map((t) => t.name)).toEqual(expect.arrayContaining(["Bug", "Task"]));
    expect(project.text).toMatch(/^# BK: /);
    expect((await call("jira_get_project", { projectKey: "NOPE" })).isError).toBe(true);

    const fields = await call("jira_search_fields", { query: "story point" });
    expect(fields.data.fields).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: expect.stringMatching(/^customfield_\d+$/), custom: true })]),
    );
    expect((await call("jira_search_fields", { query: "zzz-nothing" })).text).toBe('No field matches "zzz-nothing".');
  });

  it("the allow-list holds for every new tool: an issue or project outside it is refused", async () => {
    const restricted = await createClient(rig, { name: "ops-only" });
    expect((await putPolicy(rig, restricted.clientId, { jiraProjects: ["OPS"] })).status).toBe(200);
    const ops = await mcpClient(rig, await rig.token("read write", restricted), "ops-only");
    try {
      for (const [tool, args] of [
        ["jira_assign_issue", { issueKey: "BK-1", accountId: null }],
        ["jira_delete_issue", { issueKey: "BK-1" }],
        ["jira_list_comments", { issueKey: "BK-1" }],
        ["jira_delete_comment", { issueKey: "BK-1", commentId: "1" }],
        ["jira_add_worklog", { issueKey: "BK-1", timeSpent: "1h" }],
        ["jira_link_issues", { from: "OPS-1", type: "Blocks", to: "BK-1" }],
        ["jira_get_project", { projectKey: "BK" }],
      ] as const) {
        const res = await ops.call(tool, args);
        expect(res.isError, tool).toBe(true);
        expect(res.text, tool).toMatch(/This client may not use the Jira project BK: an administrator limited it to OPS/);
      }
    } finally {
      await ops.close();
    }
  });
});
