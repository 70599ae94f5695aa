import { z } from "zod";
import { firstOf } from "../../upstream/paginate";
import { UpstreamError } from "../../upstream/errors";
import type { BitbucketActivity, BitbucketComment, BitbucketTask } from "../../upstream/bitbucket.client";
import { cursorArg, pageNumber } from "./cursor";
import { clip, nameOf, shortDate } from "./format";
import { href, repositoryArg as repository, repositoryTarget } from "./bitbucket-common";
import { commitLine, CommitSchema } from "./bitbucket-history.tools";
import { defineTool, READ_ONLY, ToolError, WRITES } from "./tool";

/**
 * Review work on a Bitbucket pull request (toolset bitbucket-reviews): what happened on it, its
 * commits and comment threads, resolving a thread, editing the pull request, and its tasks.
 */

export const pullRequestId = z
  .number()
  .int("pullRequestId must be a whole number")
  .min(1, "pullRequestId must be at least 1")
  .max(10_000_000);
const commentId = z.number().int("commentId must be a whole number").min(1, "commentId must be at least 1");

const EventSchema = z.object({
  date: z.string().nullable(),
  kind: z.string(),
  user: z.string().nullable(),
  detail: z.string(),
  commentId: z.number().int().nullable(),
});

/** One activity entry as an event: what, who, when, and a short detail. */
function eventOf(a: BitbucketActivity) {
  if (a.comment) {
    const c = a.comment;
    const where = c.inline?.path ? `${c.inline.path}${(c.inline.to ?? c.inline.from) ? `:${c.inline.to ?? c.inline.from}` : ""}: ` : "";
    const body = c.deleted ? "(deleted)" : (c.content?.raw ?? "").replace(/\s+/g, " ").trim();
    return {
      date: c.created_on ?? null,
      kind: c.parent ? "reply" : "comment",
      user: nameOf(c.user),
      detail: `${where}${body.length > 200 ? `${body.slice(0, 199)}…` : body}`,
      commentId: c.id,
    };
  }
  if (a.approval) return { date: a.approval.date ?? null, kind: "approved", user: nameOf(a.approval.user), detail: "", commentId: null };
  if (a.changes_requested)
    return {
      date: a.changes_requested.date ?? null,
      kind: "changes requested",
      user: nameOf(a.changes_requested.user),
      detail: "",
      commentId: null,
    };
  const u = a.update ?? {};
  const changed = Object.entries(u.changes ?? {}).map(([field, c]) =>
    field === "description" ? "description" : `${field}: ${c.old ?? ""} → ${c.new ?? ""}`,
  );
  const kind = u.state && u.state !== "OPEN" ? u.state.toLowerCase() : changed.length ? "edited" : "updated";
  return { date: u.date ?? null, kind, user: nameOf(u.author), detail: changed.join("; "), commentId: null };
}

export const bitbucketGetPullRequestActivity = defineTool({
  name: "bitbucket_get_pull_request_activity",
  service: "bitbucket",
  toolset: "bitbucket-reviews",
  reaches: [{ kind: "bitbucket-repository", arg: "repository" }],
  scope: "read",
  description: "What happened on a pull request, oldest first: opened, edits, approvals, change requests, comments, merge or decline.",
  input: z.object({
    repository,
    pullRequestId,
    maxResults: z
      .number()
      .int()
      .min(1, "maxResults must be at least 1")
      .max(200, "maxResults may be at most 200")
      .default(50)
      .describe("The latest this many."),
  }),
  output: z.object({ events: z.array(EventSchema), truncated: z.boolean() }),
  annotations: { title: "Read a Bitbucket pull request's activity", ...READ_ONLY },
  async run({ repository: slug, pullRequestId: id, maxResults }, ctx) {
    const { workspace, repo } = repositoryTarget(ctx, slug);
    // Bitbucket lists the newest first: the latest maxResults, then told in time order.
    const { items, truncated } = await firstOf(ctx.clients.bitbucket.pullRequestActivity(workspace, repo, id), maxResults);
    const events = items.map(eventOf).reverse();
    if (!truncated && events[0]?.kind === "updated") events[0].kind = "opened";
    const head = `${events.length} event${events.length === 1 ? "" : "s"} on #${id} in ${workspace}/${repo}${truncated ? " (the latest; older ones: raise maxResults)" : ""}:`;
    const lines = events.map(
      (e) =>
        `- ${shortDate(e.date) ?? "?"} ${e.user ?? "?"} ${e.kind}${e.commentId ? ` #${e.commentId}` : ""}${e.detail ? `: ${e.detail}` : ""}`,
    );
    return { structured: { events, truncated }, text: [head, ...lines].join("\n") };
  },
});

