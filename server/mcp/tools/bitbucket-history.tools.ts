import { z } from "zod";
import { collect, firstOf } from "../../upstream/paginate";
import type { BitbucketCommit, BitbucketDiffstat } from "../../upstream/bitbucket.client";
import type { ClientPolicy } from "../../../contract/policy";
import { clip, nameOf, shortDate } from "./format";
import { diffAnswer, diffMaxLinesArg, diffPathsArg, DiffOutputSchema } from "./bitbucket-diff";
import { href, repositoryArg as repository, repositoryTarget } from "./bitbucket-common";
import { defineTool, READ_ONLY, ToolError, WRITES, type ToolContext } from "./tool";

/** A repository's history: its branches (and a new one), the commits on one, one commit and its diff; the workspaces and a repository's facts. */

const REF = /^[\w./-]{1,200}$/;

export const CommitSchema = z.object({
  hash: z.string(),
  date: z.string().nullable(),
  author: z.string().nullable(),
  message: z.string(),
  url: z.string().nullable(),
});

/** A ref as given, or the repository's main branch (Bitbucket's /commits without one lists every branch). */
async function refOrMain(ctx: ToolContext, workspace: string, repo: string, ref: string | undefined): Promise<string> {
  if (ref) return ref;
  const main = (await ctx.clients.bitbucket.repository(workspace, repo)).mainbranch?.name;
  if (!main) throw new ToolError(`${workspace}/${repo} has no main branch yet: name a ref.`);
  return main;
}

export const commitLine = (c: BitbucketCommit) => ({
  hash: c.hash.slice(0, 12),
  date: c.date ?? null,
  author: nameOf(c.author?.user) ?? c.author?.raw?.replace(/\s*<[^>]*>$/, "") ?? null,
  message: (c.message ?? "").split("\n")[0]!.slice(0, 200),
  url: href(c.links, "html"),
});

export const bitbucketListBranches = defineTool({
  name: "bitbucket_list_branches",
  service: "bitbucket",
  toolset: "bitbucket-history",
  reaches: [{ kind: "bitbucket-repository", arg: "repository" }],
  scope: "read",
  description:
    "A repository's branches with their latest commit (hash, date, author, message). Read a branch's files with bitbucket_get_file (ref).",
  input: z.object({ repository, maxResults: z.number().int().min(1).max(200, "maxResults may be at most 200").default(50) }),
  output: z.object({ branches: z.array(z.object({ name: z.string(), tip: CommitSchema })), truncated: z.boolean() }),
  annotations: { title: "List Bitbucket branches", ...READ_ONLY },
  async run({ repository: slug, maxResults }, ctx) {
    const { workspace, repo } = repositoryTarget(ctx, slug);
    const { items, truncated } = await firstOf(ctx.clients.bitbucket.branches(workspace, repo), maxResults);
    const branches = items.map((b) => ({ name: b.name, tip: commitLine(b.target) }));
    const text = [
      `${branches.length} branch${branches.length === 1 ? "" : "es"} in ${workspace}/${repo}${truncated ? " (more: raise maxResults)" : ""}:`,
      ...branches.map((b) => `- ${b.name}: ${b.tip.hash} ${shortDate(b.tip.date) ?? "?"} ${b.tip.author ?? "?"} — ${b.tip.message}`),
    ].join("\n");
    return { structured: { branches, truncated }, text };
  },
});

