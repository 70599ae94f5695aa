import { z } from "zod";
import { cursorArg, pageNumber } from "./cursor";
import { collect } from "../../upstream/paginate";
import { UpstreamError } from "../../upstream/errors";
import { clip, nameOf, shortDate } from "./format";
import { allowedSlugs, assertRepositoryAllowed, repositoryAllowed } from "./policy";
import { defineTool, READ_ONLY, wellFormed, type ToolContext } from "./tool";

/** A workspace or repository slug; never `.` or `..`, which would move the request path to another resource. */
export const SLUG = /^(?!\.\.?$)[\w.-]{1,100}$/;

export const workspaceArg = z.string().regex(SLUG, "workspace must be a workspace slug such as acme").optional().describe("Default: the configured workspace.");

/** A repository: its slug in the configured workspace, or `workspace/slug` anywhere else (as in a client's allow-list). */
export const repositoryArg = z
  .string()
  .regex(/^(?:(?!\.\.?\/)[\w.-]{1,100}\/)?(?!\.\.?$)[\w.-]{1,100}$/, "repository must be a repository slug such as api-gateway, or workspace/slug")
  .describe("e.g. api-gateway, or workspace/slug.");

export function workspaceOf(ctx: ToolContext, given: string | undefined): string {
  const workspace = given ?? ctx.bitbucketWorkspace;
  // A tool error a model can act on ("not configured"), not an unexpected failure.
  if (!workspace) throw new UpstreamError("bitbucket", "not_configured", "No Bitbucket workspace is configured and none was given");
  return workspace;
}

/** The workspace and repository a tool works on (`slug` or `workspace/slug`), inside the client's repository allow-list. */
export function repositoryTarget(ctx: ToolContext, repository: string): { workspace: string; repo: string } {
  const slash = repository.indexOf("/");
  const workspace = workspaceOf(ctx, slash < 0 ? undefined : repository.slice(0, slash));
  const repo = repository.slice(slash + 1);
  assertRepositoryAllowed(ctx, workspace, repo);
  return { workspace, repo };
}

export const href = (links: unknown, name: string): string | null => {
  const link = (links as Record<string, { href?: unknown }> | undefined)?.[name];
  return typeof link?.href === "string" ? link.href : null;
};

/**
 * Under a repository allow-list, the BBQL clause that keeps a listing to the listed repositories of
 * `workspace`, so that Bitbucket's page, its `size` and its next page count only those (a filter
 * after the fact would still tell how many others there are, and `nameContains` would probe their
 * names). null without a list; "" when none of the listed repositories is in this workspace. A slug
 * needs no escaping: the policy's pattern (contract/policy.ts) admits only letters, digits, `_`, `.` and `-`.
 */
function allowedRepositoriesClause(ctx: ToolContext, workspace: string): string | null {
  return allowedSlugs(ctx.policy, workspace)?.map((slug) => `slug = "${slug}"`).join(" OR ") ?? null;
}

const RepositorySchema = z.object({
  slug: z.string(),
  name: z.string(),
  fullName: z.string(),
  description: z.string(),
  language: z.string().nullable(),
  isPrivate: z.boolean().nullable(),
  mainBranch: z.string().nullable(),
  updated: z.string().nullable(),
  url: z.string().nullable(),
});

