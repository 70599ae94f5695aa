import { z } from "zod";
import { firstOf } from "../../upstream/paginate";
import { markdownToAdf } from "./markdown/markdown-to-adf";
import { ISSUE_KEY, browseUrl } from "./jira.tools";
import { assertFieldsAllowed } from "./field-policy";
import { assertIssueAllowed, assertProjectAllowed } from "./policy";
import { defineTool, DESTRUCTIVE, READ_ONLY, ToolError, WRITES, type ToolContext } from "./tool";

/**
 * Changing Jira issues: create, update, assign, comment, move through the workflow, and the
 * projects to create them in. Rich text is Markdown in, ADF out (markdownToAdf); field values a
 * tool does not model go through `fields` as Jira's own JSON (custom fields included).
 */

const PROJECT_KEY = /^[A-Za-z][A-Za-z0-9_]{0,49}$/;
const LABEL = z.string().regex(/^\S{1,255}$/, "a label is one word without spaces (at most 255 characters)");
const MARKDOWN_LIMIT = 32_000;
const markdown = (what: string) => z.string().max(MARKDOWN_LIMIT, `${what} may be at most ${MARKDOWN_LIMIT} characters`);
const accountId = z.string().trim().min(1).max(128, "accountId may be at most 128 characters");
/** Jira's own field JSON for fields the tool does not name (custom fields such as customfield_10016). */
const extraFields = z
  .record(z.string().regex(/^[\w.-]{1,100}$/, "each key must be a Jira field id such as customfield_10016"), z.unknown())
  .refine((f) => Object.keys(f).length <= 50, "at most 50 extra fields")
  .optional()
  .describe('Other fields by id, as Jira JSON, e.g. {"customfield_10016": 5}.');

const ChangedIssueSchema = z.object({ key: z.string(), url: z.string().nullable() });

/** What jira_create_issue takes, and each item of jira_create_issues. */
export const CreateIssueArgs = z.object({
  projectKey: z.string().trim().regex(PROJECT_KEY, "projectKey must be a project key such as BK").describe("The project key, e.g. BK."),
  issueType: z.string().trim().min(1).max(100).default("Task").describe("e.g. Task, Bug, Story, Epic, Sub-task."),
  summary: z.string().trim().min(1, "summary must not be empty").max(255, "summary may be at most 255 characters"),
  description: markdown("description").optional().describe("Markdown."),
  priority: z.string().trim().min(1).max(100).optional().describe("A priority name, e.g. High."),
  labels: z.array(LABEL).max(50).optional(),
  assigneeAccountId: accountId.optional().describe("An accountId (jira_search_users)."),
  parentKey: z.string().trim().regex(ISSUE_KEY, "parentKey must be an issue key such as BK-12").optional().describe("Parent issue: for a sub-task or an epic's child."),
  fields: extraFields,
});

/** Jira's `fields` for a create: the named arguments over the extra fields. */
export function createFields(args: z.output<typeof CreateIssueArgs>): Record<string, unknown> {
  return {
    ...args.fields,
    project: { key: args.projectKey.toUpperCase() },
    issuetype: { name: args.issueType },
    summary: args.summary,
    ...(args.description !== undefined ? { description: markdownToAdf(args.description) } : {}),
    ...(args.priority ? { priority: { name: args.priority } } : {}),
    ...(args.labels ? { labels: args.labels } : {}),
    ...(args.assigneeAccountId ? { assignee: { accountId: args.assigneeAccountId } } : {}),
    ...(args.parentKey ? { parent: { key: args.parentKey.toUpperCase() } } : {}),
  };
}

export const jiraCreateIssue = defineTool({
  name: "jira_create_issue",
  service: "jira",
  toolset: "jira-issues",
  scope: "write",
  description: "Create a Jira issue; the description is Markdown. A sub-task needs parentKey.",
  input: CreateIssueArgs,
  output: ChangedIssueSchema.extend({ id: z.string(), summary: z.string() }),
  annotations: { title: "Create a Jira issue", ...WRITES },
  async run(args, ctx) {
    assertProjectAllowed(ctx, args.projectKey);
    if (args.parentKey) assertIssueAllowed(ctx, args.parentKey);
    const fields = createFields(args);
    // What `fields` names (a parent, an Epic Link, a sprint ...) is held to the allow-list too.
    await assertFieldsAllowed(ctx, fields);
    const created = await ctx.clients.jira.createIssue(fields);
    const structured = { key: created.key, id: created.id, summary: args.summary, url: browseUrl(ctx, created.key) };
    return { structured, text: `Created ${created.key}: ${args.summary}${structured.url ? `\n${structured.url}` : ""}` };
  },
});

