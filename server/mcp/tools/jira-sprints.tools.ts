import { z } from "zod";
import { isUpstreamError } from "../../upstream/errors";
import type { JiraSprint } from "../../upstream/jira.client";
import { cursorArg } from "./cursor";
import { nameOf, shortDate } from "./format";
import { browseUrl, ISSUE_KEY } from "./jira.tools";
import { assertBoardAllowed, assertIssueAllowed, assertSprintAllowed, searchInProjects } from "./policy";
import { defineTool, READ_ONLY, ToolError, WRITES } from "./tool";

/**
 * Planning work in Jira Software (Agile REST 1.0): creating and changing sprints, moving issues
 * between sprints and the backlog, and an epic's children. A sprint is placed in a project by its
 * board, so under a Jira allow-list the board is read before anything is written.
 */

const boardId = z.number().int("boardId must be a whole number").min(1, "boardId must be at least 1").describe("A board id from jira_list_boards.");
const sprintId = z.number().int("sprintId must be a whole number").min(1, "sprintId must be at least 1").describe("A sprint id from jira_list_sprints.");
const SPRINT_NAME = z.string().trim().min(1, "name must not be empty").max(30, "name may be at most 30 characters (Jira's limit for a sprint name)");
const goal = z.string().trim().max(1_000, "goal may be at most 1000 characters");
const WHEN = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:?\d{2}))?$/;
const when = (name: string) =>
  z
    .string()
    .trim()
    .regex(WHEN, `${name} must be a date such as 2026-12-01 or a date and time such as 2026-12-01T09:00:00Z`)
    .refine((v) => !Number.isNaN(Date.parse(v.length === 10 ? `${v}T00:00:00Z` : v)), `${name} is not a real date`)
    .transform((v) => new Date(v.length === 10 ? `${v}T00:00:00Z` : v).toISOString());
const issueKeys = z
  .array(z.string().trim().regex(ISSUE_KEY, "each issue key must look like BK-12"), { error: "issueKeys must be a list of issue keys" })
  .min(1, "issueKeys must name at least one issue")
  .max(50, "issueKeys may name at most 50 issues (Jira moves at most 50 at once)")
  .transform((keys) => [...new Set(keys.map((k) => k.toUpperCase()))])
  .describe('Issue keys, e.g. ["BK-12", "BK-13"]; their sub-tasks follow.');

const SprintSchema = z.object({ sprintId: z.number().int(), name: z.string(), state: z.string(), goal: z.string().nullable(), start: z.string().nullable(), end: z.string().nullable(), boardId: z.number().int().nullable() });

const present = (s: JiraSprint) => ({ sprintId: s.id, name: s.name, state: s.state, goal: s.goal || null, start: s.startDate ?? null, end: s.endDate ?? null, boardId: s.originBoardId ?? null });

const sprintLine = (s: ReturnType<typeof present>) =>
  [`sprint ${s.sprintId} "${s.name}" [${s.state}]${s.boardId !== null ? ` on board ${s.boardId}` : ""}`, s.start || s.end ? `${shortDate(s.start) ?? "?"} → ${shortDate(s.end) ?? "?"}` : null, s.goal ? `Goal: ${s.goal}` : null].filter(Boolean).join("\n");

const checkOrder = (start: string | undefined, end: string | undefined) => {
  if (start && end && Date.parse(end) < Date.parse(start)) throw new ToolError("endDate is before startDate: give an end date after the start date.");
};

export const jiraCreateSprint = defineTool({
  name: "jira_create_sprint",
  service: "jira",
  toolset: "jira-agile",
  scope: "write",
  description: "Create a future sprint on a Scrum board, optionally with a goal and dates; start it with jira_update_sprint.",
  input: z.object({ boardId, name: SPRINT_NAME, goal: goal.optional(), startDate: when("startDate").optional(), endDate: when("endDate").optional() }),
  output: SprintSchema,
  annotations: { title: "Create a Jira sprint", ...WRITES },
  async run({ boardId: board, name, goal: text, startDate, endDate }, ctx) {
    checkOrder(startDate, endDate);
    await assertBoardAllowed(ctx, board);
    const sprint = present(await ctx.clients.jira.createSprint({ originBoardId: board, name, ...(text ? { goal: text } : {}), ...(startDate ? { startDate } : {}), ...(endDate ? { endDate } : {}) }));
    return { structured: sprint, text: `Created ${sprintLine(sprint)}` };
  },
});

export const jiraUpdateSprint = defineTool({
  name: "jira_update_sprint",
  service: "jira",
  toolset: "jira-agile",
  scope: "write",
  description: "Change a sprint: name, goal, dates; state active starts a future sprint (it needs both dates), closed completes an active one. Only what is given changes.",
  input: z
    .object({
      sprintId,
      name: SPRINT_NAME.optional(),
      goal: goal.optional(),
      startDate: when("startDate").optional(),
      endDate: when("endDate").optional(),
      state: z.enum(["active", "closed"], { error: "state must be active (start the sprint) or closed (complete it)" }).optional(),
    })
    .refine((a) => a.name !== undefined || a.goal !== undefined || a.startDate !== undefined || a.endDate !== undefined || a.state !== undefined, "nothing to change: give name, goal, startDate, endDate or state"),
  output: SprintSchema,
  annotations: { title: "Update a Jira sprint", ...WRITES, idempotentHint: true },
  async run({ sprintId: id, ...change }, ctx) {
    checkOrder(change.startDate, change.endDate);
    await assertSprintAllowed(ctx, id);
    const sprint = present(
      await ctx.clients.jira.updateSprint(id, change).catch((err: unknown) => {
        // Jira's own reason (an active sprint already, a closed one reopened, dates missing) says what to do.
        if (!isUpstreamError(err) || err.kind !== "bad_request") throw err;
        throw new ToolError(`Jira refused the sprint change: ${err.message.replace(/^Jira refused the request \(400\): /, "")} (See the board's sprints with jira_list_sprints.)`);
      }),
    );
    const what = Object.keys(change).join(", ");
    return { structured: sprint, text: `Updated ${sprintLine(sprint)} (${what})` };
  },
});

