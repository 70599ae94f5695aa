import { z } from "zod";
import { cursorArg, pageNumber } from "./cursor";
import { collect } from "../../upstream/paginate";
import { clip, nameOf, shortDate } from "./format";
import { diffAnswer, diffMaxLinesArg, diffPathsArg, DiffOutputSchema } from "./bitbucket-diff";
import { href, repositoryArg as repository, repositoryTarget } from "./bitbucket-common";
import { defineTool, DESTRUCTIVE, READ_ONLY, wellFormed, WRITES } from "./tool";

/**
 * The bitbucket-prs toolset: list pull requests, read one and its diff (bounded), open one,
 * comment (also on a line, or as a reply), approve or request changes, and the destructive pair
 * merge and decline (hidden when MCP_DESTRUCTIVE_TOOLS=false). Bitbucket's rich text is Markdown
 * already.
 */

const pullRequestId = z.number().int("pullRequestId must be a whole number").min(1, "pullRequestId must be at least 1").max(10_000_000);
const STATES = ["OPEN", "MERGED", "DECLINED", "SUPERSEDED"] as const;

const PullRequestLineSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  state: z.string(),
  author: z.string().nullable(),
  source: z.string().nullable(),
  destination: z.string().nullable(),
  updated: z.string().nullable(),
  commentCount: z.number().int().nullable(),
  url: z.string().nullable(),
});

export const bitbucketListPullRequests = defineTool({
  name: "bitbucket_list_pull_requests",
  service: "bitbucket",
  toolset: "bitbucket-prs",
  reaches: [{ kind: "bitbucket-repository", arg: "repository" }],
  scope: "read",
  description:
    "List a repository's pull requests (open by default), newest activity first: id, title, author, branches; nextCursor pages on.",
  input: z.object({
    repository,
    state: z.enum(STATES, { error: `state must be one of ${STATES.join(", ")}` }).default("OPEN"),
    maxResults: z.number().int().min(1, "maxResults must be at least 1").max(50, "maxResults may be at most 50").default(25),
    cursor: cursorArg,
  }),
  output: z.object({ pullRequests: z.array(PullRequestLineSchema), nextCursor: z.string().nullable() }),
  annotations: { title: "List Bitbucket pull requests", ...READ_ONLY },
  async run({ repository: slug, state, maxResults, cursor }, ctx) {
    const { workspace, repo } = repositoryTarget(ctx, slug);
    const scope = `bitbucket_list_pull_requests\u0000${workspace}/${repo}\u0000${state}`;
    const pageNo = pageNumber(ctx.cursors, scope, cursor, 1);
    const page = await ctx.clients.bitbucket.pullRequestsPage(workspace, repo, { state, pagelen: maxResults, page: pageNo });
    const pullRequests = page.values.map((pr) => {
      const raw = pr as typeof pr & Record<string, unknown>;
      return {
        id: pr.id,
        title: pr.title,
        state: pr.state,
        author: nameOf(raw.author),
        source: pr.source?.branch?.name ?? null,
        destination: pr.destination?.branch?.name ?? null,
        updated: typeof raw.updated_on === "string" ? raw.updated_on : null,
        commentCount: typeof raw.comment_count === "number" ? raw.comment_count : null,
        url: href(raw.links, "html"),
      };
    });
    const nextCursor = page.next ? ctx.cursors.seal(scope, String((page.page ?? pageNo) + 1)) : null;
    const head =
      pullRequests.length === 0
        ? `No ${state.toLowerCase()} pull requests in ${workspace}/${repo}.`
        : `${pullRequests.length} ${state.toLowerCase()} pull request${pullRequests.length === 1 ? "" : "s"} in ${workspace}/${repo}:`;
    const lines = pullRequests.map(
      (p) =>
        `- #${p.id} ${p.title} — ${p.source ?? "?"} → ${p.destination ?? "?"} · by ${p.author ?? "?"} · updated ${shortDate(p.updated) ?? "?"}${p.url ? `\n  ${p.url}` : ""}`,
    );
    return {
      structured: { pullRequests, nextCursor },
      text: [head, ...lines, ...(nextCursor ? [`nextCursor: ${nextCursor}`] : [])].join("\n"),
    };
  },
});

