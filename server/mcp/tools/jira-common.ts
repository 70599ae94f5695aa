import { z } from "zod";
import { isUpstreamError } from "../../upstream/errors";
import { closest } from "./format";
import { jiraText } from "./markdown/jira-text";
import { ToolError, type ToolContext } from "./tool";

/** What the Jira tool files share: argument shapes, links, and Jira's JQL errors explained. */

export const ISSUE_KEY = /^[A-Za-z][A-Za-z0-9_]{0,49}-\d{1,10}$|^\d{1,15}$/;

export const browseUrl = (ctx: ToolContext, key: string): string | null => (ctx.atlassianUrl ? `${ctx.atlassianUrl}/browse/${key}` : null);

/**
 * Jira's "Field 'sprintt' does not exist" with the field it most likely meant, read from Jira's
 * own field list (clause names included): a model fixes a typo in one step instead of guessing.
 */
export async function explainJqlError(ctx: ToolContext, err: unknown): Promise<never> {
  const unknown =
    isUpstreamError(err) && err.kind === "bad_request" ? /Field '([^']{1,100})' does not exist/.exec(err.message)?.[1] : undefined;
  if (!unknown) throw err;
  const names = await ctx.clients.jira.fields().then(
    (list) => list.flatMap((f) => [...(f.clauseNames ?? []), f.name]),
    () => [] as string[],
  );
  const guess = closest(unknown, names);
  throw new ToolError(
    `JQL: field '${unknown}' does not exist${guess ? `; did you mean '${guess}'?` : " (jira_search_fields finds field names, where it is offered)."} Fix the JQL and search again.`,
  );
}

export const PROJECT_KEY = /^[A-Za-z][A-Za-z0-9_]{0,49}$/;

export const LABEL = z.string().regex(/^\S{1,255}$/, "a label is one word without spaces (at most 255 characters)");

const MARKDOWN_LIMIT = 32_000;

export const markdown = (what: string) => z.string().max(MARKDOWN_LIMIT, `${what} may be at most ${MARKDOWN_LIMIT} characters`);

export const accountId = z.string().trim().min(1).max(128, "accountId may be at most 128 characters");

/** Jira's own field JSON for fields the tool does not name (custom fields such as customfield_10016). */
export const extraFields = z
  .record(z.string().regex(/^[\w.-]{1,100}$/, "each key must be a Jira field id such as customfield_10016"), z.unknown())
  .refine((f) => Object.keys(f).length <= 50, "at most 50 extra fields")
  .optional();

export const TransitionSchema = z.object({ id: z.string(), name: z.string(), to: z.string().nullable() });

/** The transitions an issue can take now, as jira_get_transitions lists them and jira_transition_issue picks from. */
export async function transitionsOf(ctx: ToolContext, key: string) {
  const { transitions } = await ctx.clients.jira.getTransitions(key);
  return transitions.map((t) => ({ id: String(t.id), name: t.name, to: t.to?.name ?? null }));
}

/** What jira_create_issue takes, and each item of jira_create_issues. */
export const CreateIssueArgs = z.object({
  projectKey: z.string().trim().regex(PROJECT_KEY, "projectKey must be a project key such as BK"),
  issueType: z.string().trim().min(1).max(100).default("Task"),
  summary: z.string().trim().min(1, "summary must not be empty").max(255, "summary may be at most 255 characters"),
  description: markdown("description").optional(),
  priority: z.string().trim().min(1).max(100).optional(),
  labels: z.array(LABEL).max(50).optional(),
  assigneeAccountId: accountId.optional(),
  parentKey: z.string().trim().regex(ISSUE_KEY, "parentKey must be an issue key such as BK-12").optional(),
  fields: extraFields,
});

/** Jira's `fields` for a create: the named arguments over the extra fields. */
export function createFields(args: z.output<typeof CreateIssueArgs>): Record<string, unknown> {
  return {
    ...args.fields,
    project: { key: args.projectKey.toUpperCase() },
    issuetype: { name: args.issueType },
    summary: args.summary,
    ...(args.description !== undefined ? { description: jiraText(args.description) } : {}),
    ...(args.priority ? { priority: { name: args.priority } } : {}),
    ...(args.labels ? { labels: args.labels } : {}),
    ...(args.assigneeAccountId ? { assignee: { accountId: args.assigneeAccountId } } : {}),
    ...(args.parentKey ? { parent: { key: args.parentKey.toUpperCase() } } : {}),
  };
}
