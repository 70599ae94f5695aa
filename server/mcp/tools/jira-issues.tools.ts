import { z } from "zod";
import type { JiraIssue } from "../../upstream/jira.client";
import { jiraText, jiraTextToMarkdown } from "./markdown/jira-text";
import { brief, clip, nameOf, shortDate } from "./format";
import {
  accountId,
  browseUrl,
  CreateIssueArgs,
  createFields,
  explainJqlError,
  extraFields,
  ISSUE_KEY,
  LABEL,
  markdown,
  PROJECT_KEY,
  transitionsOf,
} from "./jira-common";
import { issueInProjects, OUTSIDE_ISSUE, outsideIssue, searchInProjects, withoutOutsideIssues } from "./policy";
import { cursorArg } from "./cursor";
import { defineTool, READ_ONLY, ToolError, WRITES, type ToolContext } from "./tool";

/**
 * The jira-issues toolset: finding issues (JQL) and reading one, and changing them: create,
 * update, assign, comment, move through the workflow; finding whom to assign. Rich text is
 * Markdown in and out (jiraText: ADF to Jira Cloud, wiki markup to Data Center); field values a
 * tool does not model go through `fields` as Jira's own JSON (custom fields included). On Data
 * Center a user's accountId is their username (the client makes it so).
 */

const SEARCH_FIELDS = ["summary", "status", "assignee", "priority", "issuetype", "updated"];
const DESCRIPTION_LIMIT = 12_000;

const IssueSummarySchema = z.object({
  key: z.string(),
  summary: z.string(),
  status: z.string().nullable(),
  assignee: z.string().nullable(),
  priority: z.string().nullable(),
  type: z.string().nullable(),
  updated: z.string().nullable(),
  url: z.string().nullable(),
  fields: z.record(z.string(), z.string()).optional().describe("The extra fields asked for, each as short text"),
});

function summarise(issue: JiraIssue, ctx: ToolContext, extra: string[]) {
  const f = issue.fields;
  // An extra field may embed other issues (parent, subtasks, issuelinks): outside the client's projects, only their keys.
  const fields = extra.length
    ? Object.fromEntries(extra.map((name) => [name, brief(withoutOutsideIssues(f[name], ctx.policy))]))
    : undefined;
  return {
    key: issue.key,
    summary: typeof f.summary === "string" ? f.summary : "",
    status: nameOf(f.status),
    assignee: nameOf(f.assignee),
    priority: nameOf(f.priority),
    type: nameOf(f.issuetype),
    updated: typeof f.updated === "string" ? f.updated : null,
    url: browseUrl(ctx, issue.key),
    ...(fields ? { fields } : {}),
  };
}

const searchLine = (i: z.infer<typeof IssueSummarySchema>): string => {
  const facts = [i.type, i.priority, i.assignee ?? "unassigned", i.updated ? `updated ${shortDate(i.updated)}` : null]
    .filter(Boolean)
    .join(" · ");
  const extra = i.fields
    ? ` · ${Object.entries(i.fields)
        .map(([k, v]) => `${k}: ${v}`)
        .join(" · ")}`
    : "";
  return `- ${i.key} [${i.status ?? "?"}] ${i.summary} — ${facts}${extra}${i.url ? `\n  ${i.url}` : ""}`;
};