export const bitbucketListRepositories = defineTool({
  name: "bitbucket_list_repositories",
  service: "bitbucket",
  toolset: "bitbucket-code",
  scope: "read",
  description: "List a Bitbucket workspace's repositories, most recently changed first.",
  input: z.object({
    workspace: workspaceArg,
    nameContains: wellFormed(z.string().trim().min(1).max(100, "nameContains may be at most 100 characters"), "nameContains").optional().describe("A part of the name."),
    maxResults: z.number().int().min(1, "maxResults must be at least 1").max(100, "maxResults may be at most 100").default(25),
    cursor: cursorArg,
  }),
  output: z.object({ workspace: z.string(), repositories: z.array(RepositorySchema), total: z.number().int().nullable(), nextCursor: z.string().nullable() }),
  annotations: { title: "List Bitbucket repositories", ...READ_ONLY },
  async run({ workspace: given, nameContains, maxResults, cursor }, ctx) {
    const workspace = workspaceOf(ctx, given);
    const named = nameContains ? `name ~ "${nameContains.replace(/["\\]/g, "")}"` : undefined;
    const only = allowedRepositoriesClause(ctx, workspace);
    const q = only === null ? named : [`(${only})`, named].filter(Boolean).join(" AND ");
    const scope = `bitbucket_list_repositories\u0000${workspace}\u0000${nameContains ?? ""}\u0000${only ?? ""}`;
    const pageNo = pageNumber(ctx.cursors, scope, cursor, 1);
    // None of the listed repositories is in this workspace: nothing to ask Bitbucket.
    const page = only === "" ? { values: [], size: 0, next: undefined, page: pageNo } : await ctx.clients.bitbucket.repositoriesPage(workspace, { q, pagelen: maxResults, page: pageNo, sort: "-updated_on" });
    const repositories = page.values.filter((r) => repositoryAllowed(ctx.policy, workspace, r.slug)).map((r) => {
      const raw = r as typeof r & { description?: string; language?: string; updated_on?: string; links?: unknown };
      return {
        slug: r.slug,
        name: r.name,
        fullName: r.full_name,
        description: (raw.description ?? "").slice(0, 200),
        language: raw.language || null,
        isPrivate: r.is_private ?? null,
        mainBranch: r.mainbranch?.name ?? null,
        updated: raw.updated_on ?? null,
        url: href(raw.links, "html"),
      };
    });
    const nextCursor = page.next ? ctx.cursors.seal(scope, String((page.page ?? pageNo) + 1)) : null;
    const lines = repositories.map((r) => `- ${r.slug}${r.name !== r.slug ? ` (${r.name})` : ""}: ${r.description || "no description"} — ${[r.language, r.mainBranch ? `main branch ${r.mainBranch}` : null, r.updated ? `updated ${shortDate(r.updated)}` : null].filter(Boolean).join(" · ")}`);
    const head = repositories.length === 0 ? `No repositories in ${workspace}${nameContains ? ` matching "${nameContains}"` : ""}.` : `${repositories.length} repositor${repositories.length === 1 ? "y" : "ies"} in ${workspace}${page.size !== undefined ? ` (of ${page.size})` : ""}:`;
    return { structured: { workspace, repositories, total: page.size ?? null, nextCursor }, text: [head, ...lines, ...(nextCursor ? [`nextCursor: ${nextCursor}`] : [])].join("\n") };
  },
});

export const bitbucketGetPullRequest = defineTool({
  name: "bitbucket_get_pull_request",
  service: "bitbucket",
  toolset: "bitbucket-prs",
  scope: "read",
  description: "Read a Bitbucket pull request: reviewers and approvals, description, changed files.",
  input: z.object({
    repository: repositoryArg,
    pullRequestId: z.number().int("pullRequestId must be a whole number").min(1, "pullRequestId must be at least 1").max(10_000_000),
    includeFiles: z.boolean().default(true).describe("Include the changed files."),
  }),
  output: z.object({
    id: z.number().int(),
    title: z.string(),
    state: z.string(),
    author: z.string().nullable(),
    source: z.string().nullable(),
    destination: z.string().nullable(),
    description: z.string(),
    reviewers: z.array(z.object({ name: z.string().nullable(), role: z.string().nullable(), approved: z.boolean(), state: z.string().nullable() })),
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
    const participants = (raw.participants as { user?: unknown; role?: string; approved?: boolean; state?: string | null }[] | undefined) ?? [];
    const files = stats.slice(0, 50).map((s) => {
      const st = s as typeof s & { new?: { path?: string }; old?: { path?: string } };
      return { path: st.new?.path ?? st.old?.path ?? "?", status: s.status, linesAdded: s.lines_added ?? 0, linesRemoved: s.lines_removed ?? 0 };
    });
    const structured = {
      id: pr.id,
      title: pr.title,
      state: pr.state,
      author: nameOf(raw.author),
      source: pr.source?.branch?.name ?? null,
      destination: pr.destination?.branch?.name ?? null,
      description: clip(typeof raw.description === "string" ? raw.description : "", 8000).text,
      reviewers: participants.map((p) => ({ name: nameOf(p.user), role: p.role ?? null, approved: p.approved === true, state: p.state ?? null })),
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
      includeFiles ? `## Files (${structured.filesChanged}, +${added} −${removed})\n${files.map((f) => `- ${f.status} ${f.path} (+${f.linesAdded} −${f.linesRemoved})`).join("\n")}${(structured.filesChanged ?? 0) > files.length ? `\n… and ${(structured.filesChanged ?? 0) - files.length} more` : ""}` : null,
    ]
      .filter(Boolean)
      .join("\n\n");
    return { structured, text };
  },
});

export const BITBUCKET_TOOLS = [bitbucketListRepositories, bitbucketGetPullRequest];