export const jiraUpdateIssue = defineTool({
  name: "jira_update_issue",
  service: "jira",
  toolset: "jira-issues",
  scope: "write",
  description: "Change a Jira issue's fields (custom ones by id in `fields`); only what is given changes. Change the status with jira_transition_issue.",
  input: z
    .object({
      issueKey: z.string().trim().regex(ISSUE_KEY, "issueKey must be an issue key such as BK-12 (or a numeric id)"),
      summary: z.string().trim().min(1, "summary must not be empty").max(255, "summary may be at most 255 characters").optional(),
      description: markdown("description").optional().describe("Markdown; replaces the description."),
      priority: z.string().trim().min(1).max(100).optional().describe("A priority name, e.g. High."),
      labels: z.array(LABEL).max(50).optional().describe("Replaces the labels."),
      assigneeAccountId: accountId.nullable().optional().describe("An accountId (jira_search_users); null unassigns."),
      fields: extraFields,
    })
    .refine((a) => ["summary", "description", "priority", "labels", "assigneeAccountId", "fields"].some((k) => a[k as keyof typeof a] !== undefined), "nothing to change: give at least one field"),
  output: ChangedIssueSchema.extend({ changed: z.array(z.string()) }),
  annotations: { title: "Update a Jira issue", ...WRITES, idempotentHint: true },
  async run(args, ctx) {
    assertIssueAllowed(ctx, args.issueKey);
    const key = args.issueKey.toUpperCase();
    const fields: Record<string, unknown> = {
      ...args.fields,
      ...(args.summary !== undefined ? { summary: args.summary } : {}),
      ...(args.description !== undefined ? { description: markdownToAdf(args.description) } : {}),
      ...(args.priority !== undefined ? { priority: { name: args.priority } } : {}),
      ...(args.labels !== undefined ? { labels: args.labels } : {}),
      ...(args.assigneeAccountId !== undefined ? { assignee: args.assigneeAccountId === null ? null : { accountId: args.assigneeAccountId } } : {}),
    };
    await assertFieldsAllowed(ctx, fields);
    await ctx.clients.jira.updateIssue(key, { fields });
    const changed = Object.keys(fields);
    const url = browseUrl(ctx, key);
    return { structured: { key, url, changed }, text: `Updated ${key}: ${changed.join(", ")}${url ? `\n${url}` : ""}` };
  },
});

export const jiraAddComment = defineTool({
  name: "jira_add_comment",
  service: "jira",
  toolset: "jira-issues",
  scope: "write",
  description: "Add a comment to a Jira issue; the body is Markdown (lists, code blocks, links, tables).",
  input: z.object({
    issueKey: z.string().trim().regex(ISSUE_KEY, "issueKey must be an issue key such as BK-12 (or a numeric id)"),
    body: markdown("body").trim().min(1, "body must not be empty").describe("The comment, in Markdown."),
  }),
  output: ChangedIssueSchema.extend({ commentId: z.string() }),
  annotations: { title: "Comment on a Jira issue", ...WRITES },
  async run({ issueKey, body }, ctx) {
    assertIssueAllowed(ctx, issueKey);
    const key = issueKey.toUpperCase();
    const comment = await ctx.clients.jira.addComment(key, markdownToAdf(body));
    const url = browseUrl(ctx, key);
    const commentUrl = url ? `${url}?focusedCommentId=${comment.id}` : null;
    return { structured: { key, url: commentUrl, commentId: comment.id }, text: `Commented on ${key} (comment ${comment.id})${commentUrl ? `\n${commentUrl}` : ""}` };
  },
});

const TransitionSchema = z.object({ id: z.string(), name: z.string(), to: z.string().nullable() });

async function transitionsOf(ctx: ToolContext, key: string) {
  const { transitions } = await ctx.clients.jira.getTransitions(key);
  return transitions.map((t) => ({ id: String(t.id), name: t.name, to: t.to?.name ?? null }));
}