export const bitbucketListPullRequestCommits = defineTool({
  name: "bitbucket_list_pull_request_commits",
  service: "bitbucket",
  toolset: "bitbucket-reviews",
  reaches: [{ kind: "bitbucket-repository", arg: "repository" }],
  scope: "read",
  description: "The commits a pull request brings, newest first: hash, date, author, first line of the message, link.",
  input: z.object({
    repository,
    pullRequestId,
    maxResults: z.number().int().min(1, "maxResults must be at least 1").max(100, "maxResults may be at most 100").default(30),
  }),
  output: z.object({ commits: z.array(CommitSchema), truncated: z.boolean() }),
  annotations: { title: "List a Bitbucket pull request's commits", ...READ_ONLY },
  async run({ repository: slug, pullRequestId: id, maxResults }, ctx) {
    const { workspace, repo } = repositoryTarget(ctx, slug);
    const { items, truncated } = await firstOf(ctx.clients.bitbucket.pullRequestCommits(workspace, repo, id), maxResults);
    const commits = items.map(commitLine);
    const text = [
      `${commits.length} commit${commits.length === 1 ? "" : "s"} in #${id} (${workspace}/${repo})${truncated ? " (more: raise maxResults)" : ""}:`,
      ...commits.map((c) => `- ${c.hash} ${shortDate(c.date) ?? "?"} ${c.author ?? "?"}: ${c.message}`),
    ].join("\n");
    return { structured: { commits, truncated }, text };
  },
});

const DiffstatFileSchema = z.object({
  path: z.string(),
  oldPath: z.string().nullable(),
  status: z.string(),
  linesAdded: z.number().int(),
  linesRemoved: z.number().int(),
});

export const bitbucketGetPullRequestDiffstat = defineTool({
  name: "bitbucket_get_pull_request_diffstat",
  service: "bitbucket",
  toolset: "bitbucket-reviews",
  reaches: [{ kind: "bitbucket-repository", arg: "repository" }],
  scope: "read",
  description:
    "The files a pull request changes: status (added, modified, removed, renamed) and lines added and removed, the first maxFiles with `truncated` set. Read the lines with bitbucket_get_pull_request_diff (paths).",
  input: z.object({
    repository,
    pullRequestId,
    maxFiles: z
      .number()
      .int("maxFiles must be a whole number")
      .min(1, "maxFiles must be at least 1")
      .max(500, "maxFiles may be at most 500")
      .default(100),
  }),
  output: z.object({
    pullRequestId: z.number().int(),
    title: z.string(),
    url: z.string().nullable(),
    files: z.array(DiffstatFileSchema),
    linesAdded: z.number().int(),
    linesRemoved: z.number().int(),
    truncated: z.boolean(),
  }),
  annotations: { title: "List a Bitbucket pull request's changed files", ...READ_ONLY },
  async run({ repository: slug, pullRequestId: id, maxFiles }, ctx) {
    const { workspace, repo } = repositoryTarget(ctx, slug);
    const client = ctx.clients.bitbucket;
    const [pr, stats] = await Promise.all([
      client.pullRequest(workspace, repo, id),
      firstOf(client.pullRequestDiffstat(workspace, repo, id, maxFiles + 1), maxFiles),
    ]);
    const files = stats.items.map((s) => {
      const path = s.new?.path ?? s.old?.path ?? "?";
      const old = s.old?.path ?? null;
      return {
        path,
        oldPath: old !== null && old !== path ? old : null,
        status: s.status,
        linesAdded: s.lines_added ?? 0,
        linesRemoved: s.lines_removed ?? 0,
      };
    });
    const linesAdded = files.reduce((n, f) => n + f.linesAdded, 0);
    const linesRemoved = files.reduce((n, f) => n + f.linesRemoved, 0);
    const url = href((pr as typeof pr & { links?: unknown }).links, "html");
    const count = `${files.length}${stats.truncated ? "+" : ""} file${files.length === 1 && !stats.truncated ? "" : "s"} changed`;
    const head = files.length
      ? `#${id} "${pr.title}" in ${workspace}/${repo}: ${count}, +${linesAdded} −${linesRemoved}${stats.truncated ? ` in the first ${files.length} (more: raise maxFiles)` : ""}`
      : `#${id} "${pr.title}" in ${workspace}/${repo} changes no files.`;
    const lines = files.map((f) => `- ${f.status} ${f.oldPath ? `${f.oldPath} → ` : ""}${f.path} (+${f.linesAdded} −${f.linesRemoved})`);
    return {
      structured: { pullRequestId: id, title: pr.title, url, files, linesAdded, linesRemoved, truncated: stats.truncated },
      text: [head, url, ...lines].filter(Boolean).join("\n"),
    };
  },
});

