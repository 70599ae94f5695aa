import { z } from "zod";
import {
  explainCqlError,
  maxLengthArg,
  PageAnswerSchema,
  pageAnswer,
  readPage,
  pageUrl,
  SearchResultSchema,
  wikiUrl,
} from "./confluence-common";
import { cursorArg, pageNumber } from "./cursor";
import { shortDate } from "./format";
import { markdownToStorage } from "./markdown/markdown-to-storage";
import { assertResultsHeld, constrainCql } from "./policy";
import { defineTool, READ_ONLY, ToolError, WRITES } from "./tool";

/**
 * The confluence-pages toolset: finding content (CQL), reading a page, and writing pages: create,
 * update (guarded by the version the model read). Bodies are Markdown, stored as Confluence storage format (markdownToStorage), so reading the
 * page back (confluence_get_page) gives the same Markdown.
 */

const pageId = z
  .string()
  .trim()
  .regex(/^\d{1,20}$/, "pageId must be a numeric page id such as 1081519");
const markdown = z.string().max(200_000, "the body may be at most 200000 characters");
const PageResultSchema = z.object({ id: z.string(), title: z.string(), version: z.number().int().nullable(), url: z.string().nullable() });

export const confluenceCreatePage = defineTool({
  name: "confluence_create_page",
  service: "confluence",
  toolset: "confluence-pages",
  reaches: [
    { kind: "confluence-space", arg: "spaceKey" },
    { kind: "confluence-page", arg: "parentId" },
  ],
  scope: "write",
  description: "Create a Confluence page from Markdown in a space, optionally under parentId. Returns its id and URL.",
  input: z.object({
    spaceKey: z
      .string()
      .trim()
      .regex(/^~?[\w-]{1,255}$/, "spaceKey must be a space key such as ENG"),
    title: z.string().trim().min(1, "title must not be empty").max(255, "title may be at most 255 characters"),
    body: markdown,
    parentId: pageId.optional(),
  }),
  output: PageResultSchema,
  annotations: { title: "Create a Confluence page", ...WRITES },
  async run({ spaceKey, title, body, parentId }, ctx) {
    const space = await ctx.clients.confluence.spaceByKey(spaceKey);
    if (!space)
      throw new ToolError(`There is no Confluence space ${spaceKey}. Find spaces with confluence_search (type = space) and try again.`);
    if (parentId) await readPage(ctx, parentId);
    const page = await ctx.clients.confluence.createPage({
      spaceId: String(space.id),
      title,
      body: markdownToStorage(body),
      ...(parentId ? { parentId } : {}),
    });
    const structured = { id: String(page.id), title: page.title, version: page.version?.number ?? 1, url: pageUrl(ctx, page) };
    return {
      structured,
      text: `Created page ${structured.id} "${structured.title}" in ${space.key}${structured.url ? `\n${structured.url}` : ""}`,
    };
  },
});

export const confluenceUpdatePage = defineTool({
  name: "confluence_update_page",
  service: "confluence",
  toolset: "confluence-pages",
  reaches: [{ kind: "confluence-page", arg: "pageId" }],
  scope: "write",
  description:
    "Replace a Confluence page's Markdown body and/or title, given the version you read (a stale one writes nothing). Returns the new version.",
  input: z
    .object({
      pageId,
      version: z.number().int().min(1),
      body: markdown.optional(),
      title: z.string().trim().min(1, "title must not be empty").max(255, "title may be at most 255 characters").optional(),
      message: z.string().trim().max(500).optional(),
    })
    .refine((a) => a.body !== undefined || a.title !== undefined, "nothing to change: give a body, a title, or both"),
  output: PageResultSchema,
  annotations: { title: "Update a Confluence page", ...WRITES, idempotentHint: true },
  async run({ pageId: id, version, body, title, message }, ctx) {
    const current = await readPage(ctx, id);
    const at = current.version?.number ?? 1;
    if (version !== at)
      throw new ToolError(
        `Version ${version} is stale: page ${id} is at version ${at}. Read it again with confluence_get_page, apply your change to the current text, and pass version ${at}.`,
      );
    const page = await ctx.clients.confluence.updatePage(id, {
      title: title ?? current.title,
      body: body !== undefined ? markdownToStorage(body, current.body?.storage?.value) : (current.body?.storage?.value ?? ""),
      version: at + 1,
      ...(message ? { message } : {}),
    });
    const structured = { id: String(page.id), title: page.title, version: page.version?.number ?? at + 1, url: pageUrl(ctx, page) };
    return {
      structured,
      text: `Updated page ${id} "${structured.title}" to version ${structured.version}${structured.url ? `\n${structured.url}` : ""}`,
    };
  },
});

export const confluenceSearch = defineTool({
  name: "confluence_search",
  service: "confluence",
  toolset: "confluence-pages",
  reaches: [{ kind: "listing", service: "confluence" }],
  scope: "read",
  description: 'Find Confluence content by CQL (`space = ENG AND text ~ "deploy"`): id, title, space, excerpt; nextCursor pages on.',
  input: z.object({
    cql: z.string().trim().min(1, "cql must not be empty").max(2000, "cql may be at most 2000 characters"),
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
    const page = await ctx.clients.confluence
      .search(constrainCql(cql, ctx.policy), { limit, start, ...(limited ? { expand: "content.space" } : {}) })
      .catch((err: unknown) => explainCqlError(cql, err));
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
    const lines = results.map(
      (r) =>
        `- ${r.title} (${[r.type, r.space, r.id ? `id ${r.id}` : null, r.lastModified ? `changed ${shortDate(r.lastModified)}` : null].filter(Boolean).join(" · ")})${r.excerpt ? `\n  ${r.excerpt}` : ""}${r.url ? `\n  ${r.url}` : ""}`,
    );
    const head =
      results.length === 0
        ? `Nothing matches: ${cql}`
        : `${results.length} result${results.length === 1 ? "" : "s"}${typeof page.totalSize === "number" ? ` of ${page.totalSize}` : ""}:`;
    return {
      structured: { results, totalSize: typeof page.totalSize === "number" ? page.totalSize : null, nextCursor },
      text: [head, ...lines, ...(nextCursor ? [`nextCursor: ${nextCursor}`] : [])].join("\n"),
    };
  },
});

export const confluenceGetPage = defineTool({
  name: "confluence_get_page",
  service: "confluence",
  toolset: "confluence-pages",
  reaches: [{ kind: "confluence-page", arg: "pageId" }],
  scope: "read",
  description: "Read a Confluence page by id: title, version, Markdown body (other macros as [macro: name], kept by updates).",
  input: z.object({
    pageId: z
      .string()
      .trim()
      .regex(/^\d{1,20}$/, "pageId must be a numeric page id such as 1081519"),
    maxLength: maxLengthArg,
  }),
  output: PageAnswerSchema,
  annotations: { title: "Read a Confluence page", ...READ_ONLY },
  async run({ pageId, maxLength }, ctx) {
    return pageAnswer(ctx, await readPage(ctx, pageId), maxLength);
  },
});

export const CONFLUENCE_PAGES_TOOLS = [confluenceSearch, confluenceGetPage, confluenceCreatePage, confluenceUpdatePage];
