import { z } from "zod";
import { cursorArg, pageNumber } from "./cursor";
import { isUpstreamError } from "../../upstream/errors";
import {
  ALL_PROJECTS,
  assertWorkspaceServed,
  href,
  repositoryArg,
  repositoryTarget,
  SLUG,
  workspaceArg,
  workspaceOf,
} from "./bitbucket-common";
import { shortDate } from "./format";
import { allowedSlugs, repositoryAllowed } from "./policy";
import { defineTool, READ_ONLY, ToolError, wellFormed, type ToolContext } from "./tool";

/** The bitbucket-code toolset: a workspace's repositories, code search across them, and files or directories at a branch, tag or commit. */

export const bitbucketSearchCode = defineTool({
  name: "bitbucket_search_code",
  service: "bitbucket",
  toolset: "bitbucket-code",
  reaches: [
    { kind: "bitbucket-repository", arg: "repository", workspaceArg: "workspace" },
    { kind: "listing", service: "bitbucket" },
  ],
  scope: "read",
  description:
    "Search code on a Bitbucket workspace's main branches (every word must appear; quote a phrase). Returns files and matching lines.",
  input: z.object({
    workspace: workspaceArg,
    query: z.string().trim().min(1, "query must not be empty").max(200, "query may be at most 200 characters"),
    repository: z.string().regex(SLUG, "repository must be a repository slug such as api-gateway").optional(),
    maxResults: z.number().int().min(1).max(50, "maxResults may be at most 50").default(10),
    cursor: cursorArg,
  }),
  output: z.object({
    results: z.array(
      z.object({ repository: z.string(), path: z.string(), matches: z.array(z.object({ line: z.number().int(), text: z.string() })) }),
    ),
    nextCursor: z.string().nullable(),
  }),
  annotations: { title: "Search code on Bitbucket", ...READ_ONLY },
  async run({ workspace: given, query, repository: slug, maxResults, cursor }, ctx) {
    const workspace = workspaceOf(ctx, given);
    assertWorkspaceServed(ctx, workspace);
    const all = workspace === ALL_PROJECTS;
    const scope = `bitbucket_search_code\u0000${workspace}\u0000${slug ?? ""}\u0000${query}`;
    const pageNo = pageNumber(ctx.cursors, scope, cursor, 1);
    const page = await ctx.clients.bitbucket.searchCode(workspace, slug ? `repo:${slug} ${query}` : query, pageNo).catch((err: unknown) => {
      // Data Center searches with a search server of its own (OpenSearch or Elasticsearch): without one its search API is not there.
      if (isUpstreamError(err) && err.kind === "not_found" && ctx.deployments.bitbucket === "datacenter")
        throw new ToolError(
          "Code search is not available on this Bitbucket Data Center: its search API answered 404 (the search server is not installed or not connected). Ask an administrator to set it up; meanwhile read files with bitbucket_get_file.",
        );
      throw err;
    });
    const results = page.values
      .map((hit) => {
        const file = (hit.file ?? {}) as { path?: string; commit?: { repository?: { full_name?: string; name?: string } } };
        const full = file.commit?.repository?.full_name ?? "";
        const slash = full.indexOf("/");
        // Across every project (Data Center's `*`) a slug alone is ambiguous: the result names PROJECT/slug.
        const repo = all && slash > 0 ? full : slash >= 0 ? full.slice(slash + 1) : (file.commit?.repository?.name ?? "?");
        const project = all && slash > 0 ? full.slice(0, slash) : workspace;
        const groups = (hit.content_matches ?? []) as { lines?: { line?: number; segments?: { text?: string }[] }[] }[];
        const matches = groups
          .flatMap((g) => g.lines ?? [])
          .slice(0, 8)
          .map((l) => ({
            line: l.line ?? 0,
            text: (l.segments ?? [])
              .map((seg) => seg.text ?? "")
              .join("")
              .slice(0, 300),
          }));
        return { repository: repo, path: file.path ?? "?", matches, project };
      })
      .filter((r) => repositoryAllowed(ctx.policy, r.project, r.repository.slice(r.repository.indexOf("/") + 1)))
      .slice(0, maxResults)
      .map(({ project: _project, ...r }) => r);
    const nextCursor = page.next ? ctx.cursors.seal(scope, String((page.page ?? pageNo) + 1)) : null;
    const lines = results.map((r) => `- ${r.repository}/${r.path}\n${r.matches.map((m) => `  ${m.line}: ${m.text.trim()}`).join("\n")}`);
    const head = results.length
      ? `${results.length} file${results.length === 1 ? "" : "s"} match "${query}":`
      : `No code matches "${query}".`;
    return { structured: { results, nextCursor }, text: [head, ...lines, ...(nextCursor ? [`nextCursor: ${nextCursor}`] : [])].join("\n") };
  },
});

