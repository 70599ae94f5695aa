import { z } from "zod";
import type { JiraWorklog } from "../../upstream/jira.client";
import { jiraText, jiraTextToMarkdown } from "./markdown/jira-text";
import { clip, nameOf, shortDate } from "./format";
import { ISSUE_KEY } from "./jira-common";
import { cursorArg, offsetPaging } from "./cursor";
import { defineTool, READ_ONLY, ToolError, WRITES } from "./tool";

/** Time tracking on Jira issues: the work log, and logging time. */

const issueKey = z.string().trim().regex(ISSUE_KEY, "issueKey must be an issue key such as BK-12 (or a numeric id)");
const DURATION = /^\s*(?:(\d+(?:\.\d+)?)\s*w)?\s*(?:(\d+(?:\.\d+)?)\s*d)?\s*(?:(\d+(?:\.\d+)?)\s*h)?\s*(?:(\d+)\s*m)?\s*$/i;

/** "1d 2h 30m" → seconds, with Jira's default working time (a day is 8 hours, a week 5 days). */
export function durationSeconds(text: string): number | null {
  const m = DURATION.exec(text);
  if (!m || !m.slice(1).some(Boolean)) return null;
  const [w, d, h, min] = m.slice(1).map((x) => Number(x ?? 0)) as [number, number, number, number];
  const seconds = Math.round(((w * 5 + d) * 8 * 60 + h * 60 + min) * 60);
  return seconds > 0 ? seconds : null;
}

const WorklogSchema = z.object({
  id: z.string(),
  author: z.string().nullable(),
  started: z.string().nullable(),
  timeSpent: z.string().nullable(),
  timeSpentSeconds: z.number().int().nullable(),
  comment: z.string(),
});

const present = (w: JiraWorklog) => ({
  id: String(w.id),
  author: nameOf(w.author),
  started: w.started ?? null,
  timeSpent: w.timeSpent ?? null,
  timeSpentSeconds: typeof w.timeSpentSeconds === "number" ? w.timeSpentSeconds : null,
  comment: clip(jiraTextToMarkdown(w.comment), 1_000).text,
});

export const jiraListWorklogs = defineTool({
  name: "jira_list_worklogs",
  service: "jira",
  toolset: "jira-worklogs",
  reaches: [{ kind: "jira-issue", arg: "issueKey" }],
  scope: "read",
  description: "The work log of a Jira issue: who logged how much time, when, with their notes, and the total. Pages with nextCursor.",
  input: z.object({
    issueKey,
    maxResults: z.number().int().min(1).max(100, "maxResults may be at most 100").default(50),
    cursor: cursorArg,
  }),
  output: z.object({
    key: z.string(),
    worklogs: z.array(WorklogSchema),
    total: z.number().int().nullable(),
    loggedSeconds: z.number().int(),
    nextCursor: z.string().nullable(),
  }),
  annotations: { title: "List a Jira issue's work log", ...READ_ONLY },
  async run({ issueKey: given, maxResults, cursor }, ctx) {
    const key = given.toUpperCase();
    const paging = offsetPaging(ctx.cursors, `jira_list_worklogs\u0000${key}`, cursor);
    const page = await ctx.clients.jira.worklogsPage(key, paging.startAt, maxResults);
    const worklogs = page.worklogs.map(present);
    const { total, nextCursor } = paging.next(worklogs.length, page.total);
    const loggedSeconds = worklogs.reduce((sum, w) => sum + (w.timeSpentSeconds ?? 0), 0);
    const hours = (loggedSeconds / 3600).toFixed(loggedSeconds % 3600 === 0 ? 0 : 1);
    const head = worklogs.length
      ? `Work log of ${key}: ${worklogs.length} entr${worklogs.length === 1 ? "y" : "ies"}${total !== null ? ` of ${total}` : ""}, ${hours} h on this page:`
      : `No time logged on ${key}.`;
    const lines = worklogs.map(
      (w) =>
        `- ${shortDate(w.started) ?? "?"} ${w.author ?? "?"}: ${w.timeSpent ?? `${w.timeSpentSeconds ?? 0}s`} (id ${w.id})${w.comment ? ` — ${w.comment.replace(/\s+/g, " ").slice(0, 200)}` : ""}`,
    );
    return {
      structured: { key, worklogs, total, loggedSeconds, nextCursor },
      text: [head, ...lines, ...(nextCursor ? [`nextCursor: ${nextCursor}`] : [])].join("\n"),
    };
  },
});

export const jiraAddWorklog = defineTool({
  name: "jira_add_worklog",
  service: "jira",
  toolset: "jira-worklogs",
  reaches: [{ kind: "jira-issue", arg: "issueKey" }],
  scope: "write",
  description:
    'Log time on a Jira issue, e.g. timeSpent "1h 30m" or "2d" (a day is 8 h), optionally when it started and a Markdown note. The remaining estimate goes down by the same.',
  input: z.object({
    issueKey,
    timeSpent: z.string().trim().min(1).max(40).describe('Weeks, days, hours and minutes, e.g. "1h 30m", "2d", "45m".'),
    started: z
      .string()
      .datetime({ offset: true, message: "started must be a date and time such as 2026-11-24T09:00:00Z" })
      .optional()
      .describe("When the work started (ISO 8601); default now."),
    comment: z.string().max(8_000, "comment may be at most 8000 characters").optional().describe("A note, in Markdown."),
  }),
  output: z.object({ key: z.string(), worklogId: z.string(), timeSpentSeconds: z.number().int() }),
  annotations: { title: "Log time on a Jira issue", ...WRITES },
  async run({ issueKey: given, timeSpent, started, comment }, ctx) {
    const seconds = durationSeconds(timeSpent);
    if (seconds === null)
      throw new ToolError(`timeSpent "${timeSpent}" is not a duration: use weeks, days, hours and minutes such as "1h 30m" or "2d".`);
    const key = given.toUpperCase();
    // Jira's own date format: 2026-11-24T09:00:00.000+0000.
    const jiraStarted = started ? new Date(started).toISOString().replace("Z", "+0000") : undefined;
    const worklog = await ctx.clients.jira.addWorklog(key, {
      timeSpentSeconds: seconds,
      ...(jiraStarted ? { started: jiraStarted } : {}),
      ...(comment ? { comment: jiraText(comment) } : {}),
    });
    return {
      structured: { key, worklogId: String(worklog.id), timeSpentSeconds: seconds },
      text: `Logged ${timeSpent.trim()} on ${key} (work log ${worklog.id}).`,
    };
  },
});

export const JIRA_WORKLOGS_TOOLS = [jiraListWorklogs, jiraAddWorklog];
