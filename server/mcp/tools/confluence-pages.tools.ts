import { z } from "zod";
import { pageInReach, pageUrl } from "./confluence.tools";
import { markdownToStorage } from "./markdown/markdown-to-storage";
import { assertSpaceAllowed } from "./policy";
import { defineTool, ToolError, WRITES } from "./tool";

/**
 * Writing Confluence pages: create, update (guarded by the version the model read) and comment.
 * Bodies are Markdown, stored as Confluence storage format (markdownToStorage), so reading the
 * page back (confluence_get_page) gives the same Markdown.
 */

const pageId = z.string().trim().regex(/^\d{1,20}$/, "pageId must be a numeric page id such as 1081519").describe("The page id.");
const markdown = z.string().max(200_000, "the body may be at most 200000 characters");
const PageResultSchema = z.object({ id: z.string(), title: z.string(), version: z.number().int().nullable(), url: z.string().nullable() });

export const confluenceCreatePage = defineTool({
  name: "confluence_create_page",
  service: "confluence",
  toolset: "confluence-pages",
  scope: "write",
  description: "Create a Confluence page from Markdown in a space, optionally under a parent page.",
  input: z.object({
    spaceKey: z.string().trim().regex(/^~?[\w-]{1,255}$/, "spaceKey must be a space key such as ENG").describe("The space key, e.g. ENG."),
    title: z.string().trim().min(1, "title must not be empty").max(255, "title may be at most 255 characters"),
    body: markdown.describe("Markdown."),
    parentId: pageId.optional().describe("Create it under this page."),
  }),
  output: PageResultSchema,
  annotations: { title: "Create a Confluence page", ...WRITES },
  async run({ spaceKey, title, body, parentId }, ctx) {
    assertSpaceAllowed(ctx, spaceKey.toUpperCase().startsWith("~") ? spaceKey : spaceKey.toUpperCase());
    const space = await ctx.clients.confluence.spaceByKey(spaceKey);
    if (!space) throw new ToolError(`There is no Confluence space ${spaceKey}. Find spaces with confluence_search (type = space) and try again.`);
    if (parentId) await pageInReach(ctx, parentId);
    const page = await ctx.clients.confluence.createPage({ spaceId: String(space.id), title, body: markdownToStorage(body), ...(parentId ? { parentId } : {}) });
    const structured = { id: String(page.id), title: page.title, version: page.version?.number ?? 1, url: pageUrl(ctx, page) };
    return { structured, text: `Created page ${structured.id} "${structured.title}" in ${space.key}${structured.url ? `\n${structured.url}` : ""}` };
  },
});

export const confluenceUpdatePage = defineTool({
  name: "confluence_update_page",
  service: "confluence",
  toolset: "confluence-pages",
  scope: "write",
  description: "Replace a Confluence page's body (Markdown) and/or title. Pass the version you read: if the page changed since, nothing is written and the answer names the current version.",
  input: z
    .object({
      pageId,
      version: z.number().int().min(1).describe("The version you read."),
      body: markdown.optional().describe("Markdown; replaces the whole body."),
      title: z.string().trim().min(1, "title must not be empty").max(255, "title may be at most 255 characters").optional(),
      message: z.string().trim().max(500).optional().describe("What changed."),
    })
    .refine((a) => a.body !== undefined || a.title !== undefined, "nothing to change: give a body, a title, or both"),
  output: PageResultSchema,
  annotations: { title: "Update a Confluence page", ...WRITES, idempotentHint: true },
  async run({ pageId: id, version, body, title, message }, ctx) {
    const current = await pageInReach(ctx, id);
    const at = current.version?.number ?? 1;
    if (version !== at) throw new ToolError(`Version ${version} is stale: page ${id} is at version ${at}. Read it again with confluence_get_page, apply your change to the current text, and pass version ${at}.`);
    const page = await ctx.clients.confluence.updatePage(id, {
      title: title ?? current.title,
      body: body !== undefined ? markdownToStorage(body, current.body?.storage?.value) : (current.body?.storage?.value ?? ""),
      version: at + 1,
      ...(message ? { message } : {}),
    });
    const structured = { id: String(page.id), title: page.title, version: page.version?.number ?? at + 1, url: pageUrl(ctx, page) };
    return { structured, text: `Updated page ${id} "${structured.title}" to version ${structured.version}${structured.url ? `\n${structured.url}` : ""}` };
  },
});

/** How often `text` occurs in the page's text (between tags, entities decoded; code bodies left out), as an inline comment's anchor. */
export function textOccurrences(storage: string, text: string): number {
  let count = 0;
  for (const segment of storage.replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, "<>").split(/<[^>]*>/)) {
    const plain = segment.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;|&apos;/g, "'").replace(/&amp;/g, "&");
    for (let at = plain.indexOf(text); at >= 0; at = plain.indexOf(text, at + text.length)) count++;
  }
  return count;
}

export const confluenceAddComment = defineTool({
  name: "confluence_add_comment",
  service: "confluence",
  toolset: "confluence-comments",
  scope: "write",
  description: "Add a comment in Markdown to a Confluence page: a footer comment, or an inline one anchored on a piece of the page's text.",
  input: z.object({
    pageId,
    body: z.string().trim().min(1, "body must not be empty").max(32_000, "body may be at most 32000 characters").describe("Markdown."),
    inline: z
      .object({
        text: z.string().min(1, "inline.text must not be empty").max(500, "inline.text may be at most 500 characters").describe("Page text to anchor on, within one paragraph."),
        occurrence: z.number().int().min(1, "inline.occurrence must be at least 1").default(1).describe("Which occurrence of the text (1 = first)."),
      })
      .optional(),
  }),
  output: z.object({ commentId: z.string(), pageId: z.string() }),
  annotations: { title: "Comment on a Confluence page", ...WRITES },
  async run({ pageId: id, body, inline }, ctx) {
    const page = await pageInReach(ctx, id);
    if (!inline) {
      const comment = await ctx.clients.confluence.addComment(id, markdownToStorage(body));
      return { structured: { commentId: String(comment.id), pageId: id }, text: `Commented on page ${id} (comment ${comment.id}).` };
    }
    const count = textOccurrences(page.body?.storage?.value ?? "", inline.text);
    if (count === 0) throw new ToolError(`The text "${inline.text}" does not occur in page ${id}'s text (an anchor must lie within one paragraph, without formatting across it). Read the page with confluence_get_page and quote its text exactly.`);
    if (inline.occurrence > count) throw new ToolError(`The text "${inline.text}" occurs ${count} time${count === 1 ? "" : "s"} in page ${id}: inline.occurrence may be at most ${count}.`);
    const comment = await ctx.clients.confluence.addInlineComment(id, markdownToStorage(body), { text: inline.text, matchCount: count, matchIndex: inline.occurrence - 1 });
    return { structured: { commentId: String(comment.id), pageId: id }, text: `Commented inline on "${inline.text}" in page ${id} (comment ${comment.id}).` };
  },
});

export const CONFLUENCE_PAGE_TOOLS = [confluenceCreatePage, confluenceUpdatePage, confluenceAddComment];
