import { z } from "zod";
import { collect, firstOf } from "../../upstream/paginate";
import { cursorArg, offsetPaging } from "./cursor";
import { nameOf, shortDate } from "./format";
import { browseUrl, explainJqlError } from "./jira.tools";
import { assertBoardAllowed, assertIssuesHeld, assertProjectAllowed, assertSprintAllowed, constrainJql, issueInProjects } from "./policy";
import { defineTool, READ_ONLY, type ToolContext } from "./tool";

/** Jira Software's boards and sprints (Agile REST 1.0): where a team's current work is. */

const boardId = z.number().int("boardId must be a whole number").min(1, "boardId must be at least 1").describe("A board id from jira_list_boards.");

/** Boards of projects outside a client's Jira allow-list are not shown; a board named by id is checked by its project. */
const boardAllowed = (ctx: ToolContext, projectKey: string | null) => ctx.policy.jiraProjects === null || (projectKey !== null && ctx.policy.jiraProjects.includes(projectKey.toUpperCase()));

export const jiraListBoards = defineTool({
  name: "jira_list_boards",
  service: "jira",
  toolset: "jira-agile",
  scope: "read",
  description: "List Jira Software boards (Scrum and Kanban), optionally of one project.",
  input: z.object({
    projectKey: z.string().trim().regex(/^[A-Za-z][A-Za-z0-9_]{0,49}$/, "projectKey must be a project key such as BK").optional().describe("Only this project's boards."),
    maxResults: z.number().int().min(1).max(200, "maxResults may be at most 200").default(50),
  }),
  output: z.object({ boards: z.array(z.object({ id: z.number().int(), name: z.string(), type: z.string(), project: z.string().nullable() })) }),
  annotations: { title: "List Jira boards", ...READ_ONLY },
  async run({ projectKey, maxResults }, ctx) {
    if (projectKey) assertProjectAllowed(ctx, projectKey);
    const all = (await collect(ctx.clients.jira.boards(projectKey?.toUpperCase(), maxResults))) as { id: number; name: string; type: string; location?: { projectKey?: string } }[];
    const boards = all.map((b) => ({ id: b.id, name: b.name, type: b.type, project: b.location?.projectKey ?? null })).filter((b) => boardAllowed(ctx, b.project));
    const lines = boards.map((b) => `- ${b.id}: ${b.name} (${b.type}${b.project ? `, ${b.project}` : ""})`);
    return { structured: { boards }, text: boards.length ? [`${boards.length} board${boards.length === 1 ? "" : "s"}:`, ...lines].join("\n") : "No boards." };
  },
});

const SprintSchema = z.object({ id: z.number().int(), name: z.string(), state: z.string(), goal: z.string().nullable(), start: z.string().nullable(), end: z.string().nullable() });

export const jiraListSprints = defineTool({
  name: "jira_list_sprints",
  service: "jira",
  toolset: "jira-agile",
  scope: "read",
  description: "List a Scrum board's sprints: the active ones by default, or future or closed ones.",
  input: z.object({
    boardId,
    state: z.enum(["active", "future", "closed"], { error: "state must be active, future or closed" }).default("active"),
    maxResults: z.number().int().min(1).max(100, "maxResults may be at most 100").default(20),
  }),
  output: z.object({ sprints: z.array(SprintSchema) }),
  annotations: { title: "List a board's sprints", ...READ_ONLY },
  async run({ boardId: id, state, maxResults }, ctx) {
    await assertBoardAllowed(ctx, id);
    const sprints = ((await collect(ctx.clients.jira.sprints(id, state, maxResults))) as { id: number; name: string; state: string; goal?: string; startDate?: string; endDate?: string }[]).map((s) => ({
      id: s.id,
      name: s.name,
      state: s.state,
      goal: s.goal || null,
      start: s.startDate ?? null,
      end: s.endDate ?? null,
    }));
    const lines = sprints.map((s) => `- ${s.id}: ${s.name} [${s.state}]${s.start ? ` ${shortDate(s.start)?.slice(0, 10)} → ${shortDate(s.end)?.slice(0, 10) ?? "?"}` : ""}${s.goal ? ` — ${s.goal}` : ""}`);
    return { structured: { sprints }, text: sprints.length ? [`${sprints.length} ${state} sprint${sprints.length === 1 ? "" : "s"} on board ${id}:`, ...lines].join("\n") : `No ${state} sprints on board ${id}.` };
  },
});

export const jiraGetSprintIssues = defineTool({
  name: "jira_get_sprint_issues",
  service: "jira",
  toolset: "jira-agile",
  scope: "read",
  description: "The issues of a sprint, grouped by status, with assignee and type.",
  input: z.object({
    sprintId: z.number().int("sprintId must be a whole number").min(1, "sprintId must be at least 1"),
    maxResults: z.number().int().min(1).max(200, "maxResults may be at most 200").default(100),
  }),
  output: z.object({
    issues: z.array(z.object({ key: z.string(), summary: z.string(), status: z.string().nullable(), assignee: z.string().nullable(), type: z.string().nullable(), url: z.string().nullable() })),
    truncated: z.boolean(),
  }),
  annotations: { title: "Read a sprint's issues", ...READ_ONLY },
  async run({ sprintId, maxResults }, ctx) {
    // The sprint is placed by its board (as jira_list_sprints places a board): outside the list it
    // is refused, not answered as empty; inside, issues of other projects it holds are left out.
    await assertSprintAllowed(ctx, sprintId);
    const { items: found, truncated } = await firstOf(ctx.clients.jira.sprintIssues(sprintId), maxResults, (i) => issueInProjects(ctx.policy, i.key));
    const issues = found.map((i) => ({ key: i.key, summary: typeof i.fields.summary === "string" ? i.fields.summary : "", status: nameOf(i.fields.status), assignee: nameOf(i.fields.assignee), type: nameOf(i.fields.issuetype), url: browseUrl(ctx, i.key) }));
    const byStatus = new Map<string, typeof issues>();
    for (const i of issues) byStatus.set(i.status ?? "?", [...(byStatus.get(i.status ?? "?") ?? []), i]);
    const sections = [...byStatus].map(([status, list]) => `## ${status} (${list.length})\n${list.map((i) => `- ${i.key} ${i.summary} — ${i.type ?? "?"} · ${i.assignee ?? "unassigned"}`).join("\n")}`);
    return { structured: { issues, truncated }, text: issues.length ? [`Sprint ${sprintId}: ${issues.length} issue${issues.length === 1 ? "" : "s"}${truncated ? " (more: raise maxResults)" : ""}`, ...sections].join("\n\n") : `Sprint ${sprintId} has no issues.` };
  },
});