const CommentSchema = z.object({
  id: z.number().int(),
  author: z.string().nullable(),
  created: z.string().nullable(),
  body: z.string(),
  at: z.string().nullable(),
  parentId: z.number().int().nullable(),
  resolved: z.boolean(),
  url: z.string().nullable(),
});

const commentOf = (c: BitbucketComment) => ({
  id: c.id,
  author: nameOf(c.user),
  created: c.created_on ?? null,
  body: c.deleted ? "(deleted)" : clip(c.content?.raw ?? "", 4000).text,
  at: c.inline?.path ? `${c.inline.path}${(c.inline.to ?? c.inline.from) ? `:${c.inline.to ?? c.inline.from}` : ""}` : null,
  parentId: c.parent?.id ?? null,
  resolved: Boolean(c.resolution),
  url: href(c.links, "html"),
});

export const bitbucketListPullRequestComments = defineTool({
  name: "bitbucket_list_pull_request_comments",
  service: "bitbucket",
  toolset: "bitbucket-reviews",
  reaches: [{ kind: "bitbucket-repository", arg: "repository" }],
  scope: "read",
  description: "A pull request's comments in Markdown, oldest first: inline file:line, replies, resolved state.",
  input: z.object({
    repository,
    pullRequestId,
    maxResults: z.number().int().min(1, "maxResults must be at least 1").max(100, "maxResults may be at most 100").default(25),
    cursor: cursorArg,
  }),
  output: z.object({ comments: z.array(CommentSchema), total: z.number().int().nullable(), nextCursor: z.string().nullable() }),
  annotations: { title: "List a Bitbucket PR's comments", ...READ_ONLY },
  async run({ repository: slug, pullRequestId: id, maxResults, cursor }, ctx) {
    const { workspace, repo } = repositoryTarget(ctx, slug);
    const scope = `bitbucket_list_pull_request_comments\u0000${workspace}/${repo}\u0000${id}\u0000${maxResults}`;
    const pageNo = pageNumber(ctx.cursors, scope, cursor, 1);
    const page = await ctx.clients.bitbucket.pullRequestCommentsPage(workspace, repo, id, { pagelen: maxResults, page: pageNo });
    const comments = page.values.map(commentOf);
    const nextCursor = page.next ? ctx.cursors.seal(scope, String((page.page ?? pageNo) + 1)) : null;
    const head =
      comments.length === 0
        ? `No comments on #${id} in ${workspace}/${repo}.`
        : `${comments.length} comment${comments.length === 1 ? "" : "s"} on #${id} in ${workspace}/${repo}${page.size !== undefined ? ` (of ${page.size})` : ""}:`;
    const lines = comments.map((c) => {
      const tags = [c.at, c.parentId ? `reply to #${c.parentId}` : null, c.resolved ? "resolved" : null].filter(Boolean).join(", ");
      const body = c.body.replace(/\n/g, "\n  ");
      return `- #${c.id} ${c.author ?? "?"} ${shortDate(c.created) ?? "?"}${tags ? ` [${tags}]` : ""}:\n  ${body}`;
    });
    return {
      structured: { comments, total: page.size ?? null, nextCursor },
      text: [head, ...lines, ...(nextCursor ? [`nextCursor: ${nextCursor}`] : [])].join("\n"),
    };
  },
});

