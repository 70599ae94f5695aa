import { z } from "zod";
import type { CommentKind, ConfluenceComment } from "../../upstream/confluence.client";
import { isUpstreamError } from "../../upstream/errors";
import { accountNames, pageInReach, pageUrl, wikiUrl } from "./confluence.tools";
import { cursorArg } from "./cursor";
import { shortDate } from "./format";
import { markdownToStorage } from "./markdown/markdown-to-storage";
import { storageToMarkdown } from "./markdown/storage-to-markdown";
import { defineTool, READ_ONLY, ToolError, WRITES, type ToolContext } from "./tool";

/** A page's comments, footer and inline, as threads; replying to one. (Adding one: confluence_add_comment.) */

const pageId = z.string().trim().regex(/^\d{1,20}$/, "pageId must be a numeric page id such as 1081519").describe("The page id.");
const commentId = z.string().trim().regex(/^\d{1,20}$/, "commentId must be a numeric comment id, as confluence_list_comments gives it");
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

async function repliesOf(ctx: ToolContext, root: ConfluenceComment, kind: CommentKind): Promise<{ replies: (ConfluenceComment & { parent: string; depth: number })[]; more: boolean }> {
  const replies: (ConfluenceComment & { parent: string; depth: number })[] = [];
  let more = false;
  const walk = async (parent: ConfluenceComment, depth: number): Promise<void> => {
    if (replies.length >= MAX_REPLIES) return void (more = true);
    const found = [];
    for await (const reply of ctx.clients.confluence.commentReplies(String(parent.id), kind, MAX_REPLIES - replies.length + 1)) found.push(reply);
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
  scope: "read",
  description: "A Confluence page's comments as threads with their replies: footer ones, then inline ones (with the text they highlight and whether resolved). Pass nextCursor for more.",
  input: z.object({
    pageId,
    kind: z.enum(["all", "footer", "inline"], { error: "kind must be all, footer or inline" }).default("all"),
    maxResults: z.number().int().min(1, "maxResults must be at least 1").max(50, "maxResults may be at most 50").default(20).describe("Threads per answer."),
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
    const page = await pageInReach(ctx, id);
    const roots: { kind: CommentKind; comment: ConfluenceComment }[] = [];
    while (at && roots.length < maxResults) {
      const here: Position = at;
      const listed = await ctx.clients.confluence.comments(id, here.k, { limit: maxResults - roots.length, ...(here.c ? { cursor: here.c } : {}) });
      roots.push(...listed.results.map((comment) => ({ kind: here.k, comment })));
      const next = kinds[kinds.indexOf(here.k) + 1];
      at = listed.nextCursor ? { k: here.k, c: listed.nextCursor } : next ? { k: next, c: null } : null;
    }
    const threads = await Promise.all(roots.map(async (r) => ({ ...r, ...(await repliesOf(ctx, r.comment, r.kind)) })));
    const names = await accountNames(ctx, threads.flatMap((t) => [t.comment, ...t.replies].map((c) => c.version?.authorId ?? "")));
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
    const indent = (text: string, pad: string) => text.split("\n").map((l) => `${pad}${l}`).join("\n");
    const lines = comments.flatMap((c) => [
      `- #${c.id} ${c.kind}${c.highlighted !== null ? ` on "${c.highlighted}"` : ""}${c.resolution ? ` (${c.resolution})` : ""} ${c.author ?? "unknown"}${c.date ? ` ${shortDate(c.date)}` : ""}:\n${indent(c.body, "  ")}`,
      ...c.replies.map((r) => `${"  ".repeat(r.depth)}- #${r.id} reply to #${r.parentId} ${r.author ?? "unknown"}${r.date ? ` ${shortDate(r.date)}` : ""}:\n${indent(r.body, "  ".repeat(r.depth + 1))}`),
      ...(c.moreReplies ? [`  (more replies than ${MAX_REPLIES}: open the page to read them)`] : []),
    ]);
    const head = comments.length ? `${comments.length} comment thread${comments.length === 1 ? "" : "s"} on "${page.title}" (id ${id}):` : `No ${kind === "all" ? "" : `${kind} `}comments${cursor ? " left" : ""} on "${page.title}" (id ${id}).`;
    return { structured: { pageId: id, title: page.title, comments, nextCursor }, text: [head, ...lines, ...(nextCursor ? [`nextCursor: ${nextCursor}`] : [])].join("\n") };
  },
});

/** The comment and its kind: a footer comment, else an inline one. */
async function findComment(ctx: ToolContext, id: string): Promise<{ kind: CommentKind; comment: ConfluenceComment }> {
  for (const kind of ["footer", "inline"] as const) {
    try {
      return { kind, comment: await ctx.clients.confluence.comment(id, kind) };
    } catch (err) {
      if (!(isUpstreamError(err) && err.kind === "not_found")) throw err;
    }
  }
  throw new ToolError(`There is no comment ${id} (footer or inline). List a page's comments with confluence_list_comments.`);
}

export const confluenceReplyComment = defineTool({
  name: "confluence_reply_comment",
  service: "confluence",
  toolset: "confluence-comments",
  scope: "write",
  description: "Reply in Markdown to a footer or inline comment on a Confluence page.",
  input: z.object({ commentId, body: z.string().trim().min(1, "body must not be empty").max(32_000, "body may be at most 32000 characters").describe("Markdown.") }),
  output: z.object({ commentId: z.string(), parentId: z.string(), kind: z.enum(["footer", "inline"]), pageId: z.string(), url: z.string().nullable() }),
  annotations: { title: "Reply to a Confluence comment", ...WRITES },
  async run({ commentId: id, body }, ctx) {
    const { kind, comment } = await findComment(ctx, id);
    if (!comment.pageId) throw new ToolError(`Comment ${id} is not on a page (a blog post's, perhaps): these tools reply on pages only.`);
    const page = await pageInReach(ctx, String(comment.pageId));
    const reply = await ctx.clients.confluence.replyComment(id, kind, markdownToStorage(body));
    const structured = { commentId: String(reply.id), parentId: id, kind, pageId: String(page.id), url: wikiUrl(ctx, reply._links?.webui) ?? pageUrl(ctx, page) };
    return { structured, text: `Replied to ${kind} comment ${id} on "${page.title}" (reply ${structured.commentId}).${structured.url ? `\n${structured.url}` : ""}` };
  },
});

export const CONFLUENCE_COMMENT_TOOLS = [confluenceListComments, confluenceReplyComment];
