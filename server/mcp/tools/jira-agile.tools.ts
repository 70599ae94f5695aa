import { z } from "zod";
import { collect, firstOf } from "../../upstream/paginate";
import { nameOf, shortDate } from "./format";
import { browseUrl } from "./jira.tools";
import { assertProjectAllowed } from "./policy";
import { assertSprintAllowed } from "./jira-sprints.tools";
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
    if (ctx.policy.jiraProjects !== null) {
      const board = await ctx.clients.jira.board(id);
      const project = board.location?.projectKey ?? null;
      if (!boardAllowed(ctx, project)) assertProjectAllowed(ctx, project ?? "(no project)");
    }
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
    const allowed = ctx.policy.jiraProjects;
    const { items: found, truncated } = await firstOf(ctx.clients.jira.sprintIssues(sprintId), maxResults, (i) => allowed === null || allowed.includes(i.key.split("-")[0]!.toUpperCase()));
    const issues = found.map((i) => ({ key: i.key, summary: typeof i.fields.summary === "string" ? i.fields.summary : "", status: nameOf(i.fields.status), assignee: nameOf(i.fields.assignee), type: nameOf(i.fields.issuetype), url: browseUrl(ctx, i.key) }));
    const byStatus = new Map<string, typeof issues>();
    for (const i of issues) byStatus.set(i.status ?? "?", [...(byStatus.get(i.status ?? "?") ?? []), i]);
    const sections = [...byStatus].map(([status, list]) => `## ${status} (${list.length})\n${list.map((i) => `- ${i.key} ${i.summary} — ${i.type ?? "?"} · ${i.assignee ?? "unassigned"}`).join("\n")}`);
    return { structured: { issues, truncated }, text: issues.length ? [`Sprint ${sprintId}: ${issues.length} issue${issues.length === 1 ? "" : "s"}${truncated ? " (more: raise maxResults)" : ""}`, ...sections].join("\n\n") : `Sprint ${sprintId} has no issues.` };
  },
});

export const JIRA_AGILE_TOOLS = [jiraListBoards, jiraListSprints, jiraGetSprintIssues];
