import { z } from "zod";
import { storageToMarkdown } from "./markdown/storage-to-markdown";
import { clip, closest, shortDate } from "./format";
import { isUpstreamError } from "../../upstream/errors";
import type { ConfluencePage } from "../../upstream/confluence.client";
import { assertResultsHeld, assertSpaceAllowed, constrainCql } from "./policy";
import { cursorArg, pageNumber } from "./cursor";
import { defineTool, READ_ONLY, ToolError, type ToolContext } from "./tool";

/** A Confluence web path (`/spaces/ENG/pages/1/Title`) as a link on the instance. */
export const wikiUrl = (ctx: ToolContext, path: unknown): string | null => (ctx.atlassianUrl && typeof path === "string" && path.startsWith("/") ? `${ctx.atlassianUrl}/wiki${path}` : null);

const SearchResultSchema = z.object({
  id: z.string().nullable(),
  type: z.string().nullable(),
  title: z.string(),
  space: z.string().nullable(),
  excerpt: z.string(),
  lastModified: z.string().nullable(),
  url: z.string().nullable(),
});

/** A page's browser link: the one Confluence gives, or the viewpage address every page has. */
export function pageUrl(ctx: ToolContext, page: { id: string | number }): string | null {
  const webui = (page as { _links?: { webui?: string } })._links?.webui;
  return wikiUrl(ctx, webui) ?? (ctx.atlassianUrl ? `${ctx.atlassianUrl}/wiki/pages/viewpage.action?pageId=${page.id}` : null);
}

/** A page, held to the client's space allow-list (the page names its space by id). */
export async function pageInReach(ctx: ToolContext, id: string): Promise<ConfluencePage> {
  const page = await ctx.clients.confluence.getPage(id, "storage");
  if (ctx.policy.confluenceSpaces !== null) assertSpaceAllowed(ctx, page.spaceId ? (await ctx.clients.confluence.space(String(page.spaceId))).key : null);
  return page;
}

/** Display names of Confluence account ids, each looked up once; one that cannot be read stays its id. */
export async function accountNames(ctx: ToolContext, ids: readonly string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids.filter(Boolean))];
  const names = await Promise.all(unique.map((id) => ctx.clients.confluence.user(id).then((u) => u.displayName ?? u.publicName ?? id, () => id)));
  return new Map(unique.map((id, i) => [id, names[i]!]));
}

/** The fields CQL knows (Confluence Cloud, "CQL fields"), for the hint on a misspelt one. */
export const CQL_FIELDS = [
  "ancestor", "container", "content", "created", "creator", "contributor", "favourite", "favorite", "id", "label", "lastmodified", "macro", "mention",
  "parent", "space", "space.category", "space.key", "space.title", "space.type", "text", "title", "type", "user", "user.accountid", "user.fullname", "watcher",
];