export const jiraSearch = defineTool({
  name: "jira_search",
  service: "jira",
  scope: "read",
  toolset: "jira-issues",
  reaches: [{ kind: "listing", service: "jira" }],
  description: 'Find Jira issues by JQL (`project = BK AND status = "To Do"`): key, summary, status, assignee; nextCursor pages on.',
  input: z.object({
    jql: z.string().trim().min(1, "jql must not be empty").max(2000, "jql may be at most 2000 characters"),
    maxResults: z
      .number()
      .int("maxResults must be a whole number")
      .min(1, "maxResults must be at least 1")
      .max(100, "maxResults may be at most 100")
      .default(20),
    fields: z
      .array(z.string().regex(/^[\w.-]{1,100}$/, "each field must be a Jira field id such as labels or customfield_10016"))
      .max(20, "at most 20 extra fields")
      .default([]),
    cursor: cursorArg,
  }),
  output: z.object({
    issues: z.array(IssueSummarySchema),
    nextCursor: z.string().nullable().describe("Pass as cursor to get the next page; absent on the last page."),
  }),
  annotations: { title: "Search Jira issues (JQL)", ...READ_ONLY },
  async run({ jql, maxResults, fields, cursor }, ctx) {
    // Jira's page token, sealed with the query it belongs to.
    const scope = `jira_search\u0000${jql}`;
    const token = cursor === undefined ? undefined : ctx.cursors.open(scope, cursor);
    const page = await searchInProjects(
      ctx,
      jql,
      (held) =>
        ctx.clients.jira.searchJql({
          jql: held,
          maxResults,
          fields: [...SEARCH_FIELDS, ...fields],
          ...(token ? { nextPageToken: token } : {}),
        }),
      { issues: [], isLast: true },
    ).catch((err: unknown) => explainJqlError(ctx, err));
    const issues = page.issues.map((issue) => summarise(issue, ctx, fields));
    const nextCursor = page.isLast === false && page.nextPageToken ? ctx.cursors.seal(scope, page.nextPageToken) : null;
    const head =
      issues.length === 0
        ? `No issues match: ${jql}`
        : `${issues.length} issue${issues.length === 1 ? "" : "s"}${nextCursor ? " (more: call again with the cursor below)" : ""}:`;
    const text = [head, ...issues.map(searchLine), ...(nextCursor ? [`nextCursor: ${nextCursor}`] : [])].join("\n");
    return { structured: { issues, nextCursor }, text };
  },
});

const CommentSchema = z.object({ author: z.string().nullable(), created: z.string().nullable(), body: z.string() });

