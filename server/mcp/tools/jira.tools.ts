import { z } from "zod";
import type { JiraIssue } from "../../upstream/jira.client";
import { adfToMarkdown } from "./markdown/adf-to-markdown";
import { brief, clip, closest, nameOf, shortDate } from "./format";
import { isUpstreamError } from "../../upstream/errors";
import { assertIssueAllowed, issueInProjects, OUTSIDE_ISSUE, outsideById, outsideIssue, projectOfKey, searchInProjects, withoutOutsideIssues } from "./policy";
import { cursorArg } from "./cursor";
import { defineTool, READ_ONLY, ToolError, type ToolContext } from "./tool";

export const ISSUE_KEY = /^[A-Za-z][A-Za-z0-9_]{0,49}-\d{1,10}$|^\d{1,15}$/;
const SEARCH_FIELDS = ["summary", "status", "assignee", "priority", "issuetype", "updated"];
const DESCRIPTION_LIMIT = 12_000;

export const browseUrl = (ctx: ToolContext, key: string): string | null => (ctx.atlassianUrl ? `${ctx.atlassianUrl}/browse/${key}` : null);

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
  const fields = extra.length ? Object.fromEntries(extra.map((name) => [name, brief(withoutOutsideIssues(f[name], ctx.policy))])) : undefined;
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
  const facts = [i.type, i.priority, i.assignee ?? "unassigned", i.updated ? `updated ${shortDate(i.updated)}` : null].filter(Boolean).join(" · ");
  const extra = i.fields ? ` · ${Object.entries(i.fields).map(([k, v]) => `${k}: ${v}`).join(" · ")}` : "";
  return `- ${i.key} [${i.status ?? "?"}] ${i.summary} — ${facts}${extra}${i.url ? `\n  ${i.url}` : ""}`;
};

/**
 * Jira's "Field 'sprintt' does not exist" with the field it most likely meant, read from Jira's
 * own field list (clause names included): a model fixes a typo in one step instead of guessing.
 */
export async function explainJqlError(ctx: ToolContext, err: unknown): Promise<never> {
  const unknown = isUpstreamError(err) && err.kind === "bad_request" ? /Field '([^']{1,100})' does not exist/.exec(err.message)?.[1] : undefined;
  if (!unknown) throw err;
  const names = await ctx.clients.jira.fields().then(
    (list) => list.flatMap((f) => [...(f.clauseNames ?? []), f.name]),
    () => [] as string[],
  );
  const guess = closest(unknown, names);
  throw new ToolError(`JQL: field '${unknown}' does not exist${guess ? `; did you mean '${guess}'?` : " (jira_search_fields finds field names, where it is offered)."} Fix the JQL and search again.`);
}

