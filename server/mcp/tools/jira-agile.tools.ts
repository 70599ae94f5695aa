import { z } from "zod";
import { isUpstreamError } from "../../upstream/errors";
import type { JiraSprint } from "../../upstream/jira.client";
import { collect, firstOf } from "../../upstream/paginate";
import { cursorArg, offsetPaging } from "./cursor";
import { nameOf, shortDate } from "./format";
import { browseUrl, explainJqlError, ISSUE_KEY } from "./jira-common";
import { assertIssuesHeld, constrainJql, issueInProjects, searchInProjects } from "./policy";
import { defineTool, READ_ONLY, ToolError, WRITES, type ToolContext } from "./tool";

/** The jira-agile toolset: Jira Software's boards, sprints and epics (Agile REST 1.0), where a team's current work is. */

const boardId = z
  .number()
  .int("boardId must be a whole number")
  .min(1, "boardId must be at least 1")
  .describe("A board id from jira_list_boards.");

/** Boards of projects outside a client's Jira allow-list are not shown; a board named by id is checked by its project. */
const boardAllowed = (ctx: ToolContext, projectKey: string | null) =>
  ctx.policy.jiraProjects === null || (projectKey !== null && ctx.policy.jiraProjects.includes(projectKey.toUpperCase()));

export const jiraListBoards = defineTool({
  name: "jira_list_boards",
  service: "jira",
  toolset: "jira-agile",
  reaches: [
    { kind: "jira-project", arg: "projectKey" },
    { kind: "listing", service: "jira" },
  ],
  scope: "read",
  description: "List Jira Software boards (Scrum and Kanban), optionally of one project.",
  input: z.object({
    projectKey: z
      .string()
      .trim()
      .regex(/^[A-Za-z][A-Za-z0-9_]{0,49}$/, "projectKey must be a project key such as BK")
      .optional()
      .describe("Only this project's boards."),
    maxResults: z.number().int().min(1).max(200, "maxResults may be at most 200").default(50),
  }),
  output: z.object({
    boards: z.array(z.object({ id: z.number().int(), name: z.string(), type: z.string(), project: z.string().nullable() })),
  }),
  annotations: { title: "List Jira boards", ...READ_ONLY },
  async run({ projectKey, maxResults }, ctx) {
    const all = (await collect(ctx.clients.jira.boards(projectKey?.toUpperCase(), maxResults))) as {
      id: number;
      name: string;
      type: string;
      location?: { projectKey?: string };
    }[];
    const boards = all
      .map((b) => ({ id: b.id, name: b.name, type: b.type, project: b.location?.projectKey ?? null }))
      .filter((b) => boardAllowed(ctx, b.project));
    const lines = boards.map((b) => `- ${b.id}: ${b.name} (${b.type}${b.project ? `, ${b.project}` : ""})`);
    return {
      structured: { boards },
      text: boards.length ? [`${boards.length} board${boards.length === 1 ? "" : "s"}:`, ...lines].join("\n") : "No boards.",
    };
  },
});

const SprintSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  state: z.string(),
  goal: z.string().nullable(),
  start: z.string().nullable(),
  end: z.string().nullable(),
});

export const jiraListSprints = defineTool({
  name: "jira_list_sprints",
  service: "jira",
  toolset: "jira-agile",
  reaches: [{ kind: "jira-board", arg: "boardId" }],
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
    const sprints = (
      (await collect(ctx.clients.jira.sprints(id, state, maxResults))) as {
        id: number;
        name: string;
        state: string;
        goal?: string;
        startDate?: string;
        endDate?: string;
      }[]
    ).map((s) => ({
      id: s.id,
      name: s.name,
      state: s.state,
      goal: s.goal || null,
      start: s.startDate ?? null,
      end: s.endDate ?? null,
    }));
    const lines = sprints.map(
      (s) =>
        `- ${s.id}: ${s.name} [${s.state}]${s.start ? ` ${shortDate(s.start)?.slice(0, 10)} → ${shortDate(s.end)?.slice(0, 10) ?? "?"}` : ""}${s.goal ? ` — ${s.goal}` : ""}`,
    );
    return {
      structured: { sprints },
      text: sprints.length
        ? [`${sprints.length} ${state} sprint${sprints.length === 1 ? "" : "s"} on board ${id}:`, ...lines].join("\n")
        : `No ${state} sprints on board ${id}.`,
    };
  },
});