export const bitbucketGetPullRequestDiff = defineTool({
  name: "bitbucket_get_pull_request_diff",
  service: "bitbucket",
  toolset: "bitbucket-prs",
  reaches: [{ kind: "bitbucket-repository", arg: "repository" }],
  scope: "read",
  description: "Read a pull request's unified diff, cut at maxLines; paths narrows it to some files.",
  input: z.object({
    repository,
    pullRequestId,
    maxLines: diffMaxLinesArg,
    paths: diffPathsArg,
  }),
  output: DiffOutputSchema,
  annotations: { title: "Read a Bitbucket pull request's diff", ...READ_ONLY },
  async run({ repository: slug, pullRequestId: id, maxLines, paths }, ctx) {
    const { workspace, repo } = repositoryTarget(ctx, slug);
    return diffAnswer(await ctx.clients.bitbucket.pullRequestDiff(workspace, repo, id), maxLines, paths);
  },
});

export const bitbucketCommentPullRequest = defineTool({
  name: "bitbucket_comment_pull_request",
  service: "bitbucket",
  toolset: "bitbucket-prs",
  reaches: [{ kind: "bitbucket-repository", arg: "repository" }],
  scope: "write",
  description: "Comment on a pull request in Markdown: on the whole PR, a file's line (path, line), or as a reply (parentId).",
  input: z
    .object({
      repository,
      pullRequestId,
      body: z.string().trim().min(1, "body must not be empty").max(32_000, "body may be at most 32000 characters"),
      path: wellFormed(z.string().min(1).max(500), "path").optional(),
      line: z.number().int().min(1).max(10_000_000).optional(),
      parentId: z.number().int().min(1).optional(),
    })
    .refine(
      (a) => (a.path === undefined) === (a.line === undefined),
      "path and line go together: give both for a comment on a line, or neither",
    ),
  output: z.object({ commentId: z.number().int(), url: z.string().nullable() }),
  annotations: { title: "Comment on a Bitbucket pull request", ...WRITES },
  async run({ repository: slug, pullRequestId: id, body, path, line, parentId }, ctx) {
    const { workspace, repo } = repositoryTarget(ctx, slug);
    const comment = await ctx.clients.bitbucket.commentOnPullRequest(workspace, repo, id, body, {
      ...(path !== undefined && line !== undefined ? { inline: { path, to: line } } : {}),
      ...(parentId ? { parentId } : {}),
    });
    const url = href(comment.links, "html");
    const where = path ? ` on ${path}:${line}` : parentId ? ` in reply to ${parentId}` : "";
    return {
      structured: { commentId: comment.id, url },
      text: `Commented on #${id}${where} (comment ${comment.id})${url ? `\n${url}` : ""}`,
    };
  },
});

export const bitbucketApprovePullRequest = defineTool({
  name: "bitbucket_approve_pull_request",
  service: "bitbucket",
  toolset: "bitbucket-prs",
  reaches: [{ kind: "bitbucket-repository", arg: "repository" }],
  scope: "write",
  description: "Approve a pull request, or withdraw the approval (approve: false).",
  input: z.object({ repository, pullRequestId, approve: z.boolean().default(true) }),
  output: z.object({ approved: z.boolean() }),
  annotations: { title: "Approve a Bitbucket pull request", ...WRITES, idempotentHint: true },
  async run({ repository: slug, pullRequestId: id, approve }, ctx) {
    const { workspace, repo } = repositoryTarget(ctx, slug);
    if (approve) await ctx.clients.bitbucket.approvePullRequest(workspace, repo, id);
    else await ctx.clients.bitbucket.unapprovePullRequest(workspace, repo, id);
    return {
      structured: { approved: approve },
      text: approve ? `Approved #${id} in ${workspace}/${repo}.` : `Withdrew the approval of #${id} in ${workspace}/${repo}.`,
    };
  },
});

