import { z } from "zod";
import { storageToMarkdown } from "./markdown/storage-to-markdown";
import { clip, closest, shortDate } from "./format";
import { isUpstreamError } from "../../upstream/errors";
import type { CommentKind, ConfluenceComment, ConfluencePage } from "../../upstream/confluence.client";
import { ToolError, type ToolContext } from "./tool";

/** A Confluence web path (`/spaces/ENG/pages/1/Title`) as a link on Confluence (the site's `/wiki`, or Data Center's own base URL). */
export const wikiUrl = (ctx: ToolContext, path: unknown): string | null =>
  ctx.confluenceUrl && typeof path === "string" && path.startsWith("/") ? `${ctx.confluenceUrl}${path}` : null;

export const SearchResultSchema = z.object({
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
  return wikiUrl(ctx, webui) ?? (ctx.confluenceUrl ? `${ctx.confluenceUrl}/pages/viewpage.action?pageId=${page.id}` : null);
}

/** A page with its body (storage format); a tool that reaches a page declares it, so its space was checked, from the page without its body, before this read (governance.ts). */
export const readPage = (ctx: ToolContext, id: string): Promise<ConfluencePage> => ctx.clients.confluence.getPage(id, "storage");

/** Display names of Confluence account ids, each looked up once; one that cannot be read stays its id. */
export async function accountNames(ctx: ToolContext, ids: readonly string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids.filter(Boolean))];
  const names = await Promise.all(
    unique.map((id) =>
      ctx.clients.confluence.user(id).then(
        (u) => u.displayName ?? u.publicName ?? id,
        () => id,
      ),
    ),
  );
  return new Map(unique.map((id, i) => [id, names[i]!]));
}

/** The fields CQL knows (Confluence Cloud, "CQL fields"), for the hint on a misspelt one. */
const CQL_FIELDS = [
  "ancestor",
  "container",
  "content",
  "created",
  "creator",
  "contributor",
  "favourite",
  "favorite",
  "id",
  "label",
  "lastmodified",
  "macro",
  "mention",
  "parent",
  "space",
  "space.category",
  "space.key",
  "space.title",
  "space.type",
  "text",
  "title",
  "type",
  "user",
  "user.accountid",
  "user.fullname",
  "watcher",
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
export function explainCqlError(cql: string, err: unknown): never {
  if (!isUpstreamError(err) || err.kind !== "bad_request") throw err;
  const unknown = cqlFieldsOf(cql).find((field) => !CQL_FIELDS.includes(field.toLowerCase()) && !/^(and|or|not)$/i.test(field));
  if (!unknown) throw err;
  const guess = closest(unknown, CQL_FIELDS);
  throw new ToolError(
    `CQL: field '${unknown}' does not exist${guess ? `; did you mean '${guess}'?` : `. Fields include ${["space", "title", "text", "label", "type", "ancestor", "lastmodified"].join(", ")}.`} Fix the CQL and search again.`,
  );
}

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
export function pageAnswer(
  ctx: ToolContext,
  page: ConfluencePage,
  maxLength: number,
): { structured: z.output<typeof PageAnswerSchema>; text: string } {
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
  const facts = [
    `Page ${structured.id} · version ${structured.version ?? "?"}${structured.lastModified ? ` · changed ${shortDate(structured.lastModified)}` : ""}`,
    structured.url,
  ]
    .filter(Boolean)
    .join("\n");
  return { structured, text: `# ${structured.title}\n${facts}\n\n${structured.body || "(empty page)"}` };
}

/** The `maxLength` argument of the tools that return a page body. */
export const maxLengthArg = z
  .number()
  .int()
  .min(500, "maxLength must be at least 500")
  .max(100_000, "maxLength may be at most 100000")
  .default(20_000);

/** The comment and its kind: a footer comment, else an inline one. */
export async function findComment(ctx: ToolContext, id: string): Promise<{ kind: CommentKind; comment: ConfluenceComment }> {
  for (const kind of ["footer", "inline"] as const) {
    try {
      return { kind, comment: await ctx.clients.confluence.comment(id, kind) };
    } catch (err) {
      if (!(isUpstreamError(err) && err.kind === "not_found")) throw err;
    }
  }
  throw new ToolError(`There is no comment ${id} (footer or inline). List a page's comments with confluence_list_comments.`);
}

/** A space key as Confluence compares it: upper case, but a personal space (`~name`) as given. */
export const spaceKey = (key: string): string => (key.startsWith("~") ? key : key.toUpperCase());