export const bitbucketGetFile = defineTool({
  name: "bitbucket_get_file",
  service: "bitbucket",
  toolset: "bitbucket-code",
  reaches: [{ kind: "bitbucket-repository", arg: "repository" }],
  scope: "read",
  description: 'Read a file at a branch, tag or commit (default: main branch), cut at maxLines; a directory\'s path, or "", lists it.',
  input: z.object({
    repository: repositoryArg,
    path: wellFormed(
      z
        .string()
        .max(1000)
        .regex(/^(?!\/)(?!.*(^|\/)\.\.?(\/|$))[^\0\\]*$/, "path must be relative, without . or .. segments"),
      "path",
    ).default(""),
    ref: z
      .string()
      .regex(/^[\w./-]{1,200}$/, "ref must be a branch, tag or commit hash")
      .optional(),
    maxLines: z.number().int().min(10).max(5000, "maxLines may be at most 5000").default(400),
  }),
  output: z.object({
    path: z.string(),
    ref: z.string(),
    kind: z.enum(["file", "directory"]),
    content: z.string().nullable(),
    lines: z.number().int().nullable(),
    truncated: z.boolean(),
    entries: z.array(z.object({ path: z.string(), type: z.string() })).nullable(),
  }),
  annotations: { title: "Read a file on Bitbucket", ...READ_ONLY },
  async run({ repository, path, ref, maxLines }, ctx) {
    const { workspace, repo: slug } = repositoryTarget(ctx, repository);
    const at = ref ?? (await ctx.clients.bitbucket.repository(workspace, slug)).mainbranch?.name ?? "HEAD";
    const raw = await ctx.clients.bitbucket.fileContent(workspace, slug, at, path.replace(/\/+$/, ""));
    // A directory answers with a JSON listing.
    type Listing = { values?: { path?: string; type?: string }[] };
    let listing: Listing | null = null;
    if (raw.trimStart().startsWith("{")) {
      try {
        const parsed = JSON.parse(raw) as { values?: unknown; pagelen?: unknown };
        if (Array.isArray(parsed.values) && typeof parsed.pagelen === "number") listing = parsed as Listing;
      } catch {
        listing = null;
      }
    }
    if (listing) {
      const entries = (listing.values ?? []).map((e) => ({
        path: e.path ?? "?",
        type: e.type === "commit_directory" ? "directory" : "file",
      }));
      return {
        structured: { path, ref: at, kind: "directory" as const, content: null, lines: null, truncated: false, entries },
        text: [`${slug}/${path || ""} at ${at}:`, ...entries.map((e) => `- ${e.path}${e.type === "directory" ? "/" : ""}`)].join("\n"),
      };
    }
    const all = raw.split("\n");
    const truncated = all.length > maxLines;
    const content = truncated ? all.slice(0, maxLines).join("\n") : raw;
    const language = /\.([\w]+)$/.exec(path)?.[1] ?? "";
    return {
      structured: { path, ref: at, kind: "file" as const, content, lines: all.length, truncated, entries: null },
      text: `${slug}/${path} at ${at} (${all.length} lines${truncated ? `, first ${maxLines} shown: raise maxLines for more` : ""}):\n\`\`\`${language}\n${content}\n\`\`\``,
    };
  },
});

/**
 * Under a repository allow-list, the BBQL clause that keeps a listing to the listed repositories of
 * `workspace`, so that Bitbucket's page, its `size` and its next page count only those (a filter
 * after the fact would still tell how many others there are, and `nameContains` would probe their
 * names). null without a list; "" when none of the listed repositories is in this workspace. A slug
 * needs no escaping: the policy's pattern (contract/policy.ts) admits only letters, digits, `_`, `.` and `-`.
 */
