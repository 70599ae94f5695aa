import { z } from "zod";
import type { CommentKind, ConfluenceComment } from "../../upstream/confluence.client";
import { accountNames, findComment, readPage, pageUrl, wikiUrl } from "./confluence-common";
import { cursorArg } from "./cursor";
import { shortDate } from "./format";
import { markdownToStorage } from "./markdown/markdown-to-storage";
import { storageToMarkdown } from "./markdown/storage-to-markdown";
import { defineTool, READ_ONLY, ToolError, WRITES, type ToolContext } from "./tool";

/** The confluence-comments toolset: a page's comments, footer and inline, as threads; adding one, and replying to one. */

const pageId = z
  .string()
  .trim()
  .regex(/^\d{1,20}$/, "pageId must be a numeric page id such as 1081519")
  .describe("The page id.");
const commentId = z
  .string()
  .trim()
  .regex(/^\d{1,20}$/, "commentId must be a numeric comment id, as confluence_list_comments gives it");
/** Replies read per thread (nested replies included), and how deep. */
const MAX_REPLIES = 50;
const MAX_REPLY_DEPTH = 3;

const CommentFields = {
  id: z.string(),
  author: z.string().nullable(),
  date: z.string().nullable(),
  body: z.string().describe("Markdown"),
  url: z.string().nullable(),
};
const ReplySchema = z.object({ ...CommentFields, parentId: z.string(), depth: z.number().int() });
const ThreadSchema = z.object({
  ...CommentFields,
  kind: z.enum(["footer", "inline"]),
  highlighted: z.string().nullable().describe("Inline: the page text it is anchored on."),
  resolution: z.string().nullable().describe("Inline: open, reopened, resolved or dangling."),
  replies: z.array(ReplySchema),
  moreReplies: z.boolean(),
});

/** The sealed position in a listing: which kind is being read and its upstream cursor. */
interface Position {
  k: CommentKind;
  c: string | null;
}

async function repliesOf(
  ctx: ToolContext,
  root: ConfluenceComment,
  kind: CommentKind,
): Promise<{ replies: (ConfluenceComment & { parent: string; depth: number })[]; more: boolean }> {
  const replies: (ConfluenceComment & { parent: string; depth: number })[] = [];
  let more = false;
  const walk = async (parent: ConfluenceComment, depth: number): Promise<void> => {
    if (replies.length >= MAX_REPLIES) return void (more = true);
    const found = [];
    for await (const reply of ctx.clients.confluence.commentReplies(String(parent.id), kind, MAX_REPLIES - replies.length + 1))
      found.push(reply);
    for (const reply of found) {
      if (replies.length >= MAX_REPLIES) return void (more = true);
      replies.push({ ...reply, parent: String(parent.id), depth });
      if (depth < MAX_REPLY_DEPTH) await walk(reply, depth + 1);
    }
  };
  await walk(root, 1);
  return { replies, more };
}