const BOARD_ISSUE_FIELDS = ["summary", "status", "assignee", "issuetype", "sprint"];

/** A board in Jira's web UI (company- and team-managed boards alike live under their project). */
const boardUrl = (ctx: ToolContext, id: number, projectKey: string | null) => (ctx.atlassianUrl && projectKey ? `${ctx.atlassianUrl}/jira/software/projects/${projectKey}/boards/${id}` : null);

export const jiraGetBoardIssues = defineTool({
  name: "jira_get_board_issues",
  service: "jira",
  toolset: "jira-agile",
  scope: "read",
  description: "The issues on a board (Scrum or Kanban), optionally narrowed by JQL, with status, type, assignee and sprint, grouped by status. Pages with nextCursor.",
  input: z.object({
    boardId,
    jql: z.string().trim().max(2000, "jql may be at most 2000 characters").optional().describe('Narrows the board\'s issues, e.g. status = "In Progress" ORDER BY rank.'),
    maxResults: z.number().int("maxResults must be a whole number").min(1, "maxResults must be at least 1").max(100, "maxResults may be at most 100").default(50),
    cursor: cursorArg,
  }),
  output: z.object({
    boardId: z.number().int(),
    board: z.string().nullable(),
    issues: z.array(z.object({ key: z.string(), summary: z.string(), status: z.string().nullable(), assignee: z.string().nullable(), type: z.string().nullable(), sprint: z.string().nullable(), url: z.string().nullable() })),
    total: z.number().int().nullable(),
    nextCursor: z.string().nullable(),
    url: z.string().nullable(),
  }),
  annotations: { title: "Read a board's issues", ...READ_ONLY },
  async run({ boardId: id, jql: given, maxResults, cursor }, ctx) {
    // A board's filter may span projects: the JQL keeps the answer inside the allow-list too.
    const jql = constrainJql(given ?? "", ctx.policy) || undefined;
    const paging = offsetPaging(ctx.cursors, `jira_get_board_issues\u0000${id}\u0000${jql ?? ""}`, cursor);
    // Under a Jira allow-list the board is placed by its project before any issue is read.
    const reading = ctx.clients.jira.board(id);
    await assertBoardAllowed(ctx, id, reading);
    const [board, page] = await Promise.all([
      reading,
      ctx.clients.jira.boardIssuesPage(id, { jql, startAt: paging.startAt, maxResults, fields: BOARD_ISSUE_FIELDS }).catch((err: unknown) => explainJqlError(ctx, err)),
    ]);
    // The JQL holds the board to the list; an issue outside it anyway withholds the answer (policy.ts).
    assertIssuesHeld(ctx.policy, page.issues);
    const issues = page.issues.map((i) => ({
      key: i.key,
      summary: typeof i.fields.summary === "string" ? i.fields.summary : "",
      status: nameOf(i.fields.status),
      assignee: nameOf(i.fields.assignee),
      type: nameOf(i.fields.issuetype),
      sprint: nameOf(i.fields.sprint),
      url: browseUrl(ctx, i.key),
    }));
    // The next page starts after what Jira gave, so none repeats.
    const { end, total, nextCursor } = paging.next(page.issues.length, page.total);
    const projectKey = board.location?.projectKey ?? null;
    const url = boardUrl(ctx, id, projectKey);
    const byStatus = new Map<string, typeof issues>();
    for (const i of issues) byStatus.set(i.status ?? "?", [...(byStatus.get(i.status ?? "?") ?? []), i]);
    const sections = [...byStatus].map(([status, list]) => `## ${status} (${list.length})\n${list.map((i) => `- ${i.key} ${i.summary} — ${i.type ?? "?"} · ${i.assignee ?? "unassigned"}${i.sprint ? ` · ${i.sprint}` : ""}`).join("\n")}`);
    const name = `Board ${id} "${board.name}"`;
    const head = issues.length
      ? `${name}: issues ${paging.startAt + 1}-${end}${total !== null ? ` of ${total}` : ""}${given ? ` matching ${given}` : ""}${nextCursor ? " (more: call again with the cursor below)" : ""}`
      : `${name} has no ${paging.startAt > 0 ? "more " : ""}issues${given ? ` matching ${given}` : ""}.`;
    const text = [[head, url].filter(Boolean).join("\n"), ...sections, ...(nextCursor ? [`nextCursor: ${nextCursor}`] : [])].join("\n\n");
    return { structured: { boardId: id, board: board.name ?? null, issues, total, nextCursor, url }, text };
  },
});

export const JIRA_AGILE_TOOLS = [jiraListBoards, jiraListSprints, jiraGetSprintIssues, jiraGetBoardIssues];