function allowedRepositoriesClause(ctx: ToolContext, workspace: string): string | null {
  // Every project (Data Center's `*`): a listed `PROJECT/*` by its project, `PROJECT/slug` by its full name, a bare slug in any project.
  if (workspace === ALL_PROJECTS)
    return (
      ctx.policy.bitbucketRepositories
        ?.map((entry) =>
          entry.endsWith("/*")
            ? `project.key = "${entry.slice(0, -2)}"`
            : entry.includes("/")
              ? `full_name = "${entry}"`
              : `slug = "${entry}"`,
        )
        .join(" OR ") ?? null
    );
  return (
    allowedSlugs(ctx.policy, workspace)
      ?.map((slug) => `slug = "${slug}"`)
      .join(" OR ") ?? null
  );
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
  reaches: [{ kind: "listing", service: "bitbucket" }],
  scope: "read",
  description:
    "List a workspace's Bitbucket repositories, latest changed first (on Data Center: a project's, by name; workspace * lists every project). Tools take a repository as slug or workspace/slug.",
  input: z.object({
    workspace: workspaceArg,
    nameContains: wellFormed(z.string().trim().min(1).max(100, "nameContains may be at most 100 characters"), "nameContains").optional(),
    maxResults: z.number().int().min(1, "maxResults must be at least 1").max(100, "maxResults may be at most 100").default(25),
    cursor: cursorArg,
  }),
  output: z.object({
    workspace: z.string(),
    repositories: z.array(RepositorySchema),
    total: z.number().int().nullable(),
    nextCursor: z.string().nullable(),
  }),
  annotations: { title: "List Bitbucket repositories", ...READ_ONLY },
  async run({ workspace: given, nameContains, maxResults, cursor }, ctx) {
    const workspace = workspaceOf(ctx, given);
    assertWorkspaceServed(ctx, workspace);
    const named = nameContains ? `name ~ "${nameContains.replace(/["\\]/g, "")}"` : undefined;
    const only = allowedRepositoriesClause(ctx, workspace);
    const q = only === null ? named : [`(${only})`, named].filter(Boolean).join(" AND ");
    const scope = `bitbucket_list_repositories\u0000${workspace}\u0000${nameContains ?? ""}\u0000${only ?? ""}`;
    const pageNo = pageNumber(ctx.cursors, scope, cursor, 1);
    // None of the listed repositories is in this workspace: nothing to ask Bitbucket.
    const page =
      only === ""
        ? { values: [], size: 0, next: undefined, page: pageNo }
        : await ctx.clients.bitbucket.repositoriesPage(workspace, { q, pagelen: maxResults, page: pageNo, sort: "-updated_on" });
    // Across every project each repository is checked in its own project (its full name's first part).
    const projectOf = (r: { full_name: string }) => (workspace === ALL_PROJECTS ? r.full_name.split("/")[0]! : workspace);
    const repositories = page.values
      .filter((r) => repositoryAllowed(ctx.policy, projectOf(r), r.slug))
      .map((r) => {
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
    // Across every project a slug alone is ambiguous: the lines name PROJECT/slug, as tools take it.
    const lines = repositories.map((r) => {
      // Data Center lists no language, main branch or last change: nothing is said after the description then.
      const facts = [r.language, r.mainBranch ? `main branch ${r.mainBranch}` : null, r.updated ? `updated ${shortDate(r.updated)}` : null]
        .filter(Boolean)
        .join(" · ");
      return `- ${workspace === ALL_PROJECTS ? r.fullName : r.slug}${r.name !== r.slug ? ` (${r.name})` : ""}: ${r.description || "no description"}${facts ? ` — ${facts}` : ""}`;
    });
    const where = workspace === ALL_PROJECTS ? "every project" : workspace;
    const head =
      repositories.length === 0
        ? `No repositories in ${where}${nameContains ? ` matching "${nameContains}"` : ""}.`
        : `${repositories.length} repositor${repositories.length === 1 ? "y" : "ies"} in ${where}${page.size !== undefined ? ` (of ${page.size})` : ""}:`;
    return {
      structured: { workspace, repositories, total: page.size ?? null, nextCursor },
      text: [head, ...lines, ...(nextCursor ? [`nextCursor: ${nextCursor}`] : [])].join("\n"),
    };
  },
});

export const BITBUCKET_CODE_TOOLS = [bitbucketListRepositories, bitbucketSearchCode, bitbucketGetFile];