export const bitbucketListCommits = defineTool({
  name: "bitbucket_list_commits",
  service: "bitbucket",
  toolset: "bitbucket-history",
  reaches: [{ kind: "bitbucket-repository", arg: "repository" }],
  scope: "read",
  description:
    "The latest commits of a repository's branch, tag or commit (the main branch by default), newest first: hash, date, author, first line of the message, link.",
  input: z.object({
    repository,
    ref: z
      .string()
      .trim()
      .regex(REF, "ref must be a branch, tag or commit hash")
      .optional()
      .describe("A branch, tag or commit; default the main branch."),
    maxResults: z.number().int().min(1).max(100, "maxResults may be at most 100").default(20),
  }),
  output: z.object({ ref: z.string(), commits: z.array(CommitSchema), truncated: z.boolean() }),
  annotations: { title: "List Bitbucket commits", ...READ_ONLY },
  async run({ repository: slug, ref, maxResults }, ctx) {
    const { workspace, repo } = repositoryTarget(ctx, slug);
    const at = await refOrMain(ctx, workspace, repo, ref);
    const { items, truncated } = await firstOf(ctx.clients.bitbucket.commits(workspace, repo, at), maxResults);
    const commits = items.map(commitLine);
    const text = [
      `${commits.length} latest commit${commits.length === 1 ? "" : "s"} of ${workspace}/${repo} at ${at}${truncated ? " (more: raise maxResults)" : ""}:`,
      ...commits.map((c) => `- ${c.hash} ${shortDate(c.date) ?? "?"} ${c.author ?? "?"}: ${c.message}`),
    ].join("\n");
    return { structured: { ref: at, commits, truncated }, text };
  },
});

export const bitbucketCreateBranch = defineTool({
  name: "bitbucket_create_branch",
  service: "bitbucket",
  toolset: "bitbucket-history",
  reaches: [{ kind: "bitbucket-repository", arg: "repository" }],
  scope: "write",
  description: "Create a branch in a Bitbucket repository, from the main branch or from a given branch, tag or commit.",
  input: z.object({
    repository,
    name: z
      .string()
      .trim()
      .regex(/^(?!\/)(?!.*\/\/)(?!.*\.\.)[\w./-]{1,200}(?<![./])$/, "name must be a branch name such as feature/retry-budget")
      .describe("The new branch, e.g. feature/retry-budget."),
    from: z
      .string()
      .trim()
      .regex(REF, "from must be a branch, tag or commit hash")
      .optional()
      .describe("Where it starts; default the main branch."),
  }),
  output: z.object({ name: z.string(), tip: CommitSchema, url: z.string().nullable() }),
  annotations: { title: "Create a Bitbucket branch", ...WRITES },
  async run({ repository: slug, name, from }, ctx) {
    const { workspace, repo } = repositoryTarget(ctx, slug);
    // Bitbucket wants a commit hash: the starting point's latest commit.
    const at = await refOrMain(ctx, workspace, repo, from);
    const [start] = await collect(ctx.clients.bitbucket.commits(workspace, repo, at, 1));
    if (!start) throw new ToolError(`${at} has no commits to start a branch from.`);
    const branch = await ctx.clients.bitbucket.createBranch(workspace, repo, name, start.hash);
    const url = href(branch.links, "html");
    return {
      structured: { name: branch.name, tip: commitLine(branch.target), url },
      text: `Created ${branch.name} in ${workspace}/${repo} at ${start.hash.slice(0, 12)} (from ${at}).${url ? `\n${url}` : ""}`,
    };
  },
});

/** Which workspaces a client's repository allow-list can reach: any, when it has a bare `repo` entry (those allow the slug everywhere). */
function workspaceAllowed(policy: ClientPolicy, workspace: string): boolean {
  const allowed = policy.bitbucketRepositories;
  if (allowed === null) return true;
  return allowed.some((entry) => !entry.includes("/") || entry.split("/")[0]!.toLowerCase() === workspace.toLowerCase());
}