/** The field names a CQL query compares (`name op ...`), quoted text left out. */
export function cqlFieldsOf(cql: string): string[] {
  const bare = cql.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""');
  return [...bare.matchAll(/(?:^|[\s(])([A-Za-z][\w.]*)\s*(?:!=|!~|>=|<=|[=~<>]|\s(?:not\s+)?in[\s(])/gi)].map((m) => m[1]!);
}

/**
 * Confluence's 400 for a query it cannot parse, with the field it most likely meant when the query
 * compares a field CQL does not have ("CQL: field 'spacee' does not exist; did you mean 'space'?").
 */
function explainCqlError(cql: string, err: unknown): never {
  if (!isUpstreamError(err) || err.kind !== "bad_request") throw err;
  const unknown = cqlFieldsOf(cql).find((field) => !CQL_FIELDS.includes(field.toLowerCase()) && !/^(and|or|not)$/i.test(field));
  if (!unknown) throw err;
  const guess = closest(unknown, CQL_FIELDS);
  throw new ToolError(`CQL: field '${unknown}' does not exist${guess ? `; did you mean '${guess}'?` : `. Fields include ${["space", "title", "text", "label", "type", "ancestor", "lastmodified"].join(", ")}.`} Fix the CQL and search again.`);
}

export const confluenceSearch = defineTool({
  name: "confluence_search",
  service: "confluence",
  toolset: "confluence-pages",
  scope: "read",
  description: "Search Confluence with CQL, e.g. `space = ENG AND type = page AND text ~ \"deployment\"`. Pass nextCursor for more.",
  input: z.object({
    cql: z.string().trim().min(1, "cql must not be empty").max(2000, "cql may be at most 2000 characters").describe("The CQL query."),
    limit: z.number().int("limit must be a whole number").min(1, "limit must be at least 1").max(50, "limit may be at most 50").default(10),
    cursor: cursorArg,
  }),
  output: z.object({ results: z.array(SearchResultSchema), totalSize: z.number().int().nullable(), nextCursor: z.string().nullable() }),
  annotations: { title: "Search Confluence (CQL)", ...READ_ONLY },
  async run({ cql, limit, cursor }, ctx) {
    const scope = `confluence_search\u0000${cql}`;
    const start = pageNumber(ctx.cursors, scope, cursor, 0);
    // Under a space list each result names its space (expand), and one outside the list withholds the answer.
    const limited = ctx.policy.confluenceSpaces !== null;
    const page = await ctx.clients.confluence.search(constrainCql(cql, ctx.policy), { limit, start, ...(limited ? { expand: "content.space" } : {}) }).catch((err: unknown) => explainCqlError(cql, err));
    assertResultsHeld(ctx.policy, page.results);
    const results = page.results.map((r) => {
      const content = (r.content ?? {}) as { id?: string; type?: string; title?: string };
      const container = r.resultGlobalContainer as { title?: string } | undefined;
      return {
        id: content.id ?? null,
        type: content.type ?? (typeof r.entityType === "string" ? r.entityType : null),
        title: String(content.title ?? r.title ?? ""),
        space: container?.title ?? null,
        excerpt: typeof r.excerpt === "string" ? r.excerpt.replace(/\s+/g, " ").trim().slice(0, 240) : "",
        lastModified: typeof r.lastModified === "string" ? r.lastModified : null,
        url: wikiUrl(ctx, r.url),
      };
    });
    const more = Boolean(page._links?.next) || (typeof page.totalSize === "number" && start + results.length < page.totalSize);
    const nextCursor = more && results.length > 0 ? ctx.cursors.seal(scope, String(start + results.length)) : null;
    const lines = results.map((r) => `- ${r.title} (${[r.type, r.space, r.id ? `id ${r.id}` : null, r.lastModified ? `changed ${shortDate(r.lastModified)}` : null].filter(Boolean).join(" · ")})${r.excerpt ? `\n  ${r.excerpt}` : ""}${r.url ? `\n  ${r.url}` : ""}`);
    const head = results.length === 0 ? `Nothing matches: ${cql}` : `${results.length} result${results.length === 1 ? "" : "s"}${typeof page.totalSize === "number" ? ` of ${page.totalSize}` : ""}:`;
    return { structured: { results, totalSize: typeof page.totalSize === "number" ? page.totalSize : null, nextCursor }, text: [head, ...lines, ...(nextCursor ? [`nextCursor: ${nextCursor}`] : [])].join("\n") };
  },
});

/** A page as confluence_get_page and confluence_get_page_by_title answer it. */
export const PageAnswerSchema = z.object({
  id: z.string(),
  title: z.string(),
  spaceId: z.string().nullable(),
  parentId: z.string().nullable(),
  version: z.number().int().nullable(),
  lastModified: z.string().nullable(),
  body: z.string().describe("Markdown"),
  truncated: z.boolean(),
  url: z.string().nullable(),
});

/** The page's facts and its body as Markdown, cut at `maxLength`. */
export function pageAnswer(ctx: ToolContext, page: ConfluencePage, maxLength: number): { structured: z.output<typeof PageAnswerSchema>; text: string } {
  const body = clip(storageToMarkdown(page.body?.storage?.value ?? ""), maxLength);
  const raw = page as typeof page & { version?: { number: number; createdAt?: string } };
  const structured = {
    id: String(page.id),
    title: page.title,
    spaceId: page.spaceId ? String(page.spaceId) : null,
    parentId: page.parentId ? String(page.parentId) : null,
    version: page.version?.number ?? null,
    lastModified: raw.version?.createdAt ?? null,
    body: body.text,
    truncated: body.truncated,
    url: pageUrl(ctx, page),
  };
  const facts = [`Page ${structured.id} · version ${structured.version ?? "?"}${structured.lastModified ? ` · changed ${shortDate(structured.lastModified)}` : ""}`, structured.url].filter(Boolean).join("\n");
  return { structured, text: `# ${structured.title}\n${facts}\n\n${structured.body || "(empty page)"}` };
}

/** The `maxLength` argument of the tools that return a page body. */
export const maxLengthArg = z.number().int().min(500, "maxLength must be at least 500").max(100_000, "maxLength may be at most 100000").default(20_000).describe("In characters.");

export const confluenceGetPage = defineTool({
  name: "confluence_get_page",
  service: "confluence",
  toolset: "confluence-pages",
  scope: "read",
  description: "Read a Confluence page by id: version and Markdown body; other macros show as [macro: name], which updates keep.",
  input: z.object({
    pageId: z.string().trim().regex(/^\d{1,20}$/, "pageId must be a numeric page id such as 1081519").describe("The page id."),
    maxLength: maxLengthArg,
  }),
  output: PageAnswerSchema,
  annotations: { title: "Read a Confluence page", ...READ_ONLY },
  async run({ pageId, maxLength }, ctx) {
    return pageAnswer(ctx, await pageInReach(ctx, pageId), maxLength);
  },
});

export const CONFLUENCE_TOOLS = [confluenceSearch, confluenceGetPage];