const MovedSchema = z.object({ sprintId: z.number().int().nullable(), moved: z.array(z.object({ key: z.string(), url: z.string().nullable() })) });

export const jiraMoveIssuesToSprint = defineTool({
  name: "jira_move_issues_to_sprint",
  service: "jira",
  toolset: "jira-agile",
  scope: "write",
  description: "Move up to 50 issues into an open sprint (out of their current one).",
  input: z.object({ sprintId, issueKeys }),
  output: MovedSchema,
  annotations: { title: "Move Jira issues to a sprint", ...WRITES, idempotentHint: true },
  async run({ sprintId: id, issueKeys: keys }, ctx) {
    // Every issue is checked before anything is written: one outside the list refuses the whole move.
    for (const key of keys) assertIssueAllowed(ctx, key);
    await assertSprintAllowed(ctx, id);
    await ctx.clients.jira.moveToSprint(id, keys);
    const moved = keys.map((key) => ({ key, url: browseUrl(ctx, key) }));
    return { structured: { sprintId: id, moved }, text: `Moved ${keys.length} issue${keys.length === 1 ? "" : "s"} to sprint ${id}: ${keys.join(", ")}.` };
  },
});

export const jiraMoveIssuesToBacklog = defineTool({
  name: "jira_move_issues_to_backlog",
  service: "jira",
  toolset: "jira-agile",
  scope: "write",
  description: "Move up to 50 issues out of their sprint, back to the backlog.",
  input: z.object({ issueKeys }),
  output: MovedSchema,
  annotations: { title: "Move Jira issues to the backlog", ...WRITES, idempotentHint: true },
  async run({ issueKeys: keys }, ctx) {
    for (const key of keys) assertIssueAllowed(ctx, key);
    await ctx.clients.jira.moveToBacklog(keys);
    const moved = keys.map((key) => ({ key, url: browseUrl(ctx, key) }));
    return { structured: { sprintId: null, moved }, text: `Moved ${keys.length} issue${keys.length === 1 ? "" : "s"} to the backlog: ${keys.join(", ")}.` };
  },
});

const CHILD_FIELDS = ["summary", "status", "assignee", "issuetype"];

export const jiraGetEpicChildren = defineTool({
  name: "jira_get_epic_children",
  service: "jira",
  toolset: "jira-agile",
  scope: "read",
  description: "The issues whose parent is an epic (or the sub-tasks of an issue), with status, type and assignee. Pages with nextCursor.",
  input: z.object({
    epicKey: z.string().trim().regex(ISSUE_KEY, "epicKey must be an issue key such as BK-12").describe("The epic's key, e.g. BK-3."),
    maxResults: z.number().int("maxResults must be a whole number").min(1, "maxResults must be at least 1").max(100, "maxResults may be at most 100").default(50),
    cursor: cursorArg,
  }),
  output: z.object({
    epic: z.string(),
    issues: z.array(z.object({ key: z.string(), summary: z.string(), status: z.string().nullable(), type: z.string().nullable(), assignee: z.string().nullable(), url: z.string().nullable() })),
    nextCursor: z.string().nullable(),
  }),
  annotations: { title: "List an epic's child issues", ...READ_ONLY },
  async run({ epicKey, maxResults, cursor }, ctx) {
    assertIssueAllowed(ctx, epicKey);
    const epic = epicKey.toUpperCase();
    const scope = `jira_get_epic_children\u0000${epic}`;
    const token = cursor === undefined ? undefined : ctx.cursors.open(scope, cursor);
    const page = await searchInProjects(ctx, `parent = "${epic}" ORDER BY rank ASC`, (jql) => ctx.clients.jira.searchJql({ jql, fields: CHILD_FIELDS, maxResults, ...(token ? { nextPageToken: token } : {}) }), { issues: [], isLast: true });
    // searchInProjects keeps the JQL to the client's projects and withholds an answer reaching outside them.
    const issues = page.issues.map((i) => ({ key: i.key, summary: typeof i.fields.summary === "string" ? i.fields.summary : "", status: nameOf(i.fields.status), type: nameOf(i.fields.issuetype), assignee: nameOf(i.fields.assignee), url: browseUrl(ctx, i.key) }));
    const nextCursor = page.isLast === false && page.nextPageToken ? ctx.cursors.seal(scope, page.nextPageToken) : null;
    const lines = issues.map((i) => `- ${i.key} [${i.status ?? "?"}] ${i.summary} — ${i.type ?? "?"} · ${i.assignee ?? "unassigned"}`);
    const head = issues.length ? `${issues.length} child issue${issues.length === 1 ? "" : "s"} of ${epic}${nextCursor ? " (more: call again with the cursor below)" : ""}:` : `${epic} has no ${token ? "more " : ""}child issues.`;
    return { structured: { epic, issues, nextCursor }, text: [head, ...lines, ...(nextCursor ? [`nextCursor: ${nextCursor}`] : [])].join("\n") };
  },
});

export const JIRA_SPRINT_TOOLS = [jiraCreateSprint, jiraUpdateSprint, jiraMoveIssuesToSprint, jiraMoveIssuesToBacklog, jiraGetEpicChildren];
