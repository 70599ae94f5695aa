import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TYPE_EPIC } from "../../../sandbox/jira/catalog";
import type { Adf } from "../../../sandbox/jira/model";
import { mcpClient, startMcpRig, type McpRig, dataCenterAtlassianConfig } from "../mcp.test-rig";
import { adfToMarkdown } from "./markdown/adf-to-markdown";
import { closeToolTest, clearSandboxFaults, setPolicy, sandboxFault } from "./tool-test-kit";

// @pglite-only: the tools' answers come from the sandbox's Data Center flavour; the database only holds the token and the audit rows.

/**
 * The Jira tools on Jira Data Center (issue 28) through a real MCP client, against the sandbox's
 * Data Center flavour: the same tools, arguments and answers as on Cloud, with REST v2 behind them
 * (wiki markup, usernames, offset search) and the Data Center state holding what Jira DC stores.
 */
describe("Jira tools on Data Center", () => {
  let rig: McpRig;
  let client: Awaited<ReturnType<typeof mcpClient>>;
  beforeAll(async () => {
    rig = await startMcpRig({ upstream: { maxAttempts: 1 } }, { flavour: "datacenter" });
    await setPolicy(rig, rig.client.clientId);
    client = await mcpClient(rig, await rig.token("read write"), "jira-dc-test");
  });
  afterAll(() => closeToolTest(rig, client));

  const call = (name: string, args: Record<string, unknown>) => client.call(name, args);
  const dc = () => rig.sandbox.state("jira", "datacenter");
  const normalise = (md: string) =>
    md
      .replace(/[ \t]+$/gm, "")
      .replace(/\n{3,}/g, "\n\n")
      .trim();
  const MARKDOWN = [
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
  ].join("\n");

  it("reads an issue's wiki markup as the Markdown Cloud shows for the same seeded issue", async () => {
    for (const key of ["BK-1", "BK-2", "OPS-7", "WEB-12"]) {
      const seeded = rig.sandbox.state("jira").issuesByKey.get(key)!;
      const read = await call("jira_get_issue", { issueKey: key, comments: 50 });
      expect(read.isError, read.text).toBe(false);
      expect(read.data.description).toBe(adfToMarkdown(seeded.description as Adf | null));
      expect(read.data.comments.map((c: { body: string }) => c.body)).toEqual(seeded.comments.map((c) => adfToMarkdown(c.body)));
      const assignee = seeded.assigneeId ? rig.sandbox.state("jira").usersById.get(seeded.assigneeId)!.displayName : null;
      expect(read.data.assignee).toBe(assignee);
      expect(read.data.url).toBe(`${rig.sandbox.dataCenter.jira}/browse/${key}`);
    }
  });

  it("creates and updates from Markdown: Jira DC holds wiki markup, and the tool reads back the Markdown written", async () => {
    const created = await call("jira_create_issue", {
      projectKey: "BK",
      issueType: "Bug",
      summary: "Expired token on DC",
      description: MARKDOWN,
      assigneeAccountId: "priya.raman",
      labels: ["auth"],
    });
    expect(created.isError, created.text).toBe(false);
    const key = created.data.key as string;
    const stored = dc().issuesByKey.get(key)!;
    expect(stored.description).toBe(
      "h2. Steps\n\n# Open the *login* page\n# Enter a {{token}} that expired\n\nExpected: a [clear message|https://example.com/help].\n\n{code:ts}\nconst expired = true;\n{code}",
    );
    expect(dc().usersById.get(stored.assigneeId!)!.name).toBe("priya.raman");
    const read = await call("jira_get_issue", { issueKey: key });
    expect(normalise(read.data.description as string)).toBe(MARKDOWN);
    expect(read.data).toMatchObject({ assignee: "Priya Raman", type: "Bug", labels: ["auth"] });

    const updated = await call("jira_update_issue", { issueKey: key, description: "Fixed in **v2**", assigneeAccountId: null });
    expect(updated.isError, updated.text).toBe(false);
    expect(stored.description).toBe("Fixed in *v2*");
    expect(stored.assigneeId).toBeNull();
  });

  it("assigns by username (the accountId on DC), and says so when the username is unknown", async () => {
    const users = await call("jira_search_users", { query: "marcus", projectKey: "OPS" });
    expect(users.data.users).toEqual([
      { accountId: "marcus.chen", name: "Marcus Chen", email: "marcus.chen@bridgekeeper.test", active: true },
    ]);
    const assigned = await call("jira_assign_issue", { issueKey: "OPS-2", accountId: "marcus.chen" });
    expect(assigned.isError, assigned.text).toBe(false);
    expect(dc().usersById.get(dc().issuesByKey.get("OPS-2")!.assigneeId!)!.name).toBe("marcus.chen");
    expect((await call("jira_get_issue", { issueKey: "OPS-2" })).data.assignee).toBe("Marcus Chen");
    const unknown = await call("jira_assign_issue", { issueKey: "OPS-2", accountId: "nobody.here" });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/assignee: User 'nobody\.here' does not exist/);
    const me = await call("jira_current_user", {});
    expect(me.data).toMatchObject({ accountId: "demo", displayName: "Demo Admin" });
  });

  it("comments, work logs and a transition comment in Markdown, kept as wiki; comments listed newest first", async () => {
    const comment = await call("jira_add_comment", {
      issueKey: "WEB-4",
      body: "Looked into it:\n\n- the cache is stale\n- **fix** is in review",
    });
    expect(comment.isError, comment.text).toBe(false);
    const issue = dc().issuesByKey.get("WEB-4")!;
    expect(issue.comments.at(-1)!.body).toBe("Looked into it:\n\n* the cache is stale\n* *fix* is in review");
    const listed = await call("jira_list_comments", { issueKey: "WEB-4", maxResults: 2 });
    expect(listed.data.comments[0]).toMatchObject({
      id: comment.data.commentId,
      body: "Looked into it:\n\n- the cache is stale\n- **fix** is in review",
    });
    expect(listed.data.total).toBe(issue.comments.length);
    if (issue.comments.length > 2) {
      const next = await call("jira_list_comments", { issueKey: "WEB-4", maxResults: 2, cursor: listed.data.nextCursor });
      expect(next.data.comments[0].id).toBe(issue.comments.at(-3)!.id);
    }
    const edited = await call("jira_edit_comment", { issueKey: "WEB-4", commentId: comment.data.commentId, body: "Now _fixed_" });
    expect(edited.isError).toBe(false);
    expect(issue.comments.at(-1)!.body).toBe("Now _fixed_");

    const logged = await call("jira_add_worklog", { issueKey: "WEB-4", timeSpent: "1h 30m", comment: "Paired with **Ana**" });
    expect(logged.isError, logged.text).toBe(false);
    expect(issue.worklogs.at(-1)!.comment).toBe("Paired with *Ana*");
    const worklogs = await call("jira_list_worklogs", { issueKey: "WEB-4", maxResults: 100 });
    expect(worklogs.data.worklogs.at(-1)).toMatchObject({ comment: "Paired with **Ana**", timeSpentSeconds: 5400, author: "Demo Admin" });

    const transitions = await call("jira_get_transitions", { issueKey: "WEB-4" });
    const target = transitions.data.transitions[0] as { name: string; to: string };
    const moved = await call("jira_transition_issue", { issueKey: "WEB-4", transition: target.name, comment: "Starting *now*" });
    expect(moved.isError, moved.text).toBe(false);
    expect(issue.comments.at(-1)!.body).toBe("Starting _now_");
  });

  it("pages a JQL search with nextCursor (the offset sealed inside), none twice", async () => {
    const jql = "project = OPS ORDER BY key ASC";
    const keys: string[] = [];
    let cursor: string | undefined;
    for (let n = 0; n < 20; n++) {
      const page = await call("jira_search", { jql, maxResults: 40, ...(cursor ? { cursor } : {}) });
      expect(page.isError, page.text).toBe(false);
      keys.push(...page.data.issues.map((i: { key: string }) => i.key));
      cursor = page.data.nextCursor ?? undefined;
      if (!cursor) break;
    }
    const expected = dc()
      .issues.filter((i) => i.key.startsWith("OPS-"))
      .map((i) => i.key)
      .sort();
    expect([...keys].sort()).toEqual(expected);
    expect(new Set(keys).size).toBe(keys.length);
    const tampered = await call("jira_search", { jql: "project = BK", cursor: "not-a-cursor" });
    expect(tampered.isError).toBe(true);
    const bad = await call("jira_search", { jql: "project = NOPE" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/The value 'NOPE' does not exist for the field 'project'/);
  });

  it("pages a search past 1,000 results (600 issues more from jira_create_issues), each issue once", async () => {
    for (let batch = 0; batch < 12; batch++) {
      const made = await call("jira_create_issues", {
        issues: Array.from({ length: 50 }, (_, n) => ({ projectKey: "WEB", summary: `Bulk ${batch * 50 + n}` })),
      });
      expect(made.isError, made.text).toBe(false);
      expect(made.data.created).toHaveLength(50);
    }
    const keys = new Set<string>();
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await call("jira_search", {
        jql: "project in (BK, OPS, WEB) ORDER BY key ASC",
        maxResults: 100,
        ...(cursor ? { cursor } : {}),
      });
      expect(page.isError, page.text).toBe(false);
      for (const i of page.data.issues as { key: string }[]) keys.add(i.key);
      cursor = page.data.nextCursor ?? undefined;
      pages++;
    } while (cursor && pages < 20);
    // 500 seeded, 600 made here, and what the tests before made.
    const total = dc().issues.length;
    expect(total).toBeGreaterThanOrEqual(1100);
    expect(keys.size).toBe(total);
    expect(pages).toBe(Math.ceil(total / 100));
  });

  it("create fields, edit fields and field search from Data Center's metadata", async () => {
    const create = await call("jira_get_create_fields", { projectKey: "BK", issueType: "bug" });
    expect(create.isError, create.text).toBe(false);
    expect(create.data.issueType.name).toBe("Bug");
    expect(create.data.fields[0]).toMatchObject({ id: "summary", required: true });
    expect(create.data.fields.map((f: { id: string }) => f.id)).toContain("customfield_10016");
    const unknown = await call("jira_get_create_fields", { projectKey: "BK", issueType: "Saga" });
    expect(unknown.text).toMatch(/has no issue type "Saga"\. Its types are: .*Bug/);
    const edit = await call("jira_get_edit_fields", { issueKey: "BK-1" });
    expect(edit.data.fields.map((f: { id: string }) => f.id)).toContain("labels");
    const fields = await call("jira_search_fields", { query: "story point" });
    expect(fields.data.fields[0]).toMatchObject({ id: "customfield_10016" });
  });

  it("boards, sprints, a board's issues with its Data Center link, and an epic's children by Epic Link", async () => {
    const boards = await call("jira_list_boards", { projectKey: "BK" });
    const board = boards.data.boards[0] as { id: number };
    const sprints = await call("jira_list_sprints", { boardId: board.id, state: "active" });
    const sprint = sprints.data.sprints[0] as { id: number };
    const sprintIssues = await call("jira_get_sprint_issues", { sprintId: sprint.id });
    expect(sprintIssues.data.issues.length).toBeGreaterThan(0);
    const onBoard = await call("jira_get_board_issues", { boardId: board.id, maxResults: 10 });
    expect(onBoard.isError, onBoard.text).toBe(false);
    expect(onBoard.data.url).toBe(`${rig.sandbox.dataCenter.jira}/secure/RapidBoard.jspa?rapidView=${board.id}`);
    expect(onBoard.data.nextCursor).toEqual(expect.any(String));

    const epic = dc().issues.find((i) => i.typeId === TYPE_EPIC && (dc().children.get(i.id) ?? []).length > 0)!;
    const children = await call("jira_get_epic_children", { epicKey: epic.key });
    expect(children.isError, children.text).toBe(false);
    expect(children.data.issues.map((i: { key: string }) => i.key).sort()).toEqual(
      (dc().children.get(epic.id) ?? []).map((id) => dc().issuesById.get(id)!.key).sort(),
    );
    // A Jira that refuses the Epic Link clause (the key is no epic) still lists the sub-tasks.
    await sandboxFault(rig, {
      method: "POST",
      path: "/dc/jira/rest/api/2/search",
      status: 400,
      body: { errorMessages: [`The issue ${epic.key} is not an epic.`], errors: {} },
      times: 1,
    });
    rig.sandbox.clearRequests();
    const fallback = await call("jira_get_epic_children", { epicKey: epic.key });
    expect(fallback.isError, fallback.text).toBe(false);
    expect(rig.sandbox.requests().filter((r) => r.path === "/dc/jira/rest/api/2/search")).toHaveLength(2);
    expect(fallback.data.issues.length).toBeGreaterThan(0);
    await clearSandboxFaults(rig);

    const moved = await call("jira_move_issues_to_backlog", { issueKeys: ["BK-2"] });
    expect(moved.isError, moved.text).toBe(false);
  });

  it("watchers by username", async () => {
    expect((await call("jira_add_watcher", { issueKey: "BK-9", accountId: "elena.petrova" })).isError).toBe(false);
    const watchers = await call("jira_list_watchers", { issueKey: "BK-9" });
    expect(watchers.data.watchers.map((w: { accountId: string }) => w.accountId)).toContain("elena.petrova");
    expect((await call("jira_remove_watcher", { issueKey: "BK-9", accountId: "elena.petrova" })).isError).toBe(false);
    const unknown = await call("jira_add_watcher", { issueKey: "BK-9", accountId: "nobody.here" });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/nobody\.here/);
  });

  it("attaches a file and reads it back from Jira DC's attachment servlet", async () => {
    const added = await call("jira_add_attachment", { issueKey: "BK-8", filename: "notes.md", content: "# Notes\n\nfrom DC" });
    expect(added.isError, added.text).toBe(false);
    const listed = await call("jira_list_attachments", { issueKey: "BK-8" });
    expect(listed.data.attachments.map((a: { filename: string }) => a.filename)).toContain("notes.md");
    const read = await call("jira_read_attachment", { issueKey: "BK-8", attachmentId: added.data.attachment.id, maxBytes: 100 });
    expect(read.data).toMatchObject({ content: "# Notes\n\nfrom DC", truncated: false, mimeType: "text/markdown" });
    const long = await call("jira_add_attachment", { issueKey: "BK-8", filename: "long.txt", content: "x".repeat(150) });
    const cut = await call("jira_read_attachment", { issueKey: "BK-8", attachmentId: long.data.attachment.id, maxBytes: 100 });
    expect(cut.data).toMatchObject({ content: "x".repeat(100), truncated: true, size: 150 });
    const wrongIssue = await call("jira_read_attachment", { issueKey: "BK-7", attachmentId: added.data.attachment.id });
    expect(wrongIssue.isError).toBe(true);
  });

  it("reads Data Center's refusals as clearly as Cloud's: a 401, a 404", async () => {
    await sandboxFault(rig, { path: "/dc/jira/rest/api/2/myself", status: 401, times: 1 });
    const refused = await call("jira_current_user", {});
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/Jira refused .*credentials \(401\)/);
    const missing = await call("jira_get_issue", { issueKey: "BK-999999" });
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/found nothing there \(404\)/);
  });

  it("with a person's personal access token, only their projects: priya.raman sees BK and WEB", async () => {
    const saved = await rig.admin.post("/api/admin/atlassian-config", dataCenterAtlassianConfig(rig.sandbox, "sandbox-dc-pat-priya"));
    expect(saved.status).toBeLessThan(300);
    const projects = await call("jira_list_projects", {});
    expect(projects.data.projects.map((p: { key: string }) => p.key)).toEqual(["BK", "WEB"]);
    const found = await call("jira_search", { jql: "issuetype = Epic ORDER BY key ASC", maxResults: 100 });
    expect(found.isError, found.text).toBe(false);
    expect(new Set(found.data.issues.map((i: { key: string }) => i.key.split("-")[0]))).toEqual(new Set(["BK", "WEB"]));
    const hidden = await call("jira_get_issue", { issueKey: "OPS-1" });
    expect(hidden.isError).toBe(true);
    expect((await call("jira_current_user", {})).data.accountId).toBe("priya.raman");
  });
});