export const bitbucketListWorkspaces = defineTool({
  name: "bitbucket_list_workspaces",
  service: "bitbucket",
  toolset: "bitbucket-history",
  reaches: [{ kind: "listing", service: "bitbucket" }],
  scope: "read",
  description:
    "The Bitbucket workspaces the account is a member of (on Data Center: the projects it sees): slug, name, its permission, link.",
  input: z.object({
    maxResults: z.number().int().min(1, "maxResults must be at least 1").max(100, "maxResults may be at most 100").default(50),
  }),
  output: z.object({
    workspaces: z.array(z.object({ slug: z.string(), name: z.string(), permission: z.string().nullable(), url: z.string().nullable() })),
    truncated: z.boolean(),
  }),
  annotations: { title: "List Bitbucket workspaces", ...READ_ONLY },
  async run({ maxResults }, ctx) {
    const { items, truncated } = await firstOf(ctx.clients.bitbucket.workspaceMemberships(), maxResults, (m) =>
      workspaceAllowed(ctx.policy, m.workspace.slug),
    );
    const workspaces = items.map((m) => ({
      slug: m.workspace.slug,
      name: m.workspace.name,
      permission: m.permission ?? null,
      url: href(m.workspace.links, "html"),
    }));
    const head =
      workspaces.length === 0
        ? "No workspaces."
        : `${workspaces.length} workspace${workspaces.length === 1 ? "" : "s"}${truncated ? " (more: raise maxResults)" : ""}:`;
    return {
      structured: { workspaces, truncated },
      text: [
        head,
        ...workspaces.map(
          (w) =>
            `- ${w.slug}${w.name !== w.slug ? ` (${w.name})` : ""}${w.permission ? ` · ${w.permission}` : ""}${w.url ? ` · ${w.url}` : ""}`,
        ),
      ].join("\n"),
    };
  },
});

export const bitbucketGetRepository = defineTool({
  name: "bitbucket_get_repository",
  service: "bitbucket",
  toolset: "bitbucket-history",
  reaches: [{ kind: "bitbucket-repository", arg: "repository" }],
  scope: "read",
  description: "A repository's facts: description, language, main branch, size, visibility, last update, link and clone URLs.",
  input: z.object({ repository }),
  output: z.object({
    slug: z.string(),
    fullName: z.string(),
    name: z.string(),
    description: z.string(),
    language: z.string().nullable(),
    mainBranch: z.string().nullable(),
    sizeBytes: z.number().int().nullable(),
    isPrivate: z.boolean().nullable(),
    updated: z.string().nullable(),
    url: z.string().nullable(),
    cloneUrls: z.object({ https: z.string().nullable(), ssh: z.string().nullable() }),
  }),
  annotations: { title: "Read a Bitbucket repository", ...READ_ONLY },
  async run({ repository: slug }, ctx) {
    const { workspace, repo } = repositoryTarget(ctx, slug);
    const r = await ctx.clients.bitbucket.repository(workspace, repo);
    const clone = (name: string) => r.links?.clone?.find((c) => c.name === name)?.href ?? null;
    const structured = {
      slug: r.slug,
      fullName: r.full_name,
      name: r.name,
      description: clip(r.description ?? "", 2000).text,
      language: r.language || null,
      mainBranch: r.mainbranch?.name ?? null,
      sizeBytes: typeof r.size === "number" ? r.size : null,
      isPrivate: r.is_private ?? null,
      updated: r.updated_on ?? null,
      url: href(r.links, "html"),
      cloneUrls: { https: clone("https"), ssh: clone("ssh") },
    };
    const size =
      structured.sizeBytes === null
        ? null
        : structured.sizeBytes >= 1_048_576
          ? `${(structured.sizeBytes / 1_048_576).toFixed(1)} MB`
          : `${Math.ceil(structured.sizeBytes / 1024)} KB`;
    const text = [
      `# ${structured.fullName}${structured.name !== structured.slug ? ` (${structured.name})` : ""}`,
      structured.description || "No description.",
      [
        structured.language,
        structured.mainBranch ? `main branch ${structured.mainBranch}` : null,
        size,
        structured.isPrivate === null ? null : structured.isPrivate ? "private" : "public",
        structured.updated ? `updated ${shortDate(structured.updated)}` : null,
      ]
        .filter(Boolean)
        .join(" · "),
      structured.url,
      [structured.cloneUrls.https, structured.cloneUrls.ssh]
        .filter(Boolean)
        .map((u) => `clone: ${u}`)
        .join("\n"),
    ]
      .filter(Boolean)
      .join("\n");
    return { structured, text };
  },
});

const commitArg = z
  .string()
  .trim()
  .regex(/^[0-9a-fA-F]{7,40}$/, "commit must be a commit hash (7 to 40 hex digits)");