export const jiraGetSprintIssues = defineTool({
  name: "jira_get_sprint_issues",
  service: "jira",
  toolset: "jira-agile",
  reaches: [
    { kind: "jira-sprint", arg: "sprintId" },
    { kind: "listing", service: "jira" },
  ],
  scope: "read",
  description: "The issues of a sprint, grouped by status, with assignee and type.",
  input: z.object({
    sprintId: z.number().int("sprintId must be a whole number").min(1, "sprintId must be at least 1"),
    maxResults: z.number().int().min(1).max(200, "maxResults may be at most 200").default(100),
  }),
  output: z.object({
    issues: z.array(
      z.object({
        key: z.string(),
        summary: z.string(),
        status: z.string().nullable(),
        assignee: z.string().nullable(),
        type: z.string().nullable(),
        url: z.string().nullable(),
      }),
    ),
    truncated: z.boolean(),
  }),
  annotations: { title: "Read a sprint's issues", ...READ_ONLY },
  async run({ sprintId, maxResults }, ctx) {
    // The sprint is placed by its board (as jira_list_sprints places a board): outside the list it
    // is refused, not answered as empty; inside, issues of other projects it holds are left out.
    const { items: found, truncated } = await firstOf(ctx.clients.jira.sprintIssues(sprintId), maxResults, (i) =>
      issueInProjects(ctx.policy, i.key),
    );
    const issues = found.map((i) => ({
      key: i.key,
      summary: typeof i.fields.summary === "string" ? i.fields.summary : "",
      status: nameOf(i.fields.status),
      assignee: nameOf(i.fields.assignee),
      type: nameOf(i.fields.issuetype),
      url: browseUrl(ctx, i.key),
    }));
    const byStatus = new Map<string, typeof issues>();
    for (const i of issues) byStatus.set(i.status ?? "?", [...(byStatus.get(i.status ?? "?") ?? []), i]);
    const sections = [...byStatus].map(
      ([status, list]) =>
        `## ${status} (${list.length})\n${list.map((i) => `- ${i.key} ${i.summary} — ${i.type ?? "?"} · ${i.assignee ?? "unassigned"}`).join("\n")}`,
    );
    return {
      structured: { issues, truncated },
      text: issues.length
        ? [
            `Sprint ${sprintId}: ${issues.length} issue${issues.length === 1 ? "" : "s"}${truncated ? " (more: raise maxResults)" : ""}`,
            ...sections,
          ].join("\n\n")
        : `Sprint ${sprintId} has no issues.`,
    };
  },
});

const BOARD_ISSUE_FIELDS = ["summary", "status", "assignee", "issuetype", "sprint"];

/** A board in Jira's web UI (company- and team-managed boards alike live under their project). */
const boardUrl = (ctx: ToolContext, id: number, projectKey: string | null) =>
  !ctx.atlassianUrl
    ? null
    : ctx.deployments.jira === "datacenter"
      ? `${ctx.atlassianUrl}/secure/RapidBoard.jspa?rapidView=${id}`
      : projectKey
        ? `${ctx.atlassianUrl}/jira/software/projects/${projectKey}/boards/${id}`
        : null;

