import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpClient, startMcpRig, type McpRig } from "../mcp.test-rig";
import { closeToolTest, putPolicy, sandboxFault } from "./tool-test-kit";

// @pglite-only: the tools' answers come from the sandbox; the database only holds the token and the audit rows (tool-calls and policy tests run on both).

/**
 * The Jira issue tools through a real MCP client (SDK v2, 2026-07-28) against the sandbox over
 * HTTP: Markdown in and out, the workflow, bad arguments and upstream refusals as tool errors.
 */
describe("Jira issue tools", () => {
  let rig: McpRig;
  let client: Awaited<ReturnType<typeof mcpClient>>;
  beforeAll(async () => {
    rig = await startMcpRig({ upstream: { maxAttempts: 1 } });
    // Every toolset: the workflow (jira-admin) and the boards (jira-agile) are not in the default set.
    const set = await putPolicy(rig, rig.client.clientId);
    if (set.status !== 200) throw new Error(`policy: ${set.status}`);
    const token = await rig.token("read write");
    client = await mcpClient(rig, token, "jira-issues-test");
  });
  afterAll(() => closeToolTest(rig, client));

  const call = (name: string, args: Record<string, unknown>) => client.call(name, args);
  const fault = (spec: Record<string, unknown>) => sandboxFault(rig, { ...spec, times: 1 });

  const DESCRIPTION = [
    "## Steps",
    "",
    "1. Open the **login** page",
    "2. Enter a `token` that expired",
    "",
    "Expected: a [clear message](https://example.com/help).",
    "",
    "```ts",
    "const expired = true;",
    "```",
    "",
    "| Browser | Result |",
    "| --- | --- |",
    "| Firefox | fails |",
  ].join("\n");

  it("creates an issue from Markdown and reads the same Markdown back", async () => {
    const created = await call("jira_create_issue", {
      projectKey: "bk",
      issueType: "Bug",
      summary: "Expired token shows a blank page",
      description: DESCRIPTION,
      priority: "High",
      labels: ["auth", "login"],
    });
    expect(created.isError).toBe(false);
    expect(created.data).toMatchObject({
      key: expect.stringMatching(/^BK-\d+$/),
      summary: "Expired token shows a blank page",
      url: `${rig.sandbox.url}/browse/${created.data.key}`,
    });
    expect(created.text).toContain(created.data.key);

    const read = await call("jira_get_issue", { issueKey: created.data.key });
    expect(read.data).toMatchObject({
      summary: "Expired token shows a blank page",
      type: "Bug",
      priority: "High",
      labels: ["auth", "login"],
    });
    const normalise = (md: string) =>
      md
        .replace(/[ \t]+$/gm, "")
        .replace(/\n{3,}/g, "\n\n")
        .trim();
    // Heading, ordered list, strong, code, link, code block and table: the very Markdown written.
    expect(normalise(read.data.description as string)).toBe(DESCRIPTION);
  });

  it("updates only the fields given; nothing to change is a tool error", async () => {
    const res = await call("jira_update_issue", {
      issueKey: "BK-3",
      summary: "Renamed by a tool",
      labels: ["renamed"],
      fields: { duedate: "2027-01-31" },
    });
    expect(res.isError).toBe(false);
    expect(res.data.changed).toEqual(expect.arrayContaining(["summary", "labels", "duedate"]));
    const read = await call("jira_get_issue", { issueKey: "BK-3" });
    expect(read.data).toMatchObject({ summary: "Renamed by a tool", labels: ["renamed"] });

    const nothing = await call("jira_update_issue", { issueKey: "BK-3" });
    expect(nothing.isError).toBe(true);
    expect(nothing.text).toMatch(/nothing to change/);
  });

  it("comments in Markdown", async () => {
    const res = await call("jira_add_comment", {
      issueKey: "BK-4",
      body: "Looked into it:\n\n- the cache is stale\n- **fix** is in review",
    });
    expect(res.isError).toBe(false);
    expect(res.data.url).toContain(`/browse/BK-4?focusedCommentId=${res.data.commentId}`);
    const read = await call("jira_get_issue", { issueKey: "BK-4", comments: 1 });
    expect(read.data.comments[0].body).toMatch(/- the cache is stale\n- \*\*fix\*\* is in review/);
  });

  it("moves an issue through the workflow by transition name or target status, with a comment", async () => {
    const created = await call("jira_create_issue", { projectKey: "BK", summary: "Workflow test" });
    const key = created.data.key as string;
    const transitions = await call("jira_get_transitions", { issueKey: key });
    expect(transitions.data.transitions.length).toBeGreaterThan(0);
    const target = transitions.data.transitions[0] as { name: string; to: string };
    const moved = await call("jira_transition_issue", { issueKey: key, transition: target.to.toUpperCase(), comment: "Starting *now*" });
    expect(moved.isError).toBe(false);
    expect(moved.data).toMatchObject({ key, status: target.to });
    const read = await call("jira_get_issue", { issueKey: key });
    expect(read.data.status).toBe(target.to);
    // Emphasis comes back in its underscore form: the same content.
    expect(read.data.comments.at(-1).body).toContain("Starting _now_");

    // The issue's own record shows the move: its changelog, and the transitions it has now.
    const history = await call("jira_get_issue", { issueKey: key, include: ["changelog", "transitions"] });
    expect(
      history.data.changelog.some((h: { changes: { field: string; to: string | null }[] }) =>
        h.changes.some((c) => c.field === "status" && c.to === target.to),
      ),
    ).toBe(true);
    expect(Array.isArray(history.data.transitions)).toBe(true);
    expect(history.text).toMatch(/## Changes \(latest \d+\)\n- .+status .+ → /);
    expect((await call("jira_get_issue", { issueKey: key })).data.changelog).toBeUndefined();

    const unknown = await call("jira_transition_issue", { issueKey: key, transition: "Teleport" });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/has no transition "Teleport" now\. Available: .+/);
  });

  it("finds users by name, and only those assignable where asked; the accountId assigns", async () => {
    const found = await call("jira_search_users", { query: "a", maxResults: 5 });
    expect(found.isError).toBe(false);
    const [user] = found.data.users as { accountId: string; name: string }[];
    expect(user!.accountId).toMatch(/\S+/);
    expect(found.text).toContain(user!.accountId);
    const assignable = await call("jira_search_users", { query: user!.name.slice(0, 3), issueKey: "BK-5" });
    expect(assignable.isError).toBe(false);
    const assigned = await call("jira_update_issue", { issueKey: "BK-5", assigneeAccountId: user!.accountId });
    expect(assigned.isError).toBe(false);
    expect((await call("jira_get_issue", { issueKey: "BK-5" })).data.assignee).toBe(user!.name);
    expect((await call("jira_search_users", { query: "zzzz-nobody" })).text).toMatch(/No users match/);
  });

  it("lists projects", async () => {
    const res = await call("jira_list_projects", {});
    expect(res.data.projects.map((p: { key: string }) => p.key)).toContain("BK");
    expect(res.text).toMatch(/^\d+ projects?/);
  });

  it("boards, their sprints and a sprint's issues grouped by status", async () => {
    const boards = await call("jira_list_boards", { projectKey: "BK" });
    expect(boards.isError).toBe(false);
    const scrum = (boards.data.boards as { id: number; type: string; project: string }[]).find((b) => b.type === "scrum")!;
    expect(scrum).toMatchObject({ project: "BK" });
    const sprints = await call("jira_list_sprints", { boardId: scrum.id, state: "active" });
    expect(sprints.isError).toBe(false);
    const [sprint] = sprints.data.sprints as { id: number; state: string }[];
    expect(sprint).toMatchObject({ state: "active" });
    const issues = await call("jira_get_sprint_issues", { sprintId: sprint!.id });
    expect(issues.isError).toBe(false);
    expect((issues.data.issues as { key: string }[]).length).toBeGreaterThan(0);
    expect(issues.text).toMatch(/^Sprint \d+: \d+ issues?/);
    expect(issues.text).toMatch(/\n## .+ \(\d+\)\n- BK-\d+ /);
    const missing = await call("jira_list_sprints", { boardId: 999_999 });
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/found nothing there \(404\)/);
  });

  it("bad arguments and upstream refusals are tool errors that say what to fix", async () => {
    const empty = await call("jira_create_issue", { projectKey: "BK", summary: "  " });
    expect(empty.isError).toBe(true);
    expect(empty.text).toMatch(/summary: summary must not be empty/);
    const spaced = await call("jira_update_issue", { issueKey: "BK-2", labels: ["two words"] });
    expect(spaced.text).toMatch(/labels\.0: a label is one word/);
    const project = await call("jira_create_issue", { projectKey: "NOPE", summary: "x" });
    expect(project.isError).toBe(true);
    expect(project.text).toMatch(/project: Specify a valid project/);
    const missing = await call("jira_add_comment", { issueKey: "BK-999999", body: "hello" });
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/found nothing there \(404\)/);

    await fault({ method: "POST", path: "/rest/api/3/issue", status: 500 });
    const failed = await call("jira_create_issue", { projectKey: "BK", summary: "Never created" });
    expect(failed.isError).toBe(true);
    expect(failed.text).toMatch(/internal error \(500\)/);
    const search = await call("jira_search", { jql: 'summary ~ "Never created"' });
    expect(search.data.issues).toHaveLength(0);
  });
});