export const bitbucketResolveComment = defineTool({
  name: "bitbucket_resolve_comment",
  service: "bitbucket",
  toolset: "bitbucket-reviews",
  reaches: [{ kind: "bitbucket-repository", arg: "repository" }],
  scope: "write",
  description: "Resolve a pull request's comment thread (its top comment), or reopen it (resolve: false).",
  input: z.object({ repository, pullRequestId, commentId, resolve: z.boolean().default(true).describe("false reopens the thread.") }),
  output: z.object({ commentId: z.number().int(), resolved: z.boolean(), already: z.boolean() }),
  annotations: { title: "Resolve a Bitbucket comment thread", ...WRITES, idempotentHint: true },
  async run({ repository: slug, pullRequestId: id, commentId: comment, resolve }, ctx) {
    const { workspace, repo } = repositoryTarget(ctx, slug);
    let already = false;
    try {
      if (resolve) await ctx.clients.bitbucket.resolveComment(workspace, repo, id, comment);
      else await ctx.clients.bitbucket.reopenComment(workspace, repo, id, comment);
    } catch (err) {
      // 409: the thread is in that state already, which is what was asked.
      if (!(err instanceof UpstreamError && err.status === 409)) throw err;
      already = true;
    }
    const verb = resolve ? "resolved" : "open";
    return {
      structured: { commentId: comment, resolved: resolve, already },
      text: `Comment #${comment} on #${id} in ${workspace}/${repo} ${already ? `was already ${verb}` : resolve ? "is resolved" : "is reopened"}.`,
    };
  },
});

const BRANCH = z
  .string()
  .trim()
  .regex(/^[\w./-]{1,200}$/, "destination must be a branch name such as main");
const REVIEWER = z
  .string()
  .trim()
  .regex(
    /^\{[0-9a-fA-F-]{36}\}$|^[\w.@:-]{1,128}$/,
    "each reviewer must be a user's {UUID} or account id (on Data Center: their user name)",
  );
type ReviewerRef = { uuid: string } | { account_id: string };
const reviewerRef = (r: string): ReviewerRef => (r.startsWith("{") ? { uuid: r } : { account_id: r });