export const bitbucketMergePullRequest = defineTool({
  name: "bitbucket_merge_pull_request",
  service: "bitbucket",
  toolset: "bitbucket-prs",
  reaches: [{ kind: "bitbucket-repository", arg: "repository" }],
  scope: "write",
  description: "Merge an open pull request into its destination branch (strategy: merge_commit by default). Confirm with the user first.",
  input: z.object({
    repository,
    pullRequestId,
    strategy: z
      .enum(["merge_commit", "squash", "fast_forward"], { error: "strategy must be merge_commit, squash or fast_forward" })
      .default("merge_commit"),
    message: z.string().trim().min(1).max(5000).optional(),
    closeSourceBranch: z.boolean().optional(),
  }),
  output: z.object({ state: z.string(), mergeCommit: z.string().nullable(), url: z.string().nullable() }),
  annotations: { title: "Merge a Bitbucket pull request", ...DESTRUCTIVE },
  async run({ repository: slug, pullRequestId: id, strategy, message, closeSourceBranch }, ctx) {
    const { workspace, repo } = repositoryTarget(ctx, slug);
    const pr = await ctx.clients.bitbucket.mergePullRequest(workspace, repo, id, {
      merge_strategy: strategy,
      ...(message ? { message } : {}),
      ...(closeSourceBranch !== undefined ? { close_source_branch: closeSourceBranch } : {}),
    });
    const raw = pr as typeof pr & { merge_commit?: { hash?: string } | null; links?: unknown };
    const mergeCommit = raw.merge_commit?.hash ?? null;
    const url = href(raw.links, "html");
    return {
      structured: { state: pr.state, mergeCommit, url },
      text: `Merged #${id} in ${workspace}/${repo} (${strategy})${mergeCommit ? `: ${mergeCommit.slice(0, 12)}` : ""}${url ? `\n${url}` : ""}`,
    };
  },
});

export const bitbucketDeclinePullRequest = defineTool({
  name: "bitbucket_decline_pull_request",
  service: "bitbucket",
  toolset: "bitbucket-prs",
  reaches: [{ kind: "bitbucket-repository", arg: "repository" }],
  scope: "write",
  description: "Decline an open pull request. A tool cannot reopen it: confirm with the user first.",
  input: z.object({ repository, pullRequestId }),
  output: z.object({ state: z.string(), url: z.string().nullable() }),
  annotations: { title: "Decline a Bitbucket pull request", ...DESTRUCTIVE },
  async run({ repository: slug, pullRequestId: id }, ctx) {
    const { workspace, repo } = repositoryTarget(ctx, slug);
    const pr = await ctx.clients.bitbucket.declinePullRequest(workspace, repo, id);
    const url = href((pr as typeof pr & { links?: unknown }).links, "html");
    return { structured: { state: pr.state, url }, text: `Declined #${id} in ${workspace}/${repo}.${url ? `\n${url}` : ""}` };
  },
});

const BRANCH = z
  .string()
  .trim()
  .regex(/^[\w./-]{1,200}$/, "a branch name such as feature/retry-budget");
/** A reviewer: a UUID in braces or an account id, as bitbucket_get_pull_request and Bitbucket's users give them. */
const REVIEWER = z
  .string()
  .trim()
  .regex(
    /^\{[0-9a-fA-F-]{36}\}$|^[\w.@:-]{1,128}$/,
    "each reviewer must be a user's {UUID} or account id (on Data Center: their user name)",
  );