export const confluenceListComments = defineTool({
  name: "confluence_list_comments",
  service: "confluence",
  toolset: "confluence-comments",
  reaches: [{ kind: "confluence-page", arg: "pageId" }],
  scope: "read",
  description:
    "A Confluence page's comments as threads with their replies: footer ones, then inline ones (with the text they highlight and whether resolved). Pass nextCursor for more.",
  input: z.object({
    pageId,
    kind: z.enum(["all", "footer", "inline"], { error: "kind must be all, footer or inline" }).default("all"),
    maxResults: z
      .number()
      .int()
      .min(1, "maxResults must be at least 1")
      .max(50, "maxResults may be at most 50")
      .default(20)
      .describe("Threads per answer."),
    cursor: cursorArg,
  }),
  output: z.object({ pageId: z.string(), title: z.string(), comments: z.array(ThreadSchema), nextCursor: z.string().nullable() }),
  annotations: { title: "List a Confluence page's comments", ...READ_ONLY },
  async run({ pageId: id, kind, maxResults, cursor }, ctx) {
    const kinds: CommentKind[] = kind === "all" ? ["footer", "inline"] : [kind];
    const scope = `confluence_list_comments\u0000${id}\u0000${kind}`;
    let at: Position | null = { k: kinds[0]!, c: null };
    if (cursor !== undefined) {
      const opened = JSON.parse(ctx.cursors.open(scope, cursor)) as Position;
      at = { k: opened.k, c: opened.c };
    }
    const page = await readPage(ctx, id);
    const roots: { kind: CommentKind; comment: ConfluenceComment }[] = [];
    while (at && roots.length < maxResults) {
      const here: Position = at;
      const listed = await ctx.clients.confluence.comments(id, here.k, {
        limit: maxResults - roots.length,
        ...(here.c ? { cursor: here.c } : {}),
      });
      roots.push(...listed.results.map((comment) => ({ kind: here.k, comment })));
      const next = kinds[kinds.indexOf(here.k) + 1];
      at = listed.nextCursor ? { k: here.k, c: listed.nextCursor } : next ? { k: next, c: null } : null;
    }
    const threads = await Promise.all(roots.map(async (r) => ({ ...r, ...(await repliesOf(ctx, r.comment, r.kind)) })));
    const names = await accountNames(
      ctx,
      threads.flatMap((t) => [t.comment, ...t.replies].map((c) => c.version?.authorId ?? "")),
    );
    const fields = (c: ConfluenceComment) => ({
      id: String(c.id),
      author: c.version?.authorId ? (names.get(c.version.authorId) ?? c.version.authorId) : null,
      date: c.version?.createdAt ?? null,
      body: storageToMarkdown(c.body?.storage?.value ?? ""),
      url: wikiUrl(ctx, c._links?.webui),
    });
    const comments = threads.map((t) => ({
      ...fields(t.comment),
      kind: t.kind,
      highlighted: t.kind === "inline" ? (t.comment.properties?.inlineOriginalSelection ?? null) : null,
      resolution: t.kind === "inline" ? (t.comment.resolutionStatus ?? null) : null,
      replies: t.replies.map((r) => ({ ...fields(r), parentId: r.parent, depth: r.depth })),
      moreReplies: t.more,
    }));
    const nextCursor = at ? ctx.cursors.seal(scope, JSON.stringify(at)) : null;
    const indent = (text: string, pad: string) =>
      text
        .split("\n")
        .map((l) => `${pad}${l}`)
        .join("\n");
    const lines = comments.flatMap((c) => [
      `- #${c.id} ${c.kind}${c.highlighted !== null ? ` on "${c.highlighted}"` : ""}${c.resolution ? ` (${c.resolution})` : ""} ${c.author ?? "unknown"}${c.date ? ` ${shortDate(c.date)}` : ""}:\n${indent(c.body, "  ")}`,
      ...c.replies.map(
        (r) =>
          `${"  ".repeat(r.depth)}- #${r.id} reply to #${r.parentId} ${r.author ?? "unknown"}${r.date ? ` ${shortDate(r.date)}` : ""}:\n${indent(r.body, "  ".repeat(r.depth + 1))}`,
      ),
      ...(c.moreReplies ? [`  (more replies than ${MAX_REPLIES}: open the page to read them)`] : []),
    ]);
    const head = comments.length
      ? `${comments.length} comment thread${comments.length === 1 ? "" : "s"} on "${page.title}" (id ${id}):`
      : `No ${kind === "all" ? "" : `${kind} `}comments${cursor ? " left" : ""} on "${page.title}" (id ${id}).`;
    return {
      structured: { pageId: id, title: page.title, comments, nextCursor },
      text: [head, ...lines, ...(nextCursor ? [`nextCursor: ${nextCursor}`] : [])].join("\n"),
    };
  },
});