export const bitbucketUpdatePullRequest = defineTool({
  name: "bitbucket_update_pull_request",
  service: "bitbucket",
  toolset: "bitbucket-reviews",
  reaches: [{ kind: "bitbucket-repository", arg: "repository" }],
  scope: "write",
  description: "Edit an open pull request: title, Markdown description, destination, reviewers; what is not given stays.",
  input: z
    .object({
      repository,
      pullRequestId,
      title: z.string().trim().min(1, "title must not be empty").max(255, "title may be at most 255 characters").optional(),
      description: z.string().max(32_000, "description may be at most 32000 characters").optional(),
      destination: BRANCH.optional(),
      reviewers: z.array(REVIEWER).max(20, "at most 20 reviewers").optional().describe("Replaces the list: {UUID}s or account ids."),
    })
    .refine(
      (a) => a.title !== undefined || a.description !== undefined || a.destination !== undefined || a.reviewers !== undefined,
      "nothing to change: give title, description, destination or reviewers",
    ),
  output: z.object({
    id: z.number().int(),
    title: z.string(),
    destination: z.string().nullable(),
    reviewers: z.array(z.string()),
    url: z.string().nullable(),
  }),
  annotations: { title: "Edit a Bitbucket PR", ...WRITES, idempotentHint: true },
  async run({ repository: slug, pullRequestId: id, title, description, destination, reviewers }, ctx) {
    const { workspace, repo } = repositoryTarget(ctx, slug);
    const client = ctx.clients.bitbucket;
    // Bitbucket's PUT replaces the reviewer list with the one sent (none sent: none kept), so send the current one unless a new one is given.
    const current = (await client.pullRequest(workspace, repo, id)) as Awaited<ReturnType<typeof client.pullRequest>> & {
      description?: string;
      reviewers?: { uuid?: string; account_id?: string }[];
      version?: number;
    };
    if (current.state !== "OPEN") throw new ToolError(`#${id} is ${current.state.toLowerCase()}: only an open pull request can be edited.`);
    const keep = (current.reviewers ?? []).flatMap((r): ReviewerRef[] =>
      r.uuid ? [{ uuid: r.uuid }] : r.account_id ? [{ account_id: r.account_id }] : [],
    );
    // Data Center writes at the version read here (a pull request changed since is refused, not overwritten); Cloud has none.
    const change: Parameters<typeof client.updatePullRequest>[3] & { version?: number } = {
      title: title ?? current.title,
      description: description ?? current.description ?? "",
      destination: { branch: { name: destination ?? current.destination?.branch?.name ?? "" } },
      reviewers: reviewers ? reviewers.map(reviewerRef) : keep,
      ...(current.version !== undefined ? { version: current.version } : {}),
    };
    const updated = await client.updatePullRequest(workspace, repo, id, change);
    const raw = updated as typeof updated & { reviewers?: unknown[]; links?: unknown };
    const changed = [
      title !== undefined && "title",
      description !== undefined && "description",
      destination !== undefined && "destination",
      reviewers !== undefined && "reviewers",
    ].filter((c): c is string => Boolean(c));
    const names = (raw.reviewers ?? []).map((r) => nameOf(r) ?? "?");
    const url = href(raw.links, "html");
    const into = updated.destination?.branch?.name ?? null;
    return {
      structured: { id: updated.id, title: updated.title, destination: into, reviewers: names, url },
      text: `Updated #${updated.id} in ${workspace}/${repo} (${changed.join(", ")}): ${updated.title} → ${into ?? "?"} · reviewers: ${names.join(", ") || "none"}${url ? `\n${url}` : ""}`,
    };
  },
});