export const bitbucketCreatePullRequest = defineTool({
  name: "bitbucket_create_pull_request",
  service: "bitbucket",
  toolset: "bitbucket-prs",
  reaches: [{ kind: "bitbucket-repository", arg: "repository" }],
  scope: "write",
  description:
    "Open a pull request from source to destination (default: main branch) with a Markdown description and reviewers (UUIDs or account ids; on Data Center user names).",
  input: z.object({
    repository,
    title: z.string().trim().min(1, "title must not be empty").max(255, "title may be at most 255 characters"),
    source: BRANCH,
    destination: BRANCH.optional(),
    description: z.string().max(32_000, "description may be at most 32000 characters").optional(),
    reviewers: z.array(REVIEWER).max(20, "at most 20 reviewers").optional(),
    closeSourceBranch: z.boolean().optional(),
  }),
  output: z.object({
    id: z.number().int(),
    title: z.string(),
    source: z.string(),
    destination: z.string().nullable(),
    url: z.string().nullable(),
  }),
  annotations: { title: "Open a Bitbucket pull request", ...WRITES },
  async run({ repository: slug, title, source, destination, description, reviewers, closeSourceBranch }, ctx) {
    const { workspace, repo } = repositoryTarget(ctx, slug);
    const pr = await ctx.clients.bitbucket.createPullRequest(workspace, repo, {
      title,
      source,
      ...(destination ? { destination } : {}),
      ...(description !== undefined ? { description } : {}),
      ...(reviewers ? { reviewers } : {}),
      ...(closeSourceBranch !== undefined ? { closeSourceBranch } : {}),
    });
    const url = href((pr as typeof pr & { links?: unknown }).links, "html");
    const into = pr.destination?.branch?.name ?? destination ?? null;
    return {
      structured: { id: pr.id, title: pr.title, source, destination: into, url },
      text: `Opened #${pr.id} in ${workspace}/${repo}: ${pr.title} (${source} → ${into ?? "?"})${url ? `\n${url}` : ""}`,
    };
  },
});

export const bitbucketRequestChanges = defineTool({
  name: "bitbucket_request_changes",
  service: "bitbucket",
  toolset: "bitbucket-prs",
  reaches: [{ kind: "bitbucket-repository", arg: "repository" }],
  scope: "write",
  description: "Mark a pull request as needing changes (say what in a comment), or withdraw that (request: false).",
  input: z.object({ repository, pullRequestId, request: z.boolean().default(true) }),
  output: z.object({ changesRequested: z.boolean() }),
  annotations: { title: "Request changes on a Bitbucket pull request", ...WRITES, idempotentHint: true },
  async run({ repository: slug, pullRequestId: id, request }, ctx) {
    const { workspace, repo } = repositoryTarget(ctx, slug);
    if (request) await ctx.clients.bitbucket.requestChanges(workspace, repo, id);
    else await ctx.clients.bitbucket.withdrawChangeRequest(workspace, repo, id);
    return {
      structured: { changesRequested: request },
      text: request
        ? `Requested changes on #${id} in ${workspace}/${repo}.`
        : `Withdrew the change request on #${id} in ${workspace}/${repo}.`,
    };
  },
});