export const jiraGetIssue = defineTool({
  name: "jira_get_issue",
  service: "jira",
  scope: "read",
  toolset: "jira-issues",
  reaches: [{ kind: "jira-issue", arg: "issueKey", byId: "read" }],
  description:
    "Read a Jira issue by key: fields, Markdown description, links, attachments, latest comments; transitions or changelog if asked.",
  input: z.object({
    issueKey: z.string().trim().regex(ISSUE_KEY, "issueKey must be an issue key such as BK-12 (or a numeric id)"),
    comments: z.number().int().min(0, "comments must be at least 0").max(50, "comments may be at most 50").default(5),
    include: z
      .array(z.enum(["transitions", "changelog"], { error: "include takes transitions and changelog" }))
      .max(2)
      .default([]),
  }),
  output: z.object({
    key: z.string(),
    summary: z.string(),
    status: z.string().nullable(),
    type: z.string().nullable(),
    priority: z.string().nullable(),
    assignee: z.string().nullable(),
    reporter: z.string().nullable(),
    created: z.string().nullable(),
    updated: z.string().nullable(),
    labels: z.array(z.string()),
    components: z.array(z.string()),
    parent: z.string().nullable(),
    subtasks: z.array(z.string()),
    links: z.array(
      z.object({
        type: z.string(),
        key: z.string(),
        summary: z.string().nullable(),
        outside: z.literal(true).optional().describe("Outside this client's projects: shown by key only"),
      }),
    ),
    description: z.string().describe("Markdown"),
    url: z.string().nullable(),
    comments: z.array(CommentSchema),
    commentCount: z.number().int(),
    attachments: z.array(z.object({ filename: z.string(), size: z.number().nullable(), mimeType: z.string().nullable() })),
    transitions: z.array(z.object({ id: z.string(), name: z.string(), to: z.string().nullable() })).optional(),
    changelog: z
      .array(
        z.object({
          author: z.string().nullable(),
          created: z.string().nullable(),
          changes: z.array(z.object({ field: z.string(), from: z.string().nullable(), to: z.string().nullable() })),
        }),
      )
      .optional(),
  }),
  annotations: { title: "Read a Jira issue", ...READ_ONLY },
  async run({ issueKey, comments, include }, ctx) {
    // Under a project list an issue named by id was placed by a read of its project before this one (its reach, byId "read").
    const issue = (await ctx.clients.jira.getIssue(issueKey.toUpperCase(), include.length ? { expand: include } : {})) as JiraIssue & {
      transitions?: { id: string; name: string; to?: { name?: string } }[];
      changelog?: {
        histories?: {
          author?: unknown;
          created?: string;
          items?: { field?: string; fromString?: string | null; toString?: string | null }[];
        }[];
      };
    };
    const f = issue.fields;
    const all = ((f.comment as { comments?: { author?: unknown; created?: string; body?: unknown }[] } | undefined)?.comments ?? []).map(
      (c) => ({
        author: nameOf(c.author),
        created: c.created ?? null,
        body: clip(jiraTextToMarkdown(c.body), 2000).text,
      }),
    );
    // A linked issue outside the client's projects shows by key only (outsideIssue): never its summary.
    const links = (
      (f.issuelinks as { type?: { outward?: string; inward?: string }; outwardIssue?: JiraIssue; inwardIssue?: JiraIssue }[] | undefined) ??
      []
    ).flatMap((l) => {
      const other = l.outwardIssue ?? l.inwardIssue;
      if (!other) return [];
      const type = (l.outwardIssue ? l.type?.outward : l.type?.inward) ?? "relates to";
      return [
        issueInProjects(ctx.policy, other.key)
          ? { type, key: other.key, summary: typeof other.fields?.summary === "string" ? other.fields.summary : null }
          : { type, ...outsideIssue(other.key), summary: null },
      ];
    });
    const structured = {
      key: issue.key,
      summary: typeof f.summary === "string" ? f.summary : "",
      status: nameOf(f.status),
      type: nameOf(f.issuetype),
      priority: nameOf(f.priority),
      assignee: nameOf(f.assignee),
      reporter: nameOf(f.reporter),
      created: typeof f.created === "string" ? f.created : null,
      updated: typeof f.updated === "string" ? f.updated : null,
      labels: Array.isArray(f.labels) ? f.labels.filter((l): l is string => typeof l === "string") : [],
      components: Array.isArray(f.components) ? f.components.map(nameOf).filter((c): c is string => c !== null) : [],
      parent: (f.parent as { key?: string } | undefined)?.key ?? null,
      subtasks: Array.isArray(f.subtasks) ? (f.subtasks as { key: string }[]).map((s) => s.key) : [],
      links,
      description: clip(jiraTextToMarkdown(f.description), DESCRIPTION_LIMIT).text,
      url: browseUrl(ctx, issue.key),
      comments: all.slice(-comments),
      commentCount: all.length,
      attachments: (Array.isArray(f.attachment) ? (f.attachment as { filename?: string; size?: number; mimeType?: string }[]) : []).map(
        (a) => ({ filename: a.filename ?? "?", size: typeof a.size === "number" ? a.size : null, mimeType: a.mimeType ?? null }),
      ),
      ...(include.includes("transitions")
        ? {
            transitions: ((issue.transitions ?? []) as { id: string; name: string; to?: { name?: string } }[]).map((t) => ({
              id: String(t.id),
              name: t.name,
              to: t.to?.name ?? null,
            })),
          }
        : {}),
      ...(include.includes("changelog")
        ? {
            changelog: (issue.changelog?.histories ?? []).slice(-20).map((h) => ({
              author: nameOf(h.author),
              created: h.created ?? null,
              changes: (h.items ?? []).map((i) => ({ field: i.field ?? "?", from: i.fromString ?? null, to: i.toString ?? null })),
            })),
          }
        : {}),
    };
    const facts = [
      `Status: ${structured.status ?? "?"} · Type: ${structured.type ?? "?"} · Priority: ${structured.priority ?? "?"}`,
      `Assignee: ${structured.assignee ?? "unassigned"} · Reporter: ${structured.reporter ?? "?"}`,
      `Created ${shortDate(structured.created) ?? "?"} · Updated ${shortDate(structured.updated) ?? "?"}`,
      structured.labels.length ? `Labels: ${structured.labels.join(", ")}` : null,
      structured.components.length ? `Components: ${structured.components.join(", ")}` : null,
      structured.parent ? `Parent: ${structured.parent}` : null,
      structured.subtasks.length ? `Subtasks: ${structured.subtasks.join(", ")}` : null,
      ...links.map((l) => `Link: ${l.type} ${l.key}${l.summary ? ` (${l.summary})` : ""}${"outside" in l ? ` ${OUTSIDE_ISSUE}` : ""}`),
      structured.url,
    ].filter(Boolean);
    const text = [
      `# ${structured.key}: ${structured.summary}`,
      facts.join("\n"),
      `## Description\n${structured.description || "(none)"}`,
      structured.attachments.length
        ? `## Attachments\n${structured.attachments.map((a) => `- ${a.filename}${a.size !== null ? ` (${a.size} bytes)` : ""}`).join("\n")}`
        : null,
      structured.transitions
        ? `## Transitions\n${structured.transitions.map((t) => `- ${t.name} (id ${t.id}) → ${t.to ?? "?"}`).join("\n") || "(none now)"}`
        : null,
      structured.changelog
        ? `## Changes (latest ${structured.changelog.length})\n${structured.changelog.map((h) => `- ${shortDate(h.created) ?? "?"} ${h.author ?? "?"}: ${h.changes.map((c) => `${c.field} ${c.from ?? "∅"} → ${c.to ?? "∅"}`).join("; ")}`).join("\n")}`
        : null,
      structured.comments.length
        ? `## Comments (latest ${structured.comments.length} of ${structured.commentCount})\n${structured.comments.map((c) => `**${c.author ?? "?"}**, ${shortDate(c.created) ?? "?"}:\n${c.body}`).join("\n\n")}`
        : null,
    ]
      .filter(Boolean)
      .join("\n\n");
    return { structured, text };
  },
});

