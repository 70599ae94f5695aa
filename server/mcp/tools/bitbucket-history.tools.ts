import { z } from "zod";
import { collect, firstOf } from "../../upstream/paginate";
import type { BitbucketCommit } from "../../upstream/bitbucket.client";
import { nameOf, shortDate } from "./format";
import { href, repositoryArg as repository, repositoryTarget } from "./bitbucket.tools";
import { defineTool, READ_ONLY, ToolError, WRITES, type ToolContext } from "./tool";

/** A repository's history: its branches (and a new one), and the commits on one. */

const REF = /^[\w./-]{1,200}$/;

const CommitSchema = z.object({ hash: z.string(), date: z.string().nullable(), author: z.string().nullable(), message: z.string(), url: z.string().nullable() });

/** A ref as given, or the repository's main branch (Bitbucket's /commits without one lists every branch). */
async function refOrMain(ctx: ToolContext, workspace: string, repo: string, ref: string | undefined): Promise<string> {
  if (ref) return ref;
  const main = (await ctx.clients.bitbucket.repository(workspace, repo)).mainbranch?.name;
  if (!main) throw new ToolError(`${workspace}/${repo} has no main branch yet: name a ref.`);
  return main;
}

const commitLine = (c: BitbucketCommit) => ({
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
  scope: "read",
  description: "A repository's branches with their latest commit (hash, date, author, message). Read a branch's files with bitbucket_get_file (ref).",
  input: z.object({ repository, maxResults: z.number().int().min(1).max(200, "maxResults may be at most 200").default(50) }),
  output: z.object({ branches: z.array(z.object({ name: z.string(), tip: CommitSchema })), truncated: z.boolean() }),
  annotations: { title: "List Bitbucket branches", ...READ_ONLY },
  async run({ repository: slug, maxResults }, ctx) {
    const { workspace, repo } = repositoryTarget(ctx, slug);
    const { items, truncated } = await firstOf(ctx.clients.bitbucket.branches(workspace, repo), maxResults);
    const branches = items.map((b) => ({ name: b.name, tip: commitLine(b.target) }));
    const text = [`${branches.length} branch${branches.length === 1 ? "" : "es"} in ${workspace}/${repo}${truncated ? " (more: raise maxResults)" : ""}:`, ...branches.map((b) => `- ${b.name}: ${b.tip.hash} ${shortDate(b.tip.date) ?? "?"} ${b.tip.author ?? "?"} — ${b.tip.message}`)].join("\n");
    return { structured: { branches, truncated }, text };
  },
});

export const bitbucketListCommits = defineTool({
  name: "bitbucket_list_commits",
  service: "bitbucket",
  toolset: "bitbucket-history",
  scope: "read",
  description: "The latest commits of a repository's branch, tag or commit (the main branch by default), newest first: hash, date, author, first line of the message, link.",
  input: z.object({
    repository,
    ref: z.string().trim().regex(REF, "ref must be a branch, tag or commit hash").optional().describe("A branch, tag or commit; default the main branch."),
    maxResults: z.number().int().min(1).max(100, "maxResults may be at most 100").default(20),
  }),
  output: z.object({ ref: z.string(), commits: z.array(CommitSchema), truncated: z.boolean() }),
  annotations: { title: "List Bitbucket commits", ...READ_ONLY },
  async run({ repository: slug, ref, maxResults }, ctx) {
    const { workspace, repo } = repositoryTarget(ctx, slug);
    const at = await refOrMain(ctx, workspace, repo, ref);
    const { items, truncated } = await firstOf(ctx.clients.bitbucket.commits(workspace, repo, at), maxResults);
    const commits = items.map(commitLine);
    const text = [`${commits.length} latest commit${commits.length === 1 ? "" : "s"} of ${workspace}/${repo} at ${at}${truncated ? " (more: raise maxResults)" : ""}:`, ...commits.map((c) => `- ${c.hash} ${shortDate(c.date) ?? "?"} ${c.author ?? "?"}: ${c.message}`)].join("\n");
    return { structured: { ref: at, commits, truncated }, text };
  },
});

export const bitbucketCreateBranch = defineTool({
  name: "bitbucket_create_branch",
  service: "bitbucket",
  toolset: "bitbucket-history",
  scope: "write",
  description: "Create a branch in a Bitbucket repository, from the main branch or from a given branch, tag or commit.",
  input: z.object({
    repository,
    name: z.string().trim().regex(/^(?!\/)(?!.*\/\/)(?!.*\.\.)[\w./-]{1,200}(?<![./])$/, "name must be a branch name such as feature/retry-budget").describe("The new branch, e.g. feature/retry-budget."),
    from: z.string().trim().regex(REF, "from must be a branch, tag or commit hash").optional().describe("Where it starts; default the main branch."),
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
    return { structured: { name: branch.name, tip: commitLine(branch.target), url }, text: `Created ${branch.name} in ${workspace}/${repo} at ${start.hash.slice(0, 12)} (from ${at}).${url ? `\n${url}` : ""}` };
  },
});

export const BITBUCKET_HISTORY_TOOLS = [bitbucketListBranches, bitbucketListCommits, bitbucketCreateBranch];