const TaskSchema = z.object({
  id: z.number().int(),
  content: z.string(),
  state: z.string(),
  creator: z.string().nullable(),
  created: z.string().nullable(),
  commentId: z.number().int().nullable(),
});
const taskOf = (t: BitbucketTask) => ({
  id: t.id,
  content: clip(t.content?.raw ?? "", 2000).text,
  state: t.state,
  creator: nameOf(t.creator),
  created: t.created_on ?? null,
  commentId: t.comment?.id ?? null,
});
const taskLine = (t: z.output<typeof TaskSchema>) =>
  `- [${t.state === "RESOLVED" ? "x" : " "}] #${t.id} ${t.content}${t.commentId ? ` (on comment #${t.commentId})` : ""} — ${t.creator ?? "?"}`;
const TASK_STATES = ["UNRESOLVED", "RESOLVED"] as const;

export const bitbucketListPullRequestTasks = defineTool({
  name: "bitbucket_list_pull_request_tasks",
  service: "bitbucket",
  toolset: "bitbucket-reviews",
  reaches: [{ kind: "bitbucket-repository", arg: "repository" }],
  scope: "read",
  description: "A pull request's tasks (to-dos): content, resolved or not, the comment each is on.",
  input: z.object({
    repository,
    pullRequestId,
    state: z.enum(TASK_STATES, { error: "state must be UNRESOLVED or RESOLVED" }).optional(),
    maxResults: z.number().int().min(1, "maxResults must be at least 1").max(100, "maxResults may be at most 100").default(50),
  }),
  output: z.object({ tasks: z.array(TaskSchema), truncated: z.boolean() }),
  annotations: { title: "List a Bitbucket pull request's tasks", ...READ_ONLY },
  async run({ repository: slug, pullRequestId: id, state, maxResults }, ctx) {
    const { workspace, repo } = repositoryTarget(ctx, slug);
    const { items, truncated } = await firstOf(
      ctx.clients.bitbucket.pullRequestTasks(workspace, repo, id),
      maxResults,
      (t) => !state || t.state === state,
    );
    const tasks = items.map(taskOf);
    const open = tasks.filter((t) => t.state !== "RESOLVED").length;
    const head =
      tasks.length === 0
        ? `No ${state ? `${state.toLowerCase()} ` : ""}tasks on #${id} in ${workspace}/${repo}.`
        : `${tasks.length} task${tasks.length === 1 ? "" : "s"} on #${id} in ${workspace}/${repo} (${open} unresolved)${truncated ? " (more: raise maxResults)" : ""}:`;
    return { structured: { tasks, truncated }, text: [head, ...tasks.map(taskLine)].join("\n") };
  },
});

export const bitbucketCreatePullRequestTask = defineTool({
  name: "bitbucket_create_pull_request_task",
  service: "bitbucket",
  toolset: "bitbucket-reviews",
  reaches: [{ kind: "bitbucket-repository", arg: "repository" }],
  scope: "write",
  description: "Add a task (a to-do the author must resolve) to a pull request, or to one of its comments.",
  input: z.object({
    repository,
    pullRequestId,
    content: z.string().trim().min(1, "content must not be empty").max(2000, "content may be at most 2000 characters"),
    commentId: commentId.optional().describe("Attach it to this comment."),
  }),
  output: TaskSchema,
  annotations: { title: "Add a task to a Bitbucket pull request", ...WRITES },
  async run({ repository: slug, pullRequestId: id, content, commentId: onComment }, ctx) {
    const { workspace, repo } = repositoryTarget(ctx, slug);
    const task = taskOf(await ctx.clients.bitbucket.createPullRequestTask(workspace, repo, id, content, onComment));
    return {
      structured: task,
      text: `Added task #${task.id} to #${id} in ${workspace}/${repo}${task.commentId ? ` on comment #${task.commentId}` : ""}: ${task.content}`,
    };
  },
});

export const bitbucketResolvePullRequestTask = defineTool({
  name: "bitbucket_resolve_pull_request_task",
  service: "bitbucket",
  toolset: "bitbucket-reviews",
  reaches: [{ kind: "bitbucket-repository", arg: "repository" }],
  scope: "write",
  description: "Mark a pull request's task as done, or reopen it (resolved: false).",
  input: z.object({
    repository,
    pullRequestId,
    taskId: z.number().int("taskId must be a whole number").min(1, "taskId must be at least 1"),
    resolved: z.boolean().default(true).describe("false reopens it."),
  }),
  output: TaskSchema,
  annotations: { title: "Resolve a Bitbucket pull request task", ...WRITES, idempotentHint: true },
  async run({ repository: slug, pullRequestId: id, taskId, resolved }, ctx) {
    const { workspace, repo } = repositoryTarget(ctx, slug);
    const task = taskOf(
      await ctx.clients.bitbucket.setPullRequestTaskState(workspace, repo, id, taskId, resolved ? "RESOLVED" : "UNRESOLVED"),
    );
    return {
      structured: task,
      text: `Task #${task.id} on #${id} in ${workspace}/${repo} is ${resolved ? "resolved" : "reopened"}: ${task.content}`,
    };
  },
});

export const BITBUCKET_REVIEWS_TOOLS = [
  bitbucketGetPullRequestActivity,
  bitbucketListPullRequestCommits,
  bitbucketListPullRequestComments,
  bitbucketResolveComment,
  bitbucketUpdatePullRequest,
  bitbucketListPullRequestTasks,
  bitbucketCreatePullRequestTask,
  bitbucketResolvePullRequestTask,
  bitbucketGetPullRequestDiffstat,
];