const ChangedIssueSchema = z.object({ key: z.string(), url: z.string().nullable() });

export const jiraCreateIssue = defineTool({
  name: "jira_create_issue",
  service: "jira",
  toolset: "jira-issues",
  reaches: [
    { kind: "jira-project", arg: "projectKey" },
    { kind: "jira-issue", arg: "parentKey" },
    { kind: "jira-fields", arg: "fields" },
  ],
  scope: "write",
  description:
    "Create a Jira issue: Markdown description, parentKey for a sub-task, fields for others (Jira JSON by id). Returns its key and URL.",
  input: CreateIssueArgs,
  output: ChangedIssueSchema.extend({ id: z.string(), summary: z.string() }),
  annotations: { title: "Create a Jira issue", ...WRITES },
  async run(args, ctx) {
    const fields = createFields(args);
    const created = await ctx.clients.jira.createIssue(fields);
    const structured = { key: created.key, id: created.id, summary: args.summary, url: browseUrl(ctx, created.key) };
    return { structured, text: `Created ${created.key}: ${args.summary}${structured.url ? `\n${structured.url}` : ""}` };
  },
});

export const jiraUpdateIssue = defineTool({
  name: "jira_update_issue",
  service: "jira",
  toolset: "jira-issues",
  reaches: [
    { kind: "jira-issue", arg: "issueKey" },
    { kind: "jira-fields", arg: "fields" },
  ],
  scope: "write",
  description:
    "Change only the given fields of a Jira issue (others in fields, as Jira JSON by id; status: jira_transition_issue). Returns what changed.",
  input: z
    .object({
      issueKey: z.string().trim().regex(ISSUE_KEY, "issueKey must be an issue key such as BK-12 (or a numeric id)"),
      summary: z.string().trim().min(1, "summary must not be empty").max(255, "summary may be at most 255 characters").optional(),
      description: markdown("description").optional(),
      priority: z.string().trim().min(1).max(100).optional(),
      labels: z.array(LABEL).max(50).optional(),
      assigneeAccountId: accountId.nullable().optional(),
      fields: extraFields,
    })
    .refine(
      (a) =>
        ["summary", "description", "priority", "labels", "assigneeAccountId", "fields"].some((k) => a[k as keyof typeof a] !== undefined),
      "nothing to change: give at least one field",
    ),
  output: ChangedIssueSchema.extend({ changed: z.array(z.string()) }),
  annotations: { title: "Update a Jira issue", ...WRITES, idempotentHint: true },
  async run(args, ctx) {
    const key = args.issueKey.toUpperCase();
    const fields: Record<string, unknown> = {
      ...args.fields,
      ...(args.summary !== undefined ? { summary: args.summary } : {}),
      ...(args.description !== undefined ? { description: jiraText(args.description) } : {}),
      ...(args.priority !== undefined ? { priority: { name: args.priority } } : {}),
      ...(args.labels !== undefined ? { labels: args.labels } : {}),
      ...(args.assigneeAccountId !== undefined
        ? { assignee: args.assigneeAccountId === null ? null : { accountId: args.assigneeAccountId } }
        : {}),
    };
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
  reaches: [{ kind: "jira-issue", arg: "issueKey" }],
  scope: "write",
  description: "Comment on a Jira issue in Markdown. Returns the comment's id and link.",
  input: z.object({
    issueKey: z.string().trim().regex(ISSUE_KEY, "issueKey must be an issue key such as BK-12 (or a numeric id)"),
    body: markdown("body").trim().min(1, "body must not be empty"),
  }),
  output: ChangedIssueSchema.extend({ commentId: z.string() }),
  annotations: { title: "Comment on a Jira issue", ...WRITES },
  async run({ issueKey, body }, ctx) {
    const key = issueKey.toUpperCase();
    const comment = await ctx.clients.jira.addComment(key, jiraText(body));
    const url = browseUrl(ctx, key);
    const commentUrl = url ? `${url}?focusedCommentId=${comment.id}` : null;
    return {
      structured: { key, url: commentUrl, commentId: comment.id },
      text: `Commented on ${key} (comment ${comment.id})${commentUrl ? `\n${commentUrl}` : ""}`,
    };
  },
});

export const jiraTransitionIssue = defineTool({
  name: "jira_transition_issue",
  service: "jira",
  toolset: "jira-issues",
  reaches: [
    { kind: "jira-issue", arg: "issueKey" },
    { kind: "jira-fields", arg: "fields" },
  ],
  scope: "write",
  description:
    "Move a Jira issue along its workflow (transition name or id, or target status), optionally with a Markdown comment. Returns the new status.",
  input: z.object({
    issueKey: z.string().trim().regex(ISSUE_KEY, "issueKey must be an issue key such as BK-12 (or a numeric id)"),
    transition: z.string().trim().min(1, "transition must not be empty").max(100),
    comment: markdown("comment").optional(),
    fields: extraFields,
  }),
  output: ChangedIssueSchema.extend({ transition: z.string(), status: z.string().nullable() }),
  annotations: { title: "Transition a Jira issue", ...WRITES },
  async run({ issueKey, transition, comment, fields }, ctx) {
    const key = issueKey.toUpperCase();
    const available = await transitionsOf(ctx, key);
    const wanted = transition.toLowerCase();
    const chosen =
      available.find((t) => t.id === transition) ??
      available.find((t) => t.name.toLowerCase() === wanted) ??
      available.find((t) => t.to?.toLowerCase() === wanted);
    if (!chosen) {
      const names = available.map((t) => `${t.name} (→ ${t.to ?? "?"})`).join(", ");
      throw new ToolError(
        `${key} has no transition "${transition}" now. Available: ${names || "none"}. Call again with one of these names.`,
      );
    }
    await ctx.clients.jira.transitionIssue(key, chosen.id, {
      ...(fields ? { fields } : {}),
      ...(comment?.trim() ? { update: { comment: [{ add: { body: jiraText(comment) } }] } } : {}),
    });
    const url = browseUrl(ctx, key);
    return {
      structured: { key, url, transition: chosen.name, status: chosen.to },
      text: `${key}: ${chosen.name} → ${chosen.to ?? "?"}${url ? `\n${url}` : ""}`,
    };
  },
});

export const jiraSearchUsers = defineTool({
  name: "jira_search_users",
  service: "jira",
  toolset: "jira-issues",
  reaches: [
    { kind: "jira-issue", arg: "issueKey" },
    { kind: "jira-project", arg: "projectKey" },
  ],
  scope: "read",
  description: "Find Jira users' accountIds by name or email; with issueKey or projectKey, only those assignable there.",
  input: z.object({
    query: z.string().trim().min(1, "query must not be empty").max(200),
    issueKey: z.string().trim().regex(ISSUE_KEY, "issueKey must be an issue key such as BK-12").optional(),
    projectKey: z.string().trim().regex(PROJECT_KEY, "projectKey must be a project key such as BK").optional(),
    maxResults: z.number().int().min(1).max(50, "maxResults may be at most 50").default(10),
  }),
  output: z.object({
    users: z.array(z.object({ accountId: z.string(), name: z.string(), email: z.string().nullable(), active: z.boolean().nullable() })),
  }),
  annotations: { title: "Find Jira users", ...READ_ONLY },
  async run({ query, issueKey, projectKey, maxResults }, ctx) {
    const assignableTo =
      issueKey || projectKey
        ? { ...(issueKey ? { issueKey: issueKey.toUpperCase() } : {}), ...(projectKey ? { project: projectKey.toUpperCase() } : {}) }
        : undefined;
    const found = await ctx.clients.jira.searchUsers(query, { maxResults, ...(assignableTo ? { assignableTo } : {}) });
    const users = found.map((u) => ({
      accountId: u.accountId,
      name: u.displayName,
      email: u.emailAddress ?? null,
      active: typeof u.active === "boolean" ? u.active : null,
    }));
    const lines = users.map(
      (u) => `- ${u.name}${u.email ? ` <${u.email}>` : ""}: ${u.accountId}${u.active === false ? " (inactive)" : ""}`,
    );
    return {
      structured: { users },
      text: users.length ? [`${users.length} user${users.length === 1 ? "" : "s"}:`, ...lines].join("\n") : `No users match "${query}".`,
    };
  },
});

export const jiraAssignIssue = defineTool({
  name: "jira_assign_issue",
  service: "jira",
  toolset: "jira-issues",
  reaches: [{ kind: "jira-issue", arg: "issueKey" }],
  scope: "write",
  description: "Assign a Jira issue to an accountId (from jira_search_users), or unassign it with null.",
  input: z.object({
    issueKey: z.string().trim().regex(ISSUE_KEY, "issueKey must be an issue key such as BK-12 (or a numeric id)"),
    accountId: accountId.nullable(),
  }),
  output: ChangedIssueSchema.extend({ assignee: z.string().nullable() }),
  annotations: { title: "Assign a Jira issue", ...WRITES, idempotentHint: true },
  async run({ issueKey, accountId: assignee }, ctx) {
    const key = issueKey.toUpperCase();
    await ctx.clients.jira.assignIssue(key, assignee);
    const url = browseUrl(ctx, key);
    return {
      structured: { key, url, assignee },
      text: `${assignee ? `Assigned ${key} to ${assignee}` : `Unassigned ${key}`}.${url ? `\n${url}` : ""}`,
    };
  },
});

export const JIRA_ISSUES_TOOLS = [
  jiraSearch,
  jiraGetIssue,
  jiraSearchUsers,
  jiraCreateIssue,
  jiraUpdateIssue,
  jiraAssignIssue,
  jiraAddComment,
  jiraTransitionIssue,
];