export const bitbucketGetPullRequest = defineTool({
  name: "bitbucket_get_pull_request",
  service: "bitbucket",
  toolset: "bitbucket-prs",
  reaches: [{ kind: "bitbucket-repository", arg: "repository" }],
  scope: "read",
  description: "Read a Bitbucket pull request: state, branches, reviewers and approvals, description, changed files.",
  input: z.object({
    repository,
    pullRequestId: z.number().int("pullRequestId must be a whole number").min(1, "pullRequestId must be at least 1").max(10_000_000),
    includeFiles: z.boolean().default(true),
  }),
  output: z.object({
    id: z.number().int(),
    title: z.string(),
    state: z.string(),
    author: z.string().nullable(),
    source: z.string().nullable(),
    destination: z.string().nullable(),
    description: z.string(),
    reviewers: z.array(
      z.object({ name: z.string().nullable(), role: z.string().nullable(), approved: z.boolean(), state: z.string().nullable() }),
    ),
    commentCount: z.number().int().nullable(),
    taskCount: z.number().int().nullable(),
    created: z.string().nullable(),
    updated: z.string().nullable(),
    url: z.string().nullable(),
    files: z.array(z.object({ path: z.string(), status: z.string(), linesAdded: z.number().int(), linesRemoved: z.number().int() })),
    filesChanged: z.number().int().nullable(),
  }),
  annotations: { title: "Read a Bitbucket pull request", ...READ_ONLY },
  async run({ repository, pullRequestId, includeFiles }, ctx) {
    const { workspace, repo } = repositoryTarget(ctx, repository);
    const client = ctx.clients.bitbucket;
    const [pr, stats] = await Promise.all([
      client.pullRequest(workspace, repo, pullRequestId),
      includeFiles ? collect(client.pullRequestDiffstat(workspace, repo, pullRequestId, 200)) : Promise.resolve([]),
    ]);
    const raw = pr as typeof pr & Record<string, unknown>;
    const participants =
      (raw.participants as { user?: unknown; role?: string; approved?: boolean; state?: string | null }[] | undefined) ?? [];
    const files = stats.slice(0, 50).map((s) => {
      const st = s as typeof s & { new?: { path?: string }; old?: { path?: string } };
      return {
        path: st.new?.path ?? st.old?.path ?? "?",
        status: s.status,
        linesAdded: s.lines_added ?? 0,
        linesRemoved: s.lines_removed ?? 0,
      };
    });
    const structured = {
      id: pr.id,
      title: pr.title,
      state: pr.state,
      author: nameOf(raw.author),
      source: pr.source?.branch?.name ?? null,
      destination: pr.destination?.branch?.name ?? null,
      description: clip(typeof raw.description === "string" ? raw.description : "", 8000).text,
      reviewers: participants.map((p) => ({
        name: nameOf(p.user),
        role: p.role ?? null,
        approved: p.approved === true,
        state: p.state ?? null,
      })),
      commentCount: typeof raw.comment_count === "number" ? raw.comment_count : null,
      taskCount: typeof raw.task_count === "number" ? raw.task_count : null,
      created: typeof raw.created_on === "string" ? raw.created_on : null,
      updated: typeof raw.updated_on === "string" ? raw.updated_on : null,
      url: href(raw.links, "html"),
      files,
      filesChanged: includeFiles ? stats.length : null,
    };
    const added = files.reduce((n, f) => n + f.linesAdded, 0);
    const removed = files.reduce((n, f) => n + f.linesRemoved, 0);
    const text = [
      `# PR #${structured.id}: ${structured.title} [${structured.state}]`,
      `${repository}: ${structured.source ?? "?"} → ${structured.destination ?? "?"} · by ${structured.author ?? "?"} · created ${shortDate(structured.created) ?? "?"} · updated ${shortDate(structured.updated) ?? "?"}`,
      `Reviewers: ${structured.reviewers.length ? structured.reviewers.map((r) => `${r.name ?? "?"} (${r.approved ? "approved" : (r.state ?? r.role ?? "pending").toLowerCase()})`).join(", ") : "none"} · ${structured.commentCount ?? 0} comments · ${structured.taskCount ?? 0} tasks`,
      structured.url,
      `## Description\n${structured.description || "(none)"}`,
      includeFiles
        ? `## Files (${structured.filesChanged}, +${added} −${removed})\n${files.map((f) => `- ${f.status} ${f.path} (+${f.linesAdded} −${f.linesRemoved})`).join("\n")}${(structured.filesChanged ?? 0) > files.length ? `\n… and ${(structured.filesChanged ?? 0) - files.length} more` : ""}`
        : null,
    ]
      .filter(Boolean)
      .join("\n\n");
    return { structured, text };
  },
});

export const BITBUCKET_PRS_TOOLS = [
  bitbucketListPullRequests,
  bitbucketGetPullRequest,
  bitbucketGetPullRequestDiff,
  bitbucketCreatePullRequest,
  bitbucketCommentPullRequest,
  bitbucketApprovePullRequest,
  bitbucketRequestChanges,
  bitbucketMergePullRequest,
  bitbucketDeclinePullRequest,
];