export const jiraSearch = defineTool({
  name: "jira_search",
  service: "jira",
  scope: "read",
  toolset: "jira-issues",
  description: "Search Jira issues with JQL, e.g. `project = BK AND status = \"In Progress\" ORDER BY updated DESC`. Pass nextCursor for more.",
  input: z.object({
    jql: z.string().trim().min(1, "jql must not be empty").max(2000, "jql may be at most 2000 characters").describe("The JQL query. Add ORDER BY for a stable order."),
    maxResults: z.number().int("maxResults must be a whole number").min(1, "maxResults must be at least 1").max(100, "maxResults may be at most 100").default(20),
    fields: z
      .array(z.string().regex(/^[\w.-]{1,100}$/, "each field must be a Jira field id such as labels or customfield_10016"))
      .max(20, "at most 20 extra fields")
      .default([])
      .describe("Extra field ids, e.g. [\"labels\", \"customfield_10016\"]."),
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
    const page = await searchInProjects(ctx, jql, (held) => ctx.clients.jira.searchJql({ jql: held, maxResults, fields: [...SEARCH_FIELDS, ...fields], ...(token ? { nextPageToken: token } : {}) }), { issues: [], isLast: true }).catch((err: unknown) => explainJqlError(ctx, err));
    const issues = page.issues.map((issue) => summarise(issue, ctx, fields));
    const nextCursor = page.isLast === false && page.nextPageToken ? ctx.cursors.seal(scope, page.nextPageToken) : null;
    const head = issues.length === 0 ? `No issues match: ${jql}` : `${issues.length} issue${issues.length === 1 ? "" : "s"}${nextCursor ? " (more: call again with the cursor below)" : ""}:`;
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
  description: "Read a Jira issue by key: fields, Markdown description, links, attachments, latest comments.",
  input: z.object({
    issueKey: z.string().trim().regex(ISSUE_KEY, "issueKey must be an issue key such as BK-12 (or a numeric id)").describe("The issue key, e.g. BK-12."),
    comments: z.number().int().min(0, "comments must be at least 0").max(50, "comments may be at most 50").default(5).describe("How many of the latest comments to include."),
    include: z
      .array(z.enum(["transitions", "changelog"], { error: "include takes transitions and changelog" }))
      .max(2)
      .default([])
      .describe('Also the available "transitions" and/or the latest 20 "changelog" entries.'),
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
    links: z.array(z.object({ type: z.string(), key: z.string(), summary: z.string().nullable(), outside: z.literal(true).optional().describe("Outside this client's projects: shown by key only") })),
    description: z.string().describe("Markdown"),
    url: z.string().nullable(),
    comments: z.array(CommentSchema),
    commentCount: z.number().int(),
    attachments: z.array(z.object({ filename: z.string(), size: z.number().nullable(), mimeType: z.string().nullable() })),
    transitions: z.array(z.object({ id: z.string(), name: z.string(), to: z.string().nullable() })).optional(),
    changelog: z.array(z.object({ author: z.string().nullable(), created: z.string().nullable(), changes: z.array(z.object({ field: z.string(), from: z.string().nullable(), to: z.string().nullable() })) })).optional(),
  }),
  annotations: { title: "Read a Jira issue", ...READ_ONLY },
  async run({ issueKey, comments, include }, ctx) {
    const byId = projectOfKey(issueKey) === null;
    if (!byId) assertIssueAllowed(ctx, issueKey);
    const issue = (await ctx.clients.jira.getIssue(issueKey.toUpperCase(), include.length ? { expand: include } : {}).catch((err: unknown) => {
      // Under a list, an id Jira does not have is refused as one outside it is: the answer tells neither.
      throw byId && ctx.policy.jiraProjects !== null && isUpstreamError(err) && err.kind === "not_found" ? outsideById(ctx, "issue", issueKey) : err;
    })) as JiraIssue & {
      transitions?: { id: string; name: string; to?: { name?: string } }[];
      changelog?: { histories?: { author?: unknown; created?: string; items?: { field?: string; fromString?: string | null; toString?: string | null }[] }[] };
    };
    // Asked by numeric id: placed by what came back, and refused without naming where it lives.
    if (byId && !issueInProjects(ctx.policy, issue.key)) throw outsideById(ctx, "issue", issueKey);
    assertIssueAllowed(ctx, issue.key);
    const f = issue.fields;
    const all = ((f.comment as { comments?: { author?: unknown; created?: string; body?: unknown }[] } | undefined)?.comments ?? []).map((c) => ({
      author: nameOf(c.author),
      created: c.created ?? null,
      body: clip(adfToMarkdown(c.body), 2000).text,
    }));
    // A linked issue outside the client's projects shows by key only (outsideIssue): never its summary.
    const links = ((f.issuelinks as { type?: { outward?: string; inward?: string }; outwardIssue?: JiraIssue; inwardIssue?: JiraIssue }[] | undefined) ?? []).flatMap((l) => {
      const other = l.outwardIssue ?? l.inwardIssue;
      if (!other) return [];
      const type = (l.outwardIssue ? l.type?.outward : l.type?.inward) ?? "relates to";
      return [issueInProjects(ctx.policy, other.key) ? { type, key: other.key, summary: typeof other.fields?.summary === "string" ? other.fields.summary : null } : { type, ...outsideIssue(other.key), summary: null }];
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
      description: clip(adfToMarkdown(f.description), DESCRIPTION_LIMIT).text,
      url: browseUrl(ctx, issue.key),
      comments: all.slice(-comments),
      commentCount: all.length,
      attachments: (Array.isArray(f.attachment) ? (f.attachment as { filename?: string; size?: number; mimeType?: string }[]) : []).map((a) => ({ filename: a.filename ?? "?", size: typeof a.size === "number" ? a.size : null, mimeType: a.mimeType ?? null })),
      ...(include.includes("transitions") ? { transitions: ((issue.transitions ?? []) as { id: string; name: string; to?: { name?: string } }[]).map((t) => ({ id: String(t.id), name: t.name, to: t.to?.name ?? null })) } : {}),
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
      structured.attachments.length ? `## Attachments\n${structured.attachments.map((a) => `- ${a.filename}${a.size !== null ? ` (${a.size} bytes)` : ""}`).join("\n")}` : null,
      structured.transitions ? `## Transitions\n${structured.transitions.map((t) => `- ${t.name} (id ${t.id}) → ${t.to ?? "?"}`).join("\n") || "(none now)"}` : null,
      structured.changelog ? `## Changes (latest ${structured.changelog.length})\n${structured.changelog.map((h) => `- ${shortDate(h.created) ?? "?"} ${h.author ?? "?"}: ${h.changes.map((c) => `${c.field} ${c.from ?? "∅"} → ${c.to ?? "∅"}`).join("; ")}`).join("\n")}` : null,
      structured.comments.length ? `## Comments (latest ${structured.comments.length} of ${structured.commentCount})\n${structured.comments.map((c) => `**${c.author ?? "?"}**, ${shortDate(c.created) ?? "?"}:\n${c.body}`).join("\n\n")}` : null,
    ]
      .filter(Boolean)
      .join("\n\n");
    return { structured, text };
  },
});

export const JIRA_TOOLS = [jiraSearch, jiraGetIssue];