export const jiraGetTransitions = defineTool({
  name: "jira_get_transitions",
  service: "jira",
  toolset: "jira-admin",
  scope: "read",
  description: "The workflow transitions a Jira issue can take now: id, name and target status.",
  input: z.object({ issueKey: z.string().trim().regex(ISSUE_KEY, "issueKey must be an issue key such as BK-12 (or a numeric id)") }),
  output: z.object({ key: z.string(), transitions: z.array(TransitionSchema) }),
  annotations: { title: "List a Jira issue's transitions", ...READ_ONLY },
  async run({ issueKey }, ctx) {
    assertIssueAllowed(ctx, issueKey);
    const key = issueKey.toUpperCase();
    const transitions = await transitionsOf(ctx, key);
    const lines = transitions.map((t) => `- ${t.name} (id ${t.id}) → ${t.to ?? "?"}`);
    return { structured: { key, transitions }, text: transitions.length ? `${key} can move:\n${lines.join("\n")}` : `${key} has no transitions available now.` };
  },
});

export const jiraTransitionIssue = defineTool({
  name: "jira_transition_issue",
  service: "jira",
  toolset: "jira-issues",
  scope: "write",
  description: "Move a Jira issue through its workflow (a transition name or id, or the target status), optionally with a Markdown comment and fields.",
  input: z.object({
    issueKey: z.string().trim().regex(ISSUE_KEY, "issueKey must be an issue key such as BK-12 (or a numeric id)"),
    transition: z.string().trim().min(1, "transition must not be empty").max(100).describe("A transition name or id, or the target status name."),
    comment: markdown("comment").optional().describe("A Markdown comment to add."),
    fields: extraFields,
  }),
  output: ChangedIssueSchema.extend({ transition: z.string(), status: z.string().nullable() }),
  annotations: { title: "Transition a Jira issue", ...WRITES },
  async run({ issueKey, transition, comment, fields }, ctx) {
    assertIssueAllowed(ctx, issueKey);
    await assertFieldsAllowed(ctx, fields);
    const key = issueKey.toUpperCase();
    const available = await transitionsOf(ctx, key);
    const wanted = transition.toLowerCase();
    const chosen = available.find((t) => t.id === transition) ?? available.find((t) => t.name.toLowerCase() === wanted) ?? available.find((t) => t.to?.toLowerCase() === wanted);
    if (!chosen) {
      const names = available.map((t) => `${t.name} (→ ${t.to ?? "?"})`).join(", ");
      throw new ToolError(`${key} has no transition "${transition}" now. Available: ${names || "none"}. Call again with one of these names.`);
    }
    await ctx.clients.jira.transitionIssue(key, chosen.id, {
      ...(fields ? { fields } : {}),
      ...(comment?.trim() ? { update: { comment: [{ add: { body: markdownToAdf(comment) } }] } } : {}),
    });
    const url = browseUrl(ctx, key);
    return { structured: { key, url, transition: chosen.name, status: chosen.to }, text: `${key}: ${chosen.name} → ${chosen.to ?? "?"}${url ? `\n${url}` : ""}` };
  },
});

export const jiraListProjects = defineTool({
  name: "jira_list_projects",
  service: "jira",
  toolset: "jira-projects",
  scope: "read",
  description: "List the Jira projects Bridgekeeper's account can see: key, name and type.",
  input: z.object({ maxResults: z.number().int().min(1, "maxResults must be at least 1").max(500, "maxResults may be at most 500").default(100) }),
  output: z.object({ projects: z.array(z.object({ key: z.string(), name: z.string(), type: z.string().nullable(), url: z.string().nullable() })), truncated: z.boolean() }),
  annotations: { title: "List Jira projects", ...READ_ONLY },
  async run({ maxResults }, ctx) {
    const allowed = ctx.policy.jiraProjects;
    const { items, truncated } = await firstOf(ctx.clients.jira.projects(), maxResults, (p) => allowed === null || allowed.includes(p.key.toUpperCase()));
    const projects = (items as { key: string; name: string; projectTypeKey?: string }[]).map((p) => ({ key: p.key, name: p.name, type: p.projectTypeKey ?? null, url: ctx.atlassianUrl ? `${ctx.atlassianUrl}/browse/${p.key}` : null }));
    const lines = projects.map((p) => `- ${p.key}: ${p.name}${p.type ? ` (${p.type})` : ""}`);
    return { structured: { projects, truncated }, text: [`${projects.length} project${projects.length === 1 ? "" : "s"}${truncated ? ` (more exist: raise maxResults)` : ""}:`, ...lines].join("\n") };
  },
});

