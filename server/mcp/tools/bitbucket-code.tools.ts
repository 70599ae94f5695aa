import { z } from "zod";
import { cursorArg, pageNumber } from "./cursor";
import { repositoryArg, repositoryTarget, SLUG, workspaceArg, workspaceOf } from "./bitbucket.tools";
import { assertRepositoryAllowed, repositoryAllowed } from "./policy";
import { defineTool, READ_ONLY, wellFormed } from "./tool";

/** Reading code on Bitbucket: search across a workspace's repositories, and files or directories at a branch, tag or commit. */

export const bitbucketSearchCode = defineTool({
  name: "bitbucket_search_code",
  service: "bitbucket",
  toolset: "bitbucket-code",
  scope: "read",
  description: "Search code on the main branches of a Bitbucket workspace: every word must appear; quote a phrase (\"retry policy\").",
  input: z.object({
    workspace: workspaceArg,
    query: z.string().trim().min(1, "query must not be empty").max(200, "query may be at most 200 characters"),
    repository: z.string().regex(SLUG, "repository must be a repository slug such as api-gateway").optional().describe("Only this repository (its slug)."),
    maxResults: z.number().int().min(1).max(50, "maxResults may be at most 50").default(10),
    cursor: cursorArg,
  }),
  output: z.object({
    results: z.array(z.object({ repository: z.string(), path: z.string(), matches: z.array(z.object({ line: z.number().int(), text: z.string() })) })),
    nextCursor: z.string().nullable(),
  }),
  annotations: { title: "Search code on Bitbucket", ...READ_ONLY },
  async run({ workspace: given, query, repository: slug, maxResults, cursor }, ctx) {
    const workspace = workspaceOf(ctx, given);
    if (slug) assertRepositoryAllowed(ctx, workspace, slug);
    const scope = `bitbucket_search_code\u0000${workspace}\u0000${slug ?? ""}\u0000${query}`;
    const pageNo = pageNumber(ctx.cursors, scope, cursor, 1);
    const page = await ctx.clients.bitbucket.searchCode(workspace, slug ? `repo:${slug} ${query}` : query, pageNo);
    const results = page.values
      .map((hit) => {
        const file = (hit.file ?? {}) as { path?: string; commit?: { repository?: { full_name?: string; name?: string } } };
        const full = file.commit?.repository?.full_name ?? "";
        const repo = full.split("/")[1] ?? file.commit?.repository?.name ?? "?";
        const groups = (hit.content_matches ?? []) as { lines?: { line?: number; segments?: { text?: string }[] }[] }[];
        const matches = groups.flatMap((g) => g.lines ?? []).slice(0, 8).map((l) => ({ line: l.line ?? 0, text: (l.segments ?? []).map((seg) => seg.text ?? "").join("").slice(0, 300) }));
        return { repository: repo, path: file.path ?? "?", matches };
      })
      .filter((r) => repositoryAllowed(ctx.policy, workspace, r.repository))
      .slice(0, maxResults);
    const nextCursor = page.next ? ctx.cursors.seal(scope, String((page.page ?? pageNo) + 1)) : null;
    const lines = results.map((r) => `- ${r.repository}/${r.path}\n${r.matches.map((m) => `  ${m.line}: ${m.text.trim()}`).join("\n")}`);
    const head = results.length ? `${results.length} file${results.length === 1 ? "" : "s"} match "${query}":` : `No code matches "${query}".`;
    return { structured: { results, nextCursor }, text: [head, ...lines, ...(nextCursor ? [`nextCursor: ${nextCursor}`] : [])].join("\n") };
  },
});

export const bitbucketGetFile = defineTool({
  name: "bitbucket_get_file",
  service: "bitbucket",
  toolset: "bitbucket-code",
  scope: "read",
  description: "Read a file at a branch, tag or commit (the main branch by default), cut after maxLines; a directory's path (or an empty one) lists its entries.",
  input: z.object({
    repository: repositoryArg,
    path: wellFormed(z.string().max(1000).regex(/^(?!\/)(?!.*(^|\/)\.\.?(\/|$))[^\0\\]*$/, "path must be relative, without . or .. segments"), "path").default("").describe("e.g. src/index.ts; empty for the top level."),
    ref: z.string().regex(/^[\w./-]{1,200}$/, "ref must be a branch, tag or commit hash").optional().describe("Branch, tag or commit; default the main branch."),
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
      const entries = (listing.values ?? []).map((e) => ({ path: e.path ?? "?", type: e.type === "commit_directory" ? "directory" : "file" }));
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

export const BITBUCKET_CODE_TOOLS = [bitbucketSearchCode, bitbucketGetFile];