const diffstatLine = (s: BitbucketDiffstat) => ({
  path: s.new?.path ?? s.old?.path ?? "?",
  status: s.status,
  linesAdded: s.lines_added ?? 0,
  linesRemoved: s.lines_removed ?? 0,
});

export const bitbucketGetCommit = defineTool({
  name: "bitbucket_get_commit",
  service: "bitbucket",
  toolset: "bitbucket-history",
  reaches: [{ kind: "bitbucket-repository", arg: "repository" }],
  scope: "read",
  description: "A commit: author, date, message, parents, and changed files with line counts.",
  input: z.object({
    repository,
    commit: commitArg,
    maxFiles: z.number().int().min(1, "maxFiles must be at least 1").max(200, "maxFiles may be at most 200").default(50),
  }),
  output: z.object({
    hash: z.string(),
    date: z.string().nullable(),
    author: z.string().nullable(),
    message: z.string(),
    parents: z.array(z.string()),
    url: z.string().nullable(),
    files: z.array(z.object({ path: z.string(), status: z.string(), linesAdded: z.number().int(), linesRemoved: z.number().int() })),
    truncated: z.boolean(),
  }),
  annotations: { title: "Read a Bitbucket commit", ...READ_ONLY },
  async run({ repository: slug, commit: hash, maxFiles }, ctx) {
    const { workspace, repo } = repositoryTarget(ctx, slug);
    const client = ctx.clients.bitbucket;
    const [c, stats] = await Promise.all([
      client.commit(workspace, repo, hash),
      firstOf(client.commitDiffstat(workspace, repo, hash), maxFiles),
    ]);
    const line = commitLine(c);
    const files = stats.items.map(diffstatLine);
    const structured = {
      hash: c.hash,
      date: line.date,
      author: line.author,
      message: clip((c.message ?? "").trimEnd(), 8000).text,
      parents: (c.parents ?? []).map((p) => p.hash.slice(0, 12)),
      url: line.url,
      files,
      truncated: stats.truncated,
    };
    const added = files.reduce((n, f) => n + f.linesAdded, 0);
    const removed = files.reduce((n, f) => n + f.linesRemoved, 0);
    const text = [
      `# Commit ${c.hash.slice(0, 12)} in ${workspace}/${repo}`,
      `by ${structured.author ?? "?"} · ${shortDate(structured.date) ?? "?"} · parents ${structured.parents.join(", ") || "none"}`,
      structured.url,
      structured.message,
      `## Files (${files.length}${stats.truncated ? "+, more: raise maxFiles" : ""}, +${added} −${removed})\n${files.map((f) => `- ${f.status} ${f.path} (+${f.linesAdded} −${f.linesRemoved})`).join("\n")}`,
    ]
      .filter(Boolean)
      .join("\n\n");
    return { structured, text };
  },
});

export const bitbucketGetCommitDiff = defineTool({
  name: "bitbucket_get_commit_diff",
  service: "bitbucket",
  toolset: "bitbucket-history",
  reaches: [{ kind: "bitbucket-repository", arg: "repository" }],
  scope: "read",
  description: "A commit's unified diff against its first parent, cut after maxLines with `truncated` set; narrow it with paths.",
  input: z.object({ repository, commit: commitArg, maxLines: diffMaxLinesArg, paths: diffPathsArg }),
  output: DiffOutputSchema,
  annotations: { title: "Read a Bitbucket commit's diff", ...READ_ONLY },
  async run({ repository: slug, commit: hash, maxLines, paths }, ctx) {
    const { workspace, repo } = repositoryTarget(ctx, slug);
    return diffAnswer(await ctx.clients.bitbucket.commitDiff(workspace, repo, hash), maxLines, paths);
  },
});

export const BITBUCKET_HISTORY_TOOLS = [
  bitbucketListBranches,
  bitbucketListCommits,
  bitbucketCreateBranch,
  bitbucketListWorkspaces,
  bitbucketGetRepository,
  bitbucketGetCommit,
  bitbucketGetCommitDiff,
];