export const jiraGetBoardIssues = defineTool({
  name: "jira_get_board_issues",
  service: "jira",
  toolset: "jira-agile",
  reaches: [
    { kind: "jira-board", arg: "boardId" },
    { kind: "listing", service: "jira" },
  ],
  scope: "read",
  description:
    "The issues on a board (Scrum or Kanban), optionally narrowed by JQL, with status, type, assignee and sprint, grouped by status. Pages with nextCursor.",
  input: z.object({
    boardId,
    jql: z
      .string()
      .trim()
      .max(2000, "jql may be at most 2000 characters")
      .optional()
      .describe('Narrows the board\'s issues, e.g. status = "In Progress" ORDER BY rank.'),
    maxResults: z
      .number()
      .int("maxResults must be a whole number")
      .min(1, "maxResults must be at least 1")
      .max(100, "maxResults may be at most 100")
      .default(50),
    cursor: cursorArg,
  }),
  output: z.object({
    boardId: z.number().int(),
    board: z.string().nullable(),
    issues: z.array(
      z.object({
        key: z.string(),
        summary: z.string(),
        status: z.string().nullable(),
        assignee: z.string().nullable(),
        type: z.string().nullable(),
        sprint: z.string().nullable(),
        url: z.string().nullable(),
      }),
    ),
    total: z.number().int().nullable(),
    nextCursor: z.string().nullable(),
    url: z.string().nullable(),
  }),
  annotations: { title: "Read a board's issues", ...READ_ONLY },
  async run({ boardId: id, jql: given, maxResults, cursor }, ctx) {
    // A board's filter may span projects: the JQL keeps the answer inside the allow-list too.
    const jql = constrainJql(given ?? "", ctx.policy) || undefined;
    const paging = offsetPaging(ctx.cursors, `jira_get_board_issues\u0000${id}\u0000${jql ?? ""}`, cursor);
    const [board, page] = await Promise.all([
      ctx.clients.jira.board(id),
      ctx.clients.jira
        .boardIssuesPage(id, { jql, startAt: paging.startAt, maxResults, fields: BOARD_ISSUE_FIELDS })
        .catch((err: unknown) => explainJqlError(ctx, err)),
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
    const sections = [...byStatus].map(
      ([status, list]) =>
        `## ${status} (${list.length})\n${list.map((i) => `- ${i.key} ${i.summary} — ${i.type ?? "?"} · ${i.assignee ?? "unassigned"}${i.sprint ? ` · ${i.sprint}` : ""}`).join("\n")}`,
    );
    const name = `Board ${id} "${board.name}"`;
    const head = issues.length
      ? `${name}: issues ${paging.startAt + 1}-${end}${total !== null ? ` of ${total}` : ""}${given ? ` matching ${given}` : ""}${nextCursor ? " (more: call again with the cursor below)" : ""}`
      : `${name} has no ${paging.startAt > 0 ? "more " : ""}issues${given ? ` matching ${given}` : ""}.`;
    const text = [[head, url].filter(Boolean).join("\n"), ...sections, ...(nextCursor ? [`nextCursor: ${nextCursor}`] : [])].join("\n\n");
    return { structured: { boardId: id, board: board.name ?? null, issues, total, nextCursor, url }, text };
  },
});

/**
 * Planning work in Jira Software (Agile REST 1.0): creating and changing sprints, moving issues
 * between sprints and the backlog, and an epic's children. A sprint is placed in a project by its
 * board, so under a Jira allow-list the board is read before anything is written.
 */

const sprintId = z
  .number()
  .int("sprintId must be a whole number")
  .min(1, "sprintId must be at least 1")
  .describe("A sprint id from jira_list_sprints.");
const SPRINT_NAME = z
  .string()
  .trim()
  .min(1, "name must not be empty")
  .max(30, "name may be at most 30 characters (Jira's limit for a sprint name)");
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

const SprintAnswerSchema = z.object({
  sprintId: z.number().int(),
  name: z.string(),
  state: z.string(),
  goal: z.string().nullable(),
  start: z.string().nullable(),
  end: z.string().nullable(),
  boardId: z.number().int().nullable(),
});

const present = (s: JiraSprint) => ({
  sprintId: s.id,
  name: s.name,
  state: s.state,
  goal: s.goal || null,
  start: s.startDate ?? null,
  end: s.endDate ?? null,
  boardId: s.originBoardId ?? null,
});

const sprintLine = (s: ReturnType<typeof present>) =>
  [
    `sprint ${s.sprintId} "${s.name}" [${s.state}]${s.boardId !== null ? ` on board ${s.boardId}` : ""}`,
    s.start || s.end ? `${shortDate(s.start) ?? "?"} → ${shortDate(s.end) ?? "?"}` : null,
    s.goal ? `Goal: ${s.goal}` : null,
  ]
    .filter(Boolean)
    .join("\n");

const checkOrder = (start: string | undefined, end: string | undefined) => {
  if (start && end && Date.parse(end) < Date.parse(start))
    throw new ToolError("endDate is before startDate: give an end date after the start date.");
};

export const jiraCreateSprint = defineTool({
  name: "jira_create_sprint",
  service: "jira",
  toolset: "jira-agile",
  reaches: [{ kind: "jira-board", arg: "boardId" }],
  scope: "write",
  description: "Create a future sprint on a Scrum board, optionally with a goal and dates; start it with jira_update_sprint.",
  input: z.object({
    boardId,
    name: SPRINT_NAME,
    goal: goal.optional(),
    startDate: when("startDate").optional(),
    endDate: when("endDate").optional(),
  }),
  output: SprintAnswerSchema,
  annotations: { title: "Create a Jira sprint", ...WRITES },
  async run({ boardId: board, name, goal: text, startDate, endDate }, ctx) {
    checkOrder(startDate, endDate);
    const sprint = present(
      await ctx.clients.jira.createSprint({
        originBoardId: board,
        name,
        ...(text ? { goal: text } : {}),
        ...(startDate ? { startDate } : {}),
        ...(endDate ? { endDate } : {}),
      }),
    );
    return { structured: sprint, text: `Created ${sprintLine(sprint)}` };
  },
});

export const jiraUpdateSprint = defineTool({
  name: "jira_update_sprint",
  service: "jira",
  toolset: "jira-agile",
  reaches: [{ kind: "jira-sprint", arg: "sprintId" }],
  scope: "write",
  description:
    "Change a sprint: name, goal, dates; state active starts a future sprint (it needs both dates), closed completes an active one. Only what is given changes.",
  input: z
    .object({
      sprintId,
      name: SPRINT_NAME.optional(),
      goal: goal.optional(),
      startDate: when("startDate").optional(),
      endDate: when("endDate").optional(),
      state: z.enum(["active", "closed"], { error: "state must be active (start the sprint) or closed (complete it)" }).optional(),
    })
    .refine(
      (a) => a.name !== undefined || a.goal !== undefined || a.startDate !== undefined || a.endDate !== undefined || a.state !== undefined,
      "nothing to change: give name, goal, startDate, endDate or state",
    ),
  output: SprintAnswerSchema,
  annotations: { title: "Update a Jira sprint", ...WRITES, idempotentHint: true },
  async run({ sprintId: id, ...change }, ctx) {
    checkOrder(change.startDate, change.endDate);
    const sprint = present(
      await ctx.clients.jira.updateSprint(id, change).catch((err: unknown) => {
        // Jira's own reason (an active sprint already, a closed one reopened, dates missing) says what to do.
        if (!isUpstreamError(err) || err.kind !== "bad_request") throw err;
        throw new ToolError(
          `Jira refused the sprint change: ${err.message.replace(/^Jira refused the request \(400\): /, "")} (See the board's sprints with jira_list_sprints.)`,
        );
      }),
    );
    const what = Object.keys(change).join(", ");
    return { structured: sprint, text: `Updated ${sprintLine(sprint)} (${what})` };
  },
});

const MovedSchema = z.object({
  sprintId: z.number().int().nullable(),
  moved: z.array(z.object({ key: z.string(), url: z.string().nullable() })),
});

export const jiraMoveIssuesToSprint = defineTool({
  name: "jira_move_issues_to_sprint",
  service: "jira",
  toolset: "jira-agile",
  reaches: [
    { kind: "jira-issue", arg: "issueKeys[]" },
    { kind: "jira-sprint", arg: "sprintId" },
  ],
  scope: "write",
  description: "Move up to 50 issues into an open sprint (out of their current one).",
  input: z.object({ sprintId, issueKeys }),
  output: MovedSchema,
  annotations: { title: "Move Jira issues to a sprint", ...WRITES, idempotentHint: true },
  async run({ sprintId: id, issueKeys: keys }, ctx) {
    await ctx.clients.jira.moveToSprint(id, keys);
    const moved = keys.map((key) => ({ key, url: browseUrl(ctx, key) }));
    return {
      structured: { sprintId: id, moved },
      text: `Moved ${keys.length} issue${keys.length === 1 ? "" : "s"} to sprint ${id}: ${keys.join(", ")}.`,
    };
  },
});

export const jiraMoveIssuesToBacklog = defineTool({
  name: "jira_move_issues_to_backlog",
  service: "jira",
  toolset: "jira-agile",
  reaches: [{ kind: "jira-issue", arg: "issueKeys[]" }],
  scope: "write",
  description: "Move up to 50 issues out of their sprint, back to the backlog.",
  input: z.object({ issueKeys }),
  output: MovedSchema,
  annotations: { title: "Move Jira issues to the backlog", ...WRITES, idempotentHint: true },
  async run({ issueKeys: keys }, ctx) {
    await ctx.clients.jira.moveToBacklog(keys);
    const moved = keys.map((key) => ({ key, url: browseUrl(ctx, key) }));
    return {
      structured: { sprintId: null, moved },
      text: `Moved ${keys.length} issue${keys.length === 1 ? "" : "s"} to the backlog: ${keys.join(", ")}.`,
    };
  },
});

const CHILD_FIELDS = ["summary", "status", "assignee", "issuetype"];

export const jiraGetEpicChildren = defineTool({
  name: "jira_get_epic_children",
  service: "jira",
  toolset: "jira-agile",
  reaches: [
    { kind: "jira-issue", arg: "epicKey" },
    { kind: "listing", service: "jira" },
  ],
  scope: "read",
  description: "The issues whose parent is an epic (or the sub-tasks of an issue), with status, type and assignee. Pages with nextCursor.",
  input: z.object({
    epicKey: z.string().trim().regex(ISSUE_KEY, "epicKey must be an issue key such as BK-12").describe("The epic's key, e.g. BK-3."),
    maxResults: z
      .number()
      .int("maxResults must be a whole number")
      .min(1, "maxResults must be at least 1")
      .max(100, "maxResults may be at most 100")
      .default(50),
    cursor: cursorArg,
  }),
  output: z.object({
    epic: z.string(),
    issues: z.array(
      z.object({
        key: z.string(),
        summary: z.string(),
        status: z.string().nullable(),
        type: z.string().nullable(),
        assignee: z.string().nullable(),
        url: z.string().nullable(),
      }),
    ),
    nextCursor: z.string().nullable(),
  }),
  annotations: { title: "List an epic's child issues", ...READ_ONLY },
  async run({ epicKey, maxResults, cursor }, ctx) {
    const epic = epicKey.toUpperCase();
    const scope = `jira_get_epic_children\u0000${epic}`;
    const token = cursor === undefined ? undefined : ctx.cursors.open(scope, cursor);
    const children = (jql: string) =>
      searchInProjects(
        ctx,
        jql,
        (held) => ctx.clients.jira.searchJql({ jql: held, fields: CHILD_FIELDS, maxResults, ...(token ? { nextPageToken: token } : {}) }),
        { issues: [], isLast: true },
      );
    // On Data Center `parent` is a sub-task's parent only: an epic holds its issues by Epic Link.
    // Should Jira refuse an Epic Link clause for an issue that is not an epic, its sub-tasks remain.
    const page =
      ctx.deployments.jira === "datacenter"
        ? await children(`("Epic Link" = "${epic}" OR parent = "${epic}") ORDER BY rank ASC`).catch((err: unknown) => {
            if (isUpstreamError(err) && err.kind === "bad_request") return children(`parent = "${epic}" ORDER BY rank ASC`);
            throw err;
          })
        : await children(`parent = "${epic}" ORDER BY rank ASC`);
    // searchInProjects keeps the JQL to the client's projects and withholds an answer reaching outside them.
    const issues = page.issues.map((i) => ({
      key: i.key,
      summary: typeof i.fields.summary === "string" ? i.fields.summary : "",
      status: nameOf(i.fields.status),
      type: nameOf(i.fields.issuetype),
      assignee: nameOf(i.fields.assignee),
      url: browseUrl(ctx, i.key),
    }));
    const nextCursor = page.isLast === false && page.nextPageToken ? ctx.cursors.seal(scope, page.nextPageToken) : null;
    const lines = issues.map((i) => `- ${i.key} [${i.status ?? "?"}] ${i.summary} — ${i.type ?? "?"} · ${i.assignee ?? "unassigned"}`);
    const head = issues.length
      ? `${issues.length} child issue${issues.length === 1 ? "" : "s"} of ${epic}${nextCursor ? " (more: call again with the cursor below)" : ""}:`
      : `${epic} has no ${token ? "more " : ""}child issues.`;
    return {
      structured: { epic, issues, nextCursor },
      text: [head, ...lines, ...(nextCursor ? [`nextCursor: ${nextCursor}`] : [])].join("\n"),
    };
  },
});

export const JIRA_AGILE_TOOLS = [
  jiraListBoards,
  jiraListSprints,
  jiraGetSprintIssues,
  jiraGetBoardIssues,
  jiraCreateSprint,
  jiraUpdateSprint,
  jiraMoveIssuesToSprint,
  jiraMoveIssuesToBacklog,
  jiraGetEpicChildren,
];
