import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClientPolicyInput } from "../../../contract/policy";
import { createClient } from "../../oauth/oauth.adversarial.helpers";
import { mcpClient, startMcpRig, type McpRig } from "../mcp.test-rig";
import { closeToolTest, putPolicy } from "./tool-test-kit";

// @pglite-only: the tools' answers come from the sandbox; the database only holds the tokens and the audit rows.

/**
 * What a client limited to some Jira projects, Confluence spaces and Bitbucket repositories can
 * reach beyond its tools' named arguments: Jira's raw `fields` (a parent, an Epic Link, a sprint,
 * a link, a project), the related objects an answer embeds (links, totals), comments named
 * through another issue, and arguments in broken Unicode.
 */
describe("allow-lists reach into fields, related objects and comments", () => {
  let rig: McpRig;
  let open: Awaited<ReturnType<typeof mcpClient>>;
  let limited: Awaited<ReturnType<typeof mcpClient>>;
  let limitedId: string;
  const setLimited = async (p: ClientPolicyInput) => expect((await putPolicy(rig, limitedId, p)).status).toBe(200);
  beforeAll(async () => {
    rig = await startMcpRig({ upstream: { maxAttempts: 1 } });
    if ((await putPolicy(rig, rig.client.clientId)).status !== 200) throw new Error("policy");
    open = await mcpClient(rig, await rig.token("read write"), "reach-open");
    const client = await createClient(rig, { name: "BK only" });
    limitedId = client.clientId;
    await setLimited({ jiraProjects: ["BK"], bitbucketRepositories: ["api-gateway"] });
    limited = await mcpClient(rig, await rig.token("read write", client), "reach-limited");
  });
  afterAll(() => closeToolTest(rig, open, limited));

  const OUTSIDE = /This client may not use the Jira project OPS: an administrator limited it to BK/;
  /** An issue or project named by id is refused without naming where it lives (nor whether it exists). */
  const BY_ID = (id: string) =>
    new RegExp(`^Jira (?:issue|project|sprint) ${id} is outside this client's projects \\(BK\\) or does not exist`);
  const created = async (args: Record<string, unknown>) => {
    const res = await open.call("jira_create_issue", args);
    expect(res.isError, res.text).toBe(false);
    return res.data as { key: string; id: string };
  };
  /** The writes that reached Jira since `since` (the sandbox's request record). */
  const writesSince = (since: number) =>
    rig.sandbox.requests().filter((r) => r.at >= since && r.method !== "GET" && r.path.startsWith("/rest/"));
  const parentOf = async (key: string) => (await open.call("jira_get_issue", { issueKey: key })).data.parent as string | undefined;

  it("jira_create_issue: a parent in fields (by key or id) or an Epic Link outside the projects is refused, and nothing is created", async () => {
    const epic = await created({ projectKey: "OPS", issueType: "Epic", summary: "Outside epic" });
    const since = Date.now();
    for (const [fields, refusal] of [
      [{ parent: { key: epic.key } }, OUTSIDE],
      [{ parent: { id: epic.id } }, BY_ID(epic.id)],
      [{ parent: epic.key.toLowerCase() }, OUTSIDE],
      [{ customfield_10014: epic.key }, OUTSIDE],
    ] as const) {
      const res = await limited.call("jira_create_issue", {
        projectKey: "BK",
        issueType: "Story",
        summary: "Under an outside epic",
        fields,
      });
      expect(res.isError, JSON.stringify(fields)).toBe(true);
      expect(res.text).toMatch(refusal);
    }
    const batch = await limited.call("jira_create_issues", {
      issues: [
        { projectKey: "BK", summary: "Fine" },
        { projectKey: "BK", issueType: "Story", summary: "Under an outside epic", fields: { parent: { key: epic.key } } },
      ],
    });
    expect(batch.isError).toBe(true);
    expect(batch.text).toMatch(OUTSIDE);
    expect(writesSince(since)).toEqual([]);

    // Inside the projects, the same fields work (a BK epic; story points through the field list).
    const bkEpic = await created({ projectKey: "BK", issueType: "Epic", summary: "Inside epic" });
    const inside = await limited.call("jira_create_issue", {
      projectKey: "BK",
      issueType: "Story",
      summary: "Under an inside epic",
      fields: { parent: { id: bkEpic.id }, customfield_10016: 3 },
    });
    expect(inside.isError, inside.text).toBe(false);
    expect(await parentOf(inside.data.key)).toBe(bkEpic.key);
    const linked = await limited.call("jira_create_issue", {
      projectKey: "BK",
      issueType: "Story",
      summary: "Epic Link inside",
      fields: { customfield_10014: bkEpic.key },
    });
    expect(linked.isError, linked.text).toBe(false);
    expect(await parentOf(linked.data.key)).toBe(bkEpic.key);
  });

  it("jira_update_issue and jira_transition_issue: fields cannot re-parent, link, move or sprint an issue outside the projects", async () => {
    const epic = await created({ projectKey: "OPS", issueType: "Epic", summary: "Outside epic for edits" });
    const story = await created({ projectKey: "BK", issueType: "Story", summary: "Edited story" });
    const board = ((await open.call("jira_list_boards", { projectKey: "OPS" })).data.boards as { id: number }[])[0]!;
    const sprint = ((await open.call("jira_list_sprints", { boardId: board.id, state: "future" })).data.sprints as { id: number }[])[0]!;
    const since = Date.now();
    const bkLink = { type: { name: "Blocks" }, outwardIssue: { key: "BK-1" } };
    const auth = `Basic ${Buffer.from("demo@bridgekeeper.test:sandbox-api-token").toString("base64")}`;
    const opsProject = (
      (await (await fetch(`${rig.sandbox.url}/rest/api/3/project/OPS`, { headers: { authorization: auth } })).json()) as { id: string }
    ).id;
    for (const [fields, refusal] of [
      [{ parent: { key: epic.key } }, OUTSIDE],
      [{ parent: { id: Number(epic.id) } }, BY_ID(epic.id)],
      // Both a key and an id: Jira may place the reference by either, so both are checked.
      [{ parent: { key: "BK-1", id: epic.id } }, BY_ID(epic.id)],
      [{ issuelinks: [{ type: { name: "Blocks" }, outwardIssue: { key: "BK-1", id: epic.id } }] }, BY_ID(epic.id)],
      [{ project: { key: "BK", id: opsProject } }, BY_ID(opsProject)],
      [{ customfield_10014: epic.key }, OUTSIDE],
      [{ issuelinks: [{ type: { name: "Blocks" }, outwardIssue: { key: "OPS-1" } }] }, OUTSIDE],
      // Every operation of a link edit, not only the first.
      [{ issuelinks: [{ add: bkLink, remove: { type: { name: "Blocks" }, outwardIssue: { key: "OPS-1" } } }] }, OUTSIDE],
      [{ project: { key: "OPS" } }, OUTSIDE],
      [{ customfield_10020: sprint.id }, BY_ID(String(sprint.id))],
    ] as const) {
      const update = await limited.call("jira_update_issue", { issueKey: story.key, fields });
      expect(update.isError, JSON.stringify(fields)).toBe(true);
      expect(update.text, JSON.stringify(fields)).toMatch(refusal);
      const transition = await limited.call("jira_transition_issue", { issueKey: story.key, transition: "In Progress", fields });
      expect(transition.isError, JSON.stringify(fields)).toBe(true);
      expect(transition.text, JSON.stringify(fields)).toMatch(refusal);
    }
    // Refused by id, the answer names no project: an id outside and one that does not exist read alike.
    const byId = await limited.call("jira_update_issue", { issueKey: story.key, fields: { parent: { id: epic.id } } });
    const noSuch = await limited.call("jira_update_issue", { issueKey: story.key, fields: { parent: { id: "99999999" } } });
    expect(byId.text).not.toContain("OPS");
    expect(noSuch.text.replace("99999999", epic.id)).toBe(byId.text);
    expect(writesSince(since)).toEqual([]);
    expect(await parentOf(story.key)).toBeUndefined();
    // A value that names nothing Jira's way cannot be placed, so it is refused under a list.
    const vague = await limited.call("jira_update_issue", { issueKey: story.key, fields: { parent: { name: "the OPS epic" } } });
    expect(vague.isError).toBe(true);
    expect(vague.text).toMatch(/parent must name issues by key/);
  });

  it("jira_get_issue shows a linked issue outside the projects by key only, never its summary or status", async () => {
    const secret = await created({ projectKey: "OPS", summary: "Quarterly outage post-mortem (restricted)" });
    const mine = await created({ projectKey: "BK", summary: "Links outward" });
    expect((await open.call("jira_link_issues", { from: mine.key, type: "Blocks", to: secret.key })).isError).toBe(false);
    const openView = await open.call("jira_get_issue", { issueKey: mine.key });
    expect(openView.text).toContain("Quarterly outage post-mortem");

    const res = await limited.call("jira_get_issue", { issueKey: mine.key });
    expect(res.isError).toBe(false);
    expect(res.data.links).toEqual([{ type: "blocks", key: secret.key, outside: true }]);
    expect(res.text).toContain(`Link: blocks ${secret.key} (outside this client's projects)`);
    expect(JSON.stringify(res)).not.toContain("Quarterly outage");
  });

  it("jira_get_issue by numeric id outside the projects is refused without naming its project, like an id Jira does not have", async () => {
    const secret = await created({ projectKey: "OPS", summary: "Placed by id" });
    const res = await limited.call("jira_get_issue", { issueKey: secret.id });
    expect(res.isError).toBe(true);
    expect(res.text).toMatch(BY_ID(secret.id));
    expect(res.text).not.toContain("OPS");
    const none = await limited.call("jira_get_issue", { issueKey: "99999999" });
    expect(none.text.replace("99999999", secret.id)).toBe(res.text);
    // Inside the projects, an id reads as before.
    const mine = await created({ projectKey: "BK", summary: "Read by id" });
    expect((await limited.call("jira_get_issue", { issueKey: mine.id })).data.key).toBe(mine.key);
  });

  it("bitbucket_list_repositories: the total counts only allowed repositories, and names outside cannot be probed", async () => {
    const all = await open.call("bitbucket_list_repositories", { maxResults: 100 });
    expect(all.data.total).toBeGreaterThan(1);
    const res = await limited.call("bitbucket_list_repositories", { maxResults: 100 });
    expect(res.data).toMatchObject({ total: 1, repositories: [expect.objectContaining({ slug: "api-gateway" })] });
    expect(res.text).toMatch(/^1 repository in \w+ \(of 1\):/);
    const other = (all.data.repositories as { slug: string }[]).find((r) => r.slug !== "api-gateway")!.slug;
    const probe = await limited.call("bitbucket_list_repositories", { nameContains: other });
    expect(probe.data.repositories).toEqual([]);
    expect(probe.data.total ?? 0).toBe(0);
    expect(probe.text).not.toMatch(/\(of [1-9]/);
  });

  it("jira_edit_comment and jira_delete_comment: a comment of another issue cannot be reached by naming an allowed issue", async () => {
    const outside = await created({ projectKey: "OPS", summary: "Has a private comment" });
    const comment = await open.call("jira_add_comment", { issueKey: outside.key, body: "Private remark" });
    const commentId = comment.data.commentId as string;
    const since = Date.now();
    for (const [tool, args] of [
      ["jira_edit_comment", { issueKey: "BK-1", commentId, body: "Overwritten" }],
      ["jira_delete_comment", { issueKey: "BK-1", commentId }],
    ] as const) {
      const res = await limited.call(tool, args);
      expect(res.isError, tool).toBe(true);
      expect(res.text, tool).toMatch(new RegExp(`BK-1 has no comment ${commentId}`));
    }
    // Checked by a read through the issue, before any write was sent.
    expect(writesSince(since)).toEqual([]);
    const left = (await open.call("jira_list_comments", { issueKey: outside.key })).data.comments as { id: string; body: string }[];
    expect(left).toEqual([expect.objectContaining({ id: commentId, body: "Private remark" })]);
    // The issue's own comment is still edited and deleted.
    const own = await open.call("jira_add_comment", { issueKey: "BK-1", body: "Mine" });
    expect(
      (await limited.call("jira_edit_comment", { issueKey: "BK-1", commentId: own.data.commentId, body: "Mine, edited" })).isError,
    ).toBe(false);
    expect((await limited.call("jira_delete_comment", { issueKey: "BK-1", commentId: own.data.commentId })).isError).toBe(false);
  });

  it("under an open policy nothing extra is read: no comment before an edit or delete, no field list or issue before a create or update", async () => {
    const own = (await open.call("jira_add_comment", { issueKey: "BK-1", body: "Open remark" })).data.commentId as string;
    const bkEpic = await created({ projectKey: "BK", issueType: "Epic", summary: "Epic for an open client" });
    const since = Date.now();
    expect((await open.call("jira_edit_comment", { issueKey: "BK-1", commentId: own, body: "Open remark, edited" })).isError).toBe(false);
    expect((await open.call("jira_delete_comment", { issueKey: "BK-1", commentId: own })).isError).toBe(false);
    const story = await created({
      projectKey: "BK",
      issueType: "Story",
      summary: "Open create",
      fields: { parent: { id: bkEpic.id }, customfield_10016: 2 },
    });
    expect(
      (await open.call("jira_update_issue", { issueKey: story.key, fields: { parent: { id: bkEpic.id }, customfield_10016: 3 } })).isError,
    ).toBe(false);
    const reads = rig.sandbox.requests().filter((r) => r.at >= since && r.method === "GET");
    expect(reads.filter((r) => r.path.includes(`/comment/${own}`))).toEqual([]);
    expect(reads.filter((r) => r.path === "/rest/api/3/field" || r.path === `/rest/api/3/issue/${bkEpic.id}`)).toEqual([]);
  });

  it("the second line: a search Jira or Confluence answers outside the lists is withheld whole, naming nothing of what lay outside", async () => {
    // The sandbox answers each search once as a service that misread the held query would.
    const stray = (key: string) => ({
      id: "99001",
      key,
      fields: { summary: "Secret outside summary", status: { name: "To Do" }, issuetype: { name: "Task" } },
    });
    const inside = { id: "99000", key: "BK-1", fields: { summary: "Inside", status: { name: "To Do" }, issuetype: { name: "Task" } } };
    await setLimited({ jiraProjects: ["BK"], confluenceSpaces: ["ENG"], bitbucketRepositories: ["api-gateway"] });
    try {
      const withheld = (service: string, where: string, allowed: string) =>
        new RegExp(
          `^${service} answered this search with (?:issues|results) outside the ${where} this client is limited to \\(${allowed}\\), so Bridgekeeper withheld the whole answer\\.`,
        );
      for (const [tool, args, method, path, body] of [
        [
          "jira_search",
          { jql: "ORDER BY created DESC" },
          "POST",
          "/rest/api/3/search/jql",
          { issues: [inside, stray("OPS-3")], isLast: true },
        ],
        [
          "jira_get_board_issues",
          { boardId: 1 },
          "GET",
          "/rest/agile/1.0/board/1/issue",
          { startAt: 0, maxResults: 50, total: 2, issues: [inside, stray("OPS-3")] },
        ],
      ] as const) {
        rig.sandbox.faults.add({ path, method, body, times: 1 });
        const res = await limited.call(tool, args);
        expect(res.isError, tool).toBe(true);
        expect(res.text, tool).toMatch(withheld("Jira", "projects", "BK"));
        expect(res.text, tool).not.toMatch(/OPS|Secret/);
      }
      rig.sandbox.faults.add({
        path: "/wiki/rest/api/search",
        method: "GET",
        body: {
          results: [
            {
              content: { id: "1", type: "page", title: "Secret HR page", space: { key: "HR" } },
              resultGlobalContainer: { title: "HR", displayUrl: "/spaces/HR" },
            },
          ],
          start: 0,
          limit: 25,
          size: 1,
          totalSize: 1,
        },
        times: 1,
      });
      const res = await limited.call("confluence_search", { cql: "type = page" });
      expect(res.isError).toBe(true);
      expect(res.text).toMatch(withheld("Confluence", "spaces", "ENG"));
      expect(res.text).not.toMatch(/HR|Secret/);
    } finally {
      rig.sandbox.faults.clear();
      await setLimited({ jiraProjects: ["BK"], bitbucketRepositories: ["api-gateway"] });
    }
  });

  it("broken Unicode in a path, label, file name or account id is a tool error naming the argument, not an unexpected failure", async () => {
    for (const [tool, args, name] of [
      ["bitbucket_get_file", { repository: "api-gateway", path: "src/\uD800.ts" }, "path"],
      ["bitbucket_get_commit_diff", { repository: "api-gateway", commit: "7cf163d9dfe8", paths: ["a\uDC00"] }, "paths.0"],
      ["bitbucket_comment_pull_request", { repository: "api-gateway", pullRequestId: 1, body: "x", path: "\uD800", line: 1 }, "path"],
      ["confluence_label_page", { pageId: "1", remove: ["x\uD800"] }, "remove.0"],
      ["jira_remove_watcher", { issueKey: "BK-1", accountId: "\uDBFFx" }, "accountId"],
      ["jira_add_attachment", { issueKey: "BK-1", filename: "notes\uD800.txt", content: "x" }, "filename"],
    ] as const) {
      const res = await open.call(tool, args);
      expect(res.isError, tool).toBe(true);
      expect(res.text, tool).toMatch(new RegExp(`^Invalid arguments\\. ${name.replace(".", "\\.")}: [^;]*holds broken Unicode`));
    }
    // A well-formed surrogate pair (an emoji) is text like any other.
    expect((await open.call("bitbucket_get_file", { repository: "api-gateway", path: "\uD83D\uDE00.md" })).text).not.toMatch(
      /Invalid arguments|unexpectedly/,
    );
  });
});