export const confluenceReplyComment = defineTool({
  name: "confluence_reply_comment",
  service: "confluence",
  toolset: "confluence-comments",
  reaches: [{ kind: "confluence-comment", arg: "commentId" }],
  scope: "write",
  description: "Reply in Markdown to a footer or inline comment on a Confluence page.",
  input: z.object({
    commentId,
    body: z.string().trim().min(1, "body must not be empty").max(32_000, "body may be at most 32000 characters").describe("Markdown."),
  }),
  output: z.object({
    commentId: z.string(),
    parentId: z.string(),
    kind: z.enum(["footer", "inline"]),
    pageId: z.string(),
    url: z.string().nullable(),
  }),
  annotations: { title: "Reply to a Confluence comment", ...WRITES },
  async run({ commentId: id, body }, ctx) {
    const { kind, comment } = await findComment(ctx, id);
    if (!comment.pageId) throw new ToolError(`Comment ${id} is not on a page (a blog post's, perhaps): these tools reply on pages only.`);
    const page = await readPage(ctx, String(comment.pageId));
    const reply = await ctx.clients.confluence.replyComment(id, kind, markdownToStorage(body));
    const structured = {
      commentId: String(reply.id),
      parentId: id,
      kind,
      pageId: String(page.id),
      url: wikiUrl(ctx, reply._links?.webui) ?? pageUrl(ctx, page),
    };
    return {
      structured,
      text: `Replied to ${kind} comment ${id} on "${page.title}" (reply ${structured.commentId}).${structured.url ? `\n${structured.url}` : ""}`,
    };
  },
});

/** How often `text` occurs in the page's text (between tags, entities decoded; code bodies left out), as an inline comment's anchor. */
function textOccurrences(storage: string, text: string): number {
  let count = 0;
  for (const segment of storage.replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, "<>").split(/<[^>]*>/)) {
    const plain = segment
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"')
      .replace(/&#39;|&apos;/g, "'")
      .replace(/&amp;/g, "&");
    for (let at = plain.indexOf(text); at >= 0; at = plain.indexOf(text, at + text.length)) count++;
  }
  return count;
}

export const confluenceAddComment = defineTool({
  name: "confluence_add_comment",
  service: "confluence",
  toolset: "confluence-comments",
  reaches: [{ kind: "confluence-page", arg: "pageId" }],
  scope: "write",
  description: "Add a comment in Markdown to a Confluence page: a footer comment, or an inline one anchored on a piece of the page's text.",
  input: z.object({
    pageId,
    body: z.string().trim().min(1, "body must not be empty").max(32_000, "body may be at most 32000 characters").describe("Markdown."),
    inline: z
      .object({
        text: z
          .string()
          .min(1, "inline.text must not be empty")
          .max(500, "inline.text may be at most 500 characters")
          .describe("Page text to anchor on, within one paragraph."),
        occurrence: z
          .number()
          .int()
          .min(1, "inline.occurrence must be at least 1")
          .default(1)
          .describe("Which occurrence of the text (1 = first)."),
      })
      .optional(),
  }),
  output: z.object({ commentId: z.string(), pageId: z.string() }),
  annotations: { title: "Comment on a Confluence page", ...WRITES },
  async run({ pageId: id, body, inline }, ctx) {
    const page = await readPage(ctx, id);
    if (!inline) {
      const comment = await ctx.clients.confluence.addComment(id, markdownToStorage(body));
      return { structured: { commentId: String(comment.id), pageId: id }, text: `Commented on page ${id} (comment ${comment.id}).` };
    }
    if (ctx.deployments.confluence === "datacenter")
      throw new ToolError(
        "Confluence Data Center's REST API cannot anchor a new inline comment on a page's text (only its editor can). Add a footer comment instead (leave out inline), or reply to an existing inline comment with confluence_reply_comment.",
      );
    const count = textOccurrences(page.body?.storage?.value ?? "", inline.text);
    if (count === 0)
      throw new ToolError(
        `The text "${inline.text}" does not occur in page ${id}'s text (an anchor must lie within one paragraph, without formatting across it). Read the page with confluence_get_page and quote its text exactly.`,
      );
    if (inline.occurrence > count)
      throw new ToolError(
        `The text "${inline.text}" occurs ${count} time${count === 1 ? "" : "s"} in page ${id}: inline.occurrence may be at most ${count}.`,
      );
    const comment = await ctx.clients.confluence.addInlineComment(id, markdownToStorage(body), {
      text: inline.text,
      matchCount: count,
      matchIndex: inline.occurrence - 1,
    });
    return {
      structured: { commentId: String(comment.id), pageId: id },
      text: `Commented inline on "${inline.text}" in page ${id} (comment ${comment.id}).`,
    };
  },
});

export const CONFLUENCE_COMMENTS_TOOLS = [confluenceListComments, confluenceAddComment, confluenceReplyComment];