export const jiraSearchUsers = defineTool({
  name: "jira_search_users",
  service: "jira",
  toolset: "jira-issues",
  scope: "read",
  description: "Find Jira users by name or email (their accountId). With issueKey or projectKey: only those assignable there.",
  input: z.object({
    query: z.string().trim().min(1, "query must not be empty").max(200),
    issueKey: z.string().trim().regex(ISSUE_KEY, "issueKey must be an issue key such as BK-12").optional().describe("Only users assignable to this issue."),
    projectKey: z.string().trim().regex(PROJECT_KEY, "projectKey must be a project key such as BK").optional().describe("Only users assignable in this project."),
    maxResults: z.number().int().min(1).max(50, "maxResults may be at most 50").default(10),
  }),
  output: z.object({ users: z.array(z.object({ accountId: z.string(), name: z.string(), email: z.string().nullable(), active: z.boolean().nullable() })) }),
  annotations: { title: "Find Jira users", ...READ_ONLY },
  async run({ query, issueKey, projectKey, maxResults }, ctx) {
    if (issueKey) assertIssueAllowed(ctx, issueKey);
    if (projectKey) assertProjectAllowed(ctx, projectKey);
    const assignableTo = issueKey || projectKey ? { ...(issueKey ? { issueKey: issueKey.toUpperCase() } : {}), ...(projectKey ? { project: projectKey.toUpperCase() } : {}) } : undefined;
    const found = await ctx.clients.jira.searchUsers(query, { maxResults, ...(assignableTo ? { assignableTo } : {}) });
    const users = found.map((u) => ({ accountId: u.accountId, name: u.displayName, email: u.emailAddress ?? null, active: typeof u.active === "boolean" ? u.active : null }));
    const lines = users.map((u) => `- ${u.name}${u.email ? ` <${u.email}>` : ""}: ${u.accountId}${u.active === false ? " (inactive)" : ""}`);
    return { structured: { users }, text: users.length ? [`${users.length} user${users.length === 1 ? "" : "s"}:`, ...lines].join("\n") : `No users match "${query}".` };
  },
});

export const jiraAssignIssue = defineTool({
  name: "jira_assign_issue",
  service: "jira",
  toolset: "jira-issues",
  scope: "write",
  description: "Assign a Jira issue to an accountId (from jira_search_users), or unassign it with null.",
  input: z.object({
    issueKey: z.string().trim().regex(ISSUE_KEY, "issueKey must be an issue key such as BK-12 (or a numeric id)"),
    accountId: accountId.nullable().describe("The assignee's accountId; null to unassign."),
  }),
  output: ChangedIssueSchema.extend({ assignee: z.string().nullable() }),
  annotations: { title: "Assign a Jira issue", ...WRITES, idempotentHint: true },
  async run({ issueKey, accountId: assignee }, ctx) {
    assertIssueAllowed(ctx, issueKey);
    const key = issueKey.toUpperCase();
    await ctx.clients.jira.assignIssue(key, assignee);
    const url = browseUrl(ctx, key);
    return { structured: { key, url, assignee }, text: `${assignee ? `Assigned ${key} to ${assignee}` : `Unassigned ${key}`}.${url ? `\n${url}` : ""}` };
  },
});

export const jiraDeleteIssue = defineTool({
  name: "jira_delete_issue",
  service: "jira",
  toolset: "jira-admin",
  scope: "write",
  description: "Delete a Jira issue for good (its comments, work log and links go with it). An issue with sub-tasks needs deleteSubtasks: true. Prefer a transition to Done or Won't Do unless asked to delete.",
  input: z.object({
    issueKey: z.string().trim().regex(ISSUE_KEY, "issueKey must be an issue key such as BK-12 (or a numeric id)"),
    deleteSubtasks: z.boolean().default(false).describe("Also delete its sub-tasks (required when it has any)."),
  }),
  output: z.object({ key: z.string(), deleted: z.boolean() }),
  annotations: { title: "Delete a Jira issue", ...DESTRUCTIVE, idempotentHint: true },
  async run({ issueKey, deleteSubtasks }, ctx) {
    assertIssueAllowed(ctx, issueKey);
    const key = issueKey.toUpperCase();
    await ctx.clients.jira.deleteIssue(key, deleteSubtasks);
    return { structured: { key, deleted: true }, text: `Deleted ${key}${deleteSubtasks ? " and its sub-tasks" : ""}.` };
  },
});

export const JIRA_ISSUE_TOOLS = [jiraSearchUsers, jiraCreateIssue, jiraUpdateIssue, jiraAssignIssue, jiraDeleteIssue, jiraAddComment, jiraGetTransitions, jiraTransitionIssue, jiraListProjects];
