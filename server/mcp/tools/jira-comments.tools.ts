import { z } from "zod";
import type { JiraComment } from "../../upstream/jira.client";
import { jiraText, jiraTextToMarkdown } from "./markdown/jira-text";
import { clip, nameOf, shortDate } from "./format";
import { browseUrl, ISSUE_KEY } from "./jira-common";
import { cursorArg, offsetPaging } from "./cursor";
import { defineTool, DESTRUCTIVE, READ_ONLY, WRITES, type ToolContext } from "./tool";

/**
 * A Jira issue's comments beyond the latest few jira_get_issue shows: every one, page by page,
 * and editing or removing one (adding is jira_add_comment). Bodies are ADF (Cloud) or wiki markup
 * (Data Center) upstream, Markdown here (jira-text.ts).
 */

const issueKey = z.string().trim().regex(ISSUE_KEY, "issueKey must be an issue key such as BK-12 (or a numeric id)");
const commentId = z
  .string()
  .trim()
  .regex(/^\d{1,18}$/, "commentId must be a comment id from jira_list_comments");
const BODY_LIMIT = 4_000;

const CommentSchema = z.object({
  id: z.string(),
  author: z.string().nullable(),
  created: z.string().nullable(),
  updated: z.string().nullable(),
  body: z.string(),
  url: z.string().nullable(),
});

const commentUrl = (ctx: ToolContext, key: string, id: string) => {
  const url = browseUrl(ctx, key);
  return url ? `${url}?focusedCommentId=${id}` : null;
};

const present = (ctx: ToolContext, key: string, c: JiraComment) => ({
  id: String(c.id),
  author: nameOf(c.author),
  created: c.created ?? null,
  updated: c.updated && c.updated !== c.created ? c.updated : null,
  body: clip(jiraTextToMarkdown(c.body), BODY_LIMIT).text,
  url: commentUrl(ctx, key, String(c.id)),
});

export const jiraListComments = defineTool({
  name: "jira_list_comments",
  service: "jira",
  toolset: "jira-comments",
  reaches: [{ kind: "jira-issue", arg: "issueKey" }],
  scope: "read",
  description:
    "All comments of a Jira issue, newest first, as Markdown with author, dates and link. Pages with nextCursor. jira_get_issue shows only the latest few.",
  input: z.object({
    issueKey,
    maxResults: z.number().int().min(1, "maxResults must be at least 1").max(50, "maxResults may be at most 50").default(20),
    cursor: cursorArg,
  }),
  output: z.object({
    key: z.string(),
    comments: z.array(CommentSchema),
    total: z.number().int().nullable(),
    nextCursor: z.string().nullable(),
  }),
  annotations: { title: "List a Jira issue's comments", ...READ_ONLY },
  async run({ issueKey: given, maxResults, cursor }, ctx) {
    const key = given.toUpperCase();
    const paging = offsetPaging(ctx.cursors, `jira_list_comments\u0000${key}`, cursor);
    const { startAt } = paging;
    const page = await ctx.clients.jira.commentsPage(key, startAt, maxResults);
    const comments = page.comments.map((c) => present(ctx, key, c));
    const { end: next, total, nextCursor } = paging.next(comments.length, page.total);
    const head = comments.length
      ? `Comments on ${key} ${startAt + 1}-${next}${total !== null ? ` of ${total}` : ""}, newest first:`
      : `${key} has no ${startAt > 0 ? "more " : ""}comments.`;
    const lines = comments.map(
      (c) =>
        `### ${c.author ?? "?"}, ${shortDate(c.created) ?? "?"}${c.updated ? ` (edited ${shortDate(c.updated)})` : ""} · id ${c.id}\n${c.body}`,
    );
    return {
      structured: { key, comments, total, nextCursor },
      text: [head, ...lines, ...(nextCursor ? [`nextCursor: ${nextCursor}`] : [])].join("\n\n"),
    };
  },
});

export const jiraEditComment = defineTool({
  name: "jira_edit_comment",
  service: "jira",
  toolset: "jira-comments",
  reaches: [
    { kind: "jira-issue", arg: "issueKey" },
    { kind: "jira-comment", arg: "commentId", issueArg: "issueKey" },
  ],
  scope: "write",
  description: "Replace the body of a comment on a Jira issue (Markdown). Find comment ids with jira_list_comments.",
  input: z.object({
    issueKey,
    commentId,
    body: z
      .string()
      .trim()
      .min(1, "body must not be empty")
      .max(32_000, "body may be at most 32000 characters")
      .describe("The new body, in Markdown."),
  }),
  output: z.object({ key: z.string(), commentId: z.string(), url: z.string().nullable() }),
  annotations: { title: "Edit a Jira comment", ...WRITES, idempotentHint: true },
  async run({ issueKey: given, commentId: id, body }, ctx) {
    const key = given.toUpperCase();
    await ctx.clients.jira.editComment(key, id, jiraText(body));
    const url = commentUrl(ctx, key, id);
    return { structured: { key, commentId: id, url }, text: `Edited comment ${id} on ${key}.${url ? `\n${url}` : ""}` };
  },
});

export const jiraDeleteComment = defineTool({
  name: "jira_delete_comment",
  service: "jira",
  toolset: "jira-comments",
  reaches: [
    { kind: "jira-issue", arg: "issueKey" },
    { kind: "jira-comment", arg: "commentId", issueArg: "issueKey" },
  ],
  scope: "write",
  description: "Delete a comment from a Jira issue. It cannot be undone. Find comment ids with jira_list_comments.",
  input: z.object({ issueKey, commentId }),
  output: z.object({ key: z.string(), commentId: z.string(), deleted: z.boolean() }),
  annotations: { title: "Delete a Jira comment", ...DESTRUCTIVE, idempotentHint: true },
  async run({ issueKey: given, commentId: id }, ctx) {
    const key = given.toUpperCase();
    await ctx.clients.jira.deleteComment(key, id);
    return { structured: { key, commentId: id, deleted: true }, text: `Deleted comment ${id} from ${key}.` };
  },
});

export const JIRA_COMMENTS_TOOLS = [jiraListComments, jiraEditComment, jiraDeleteComment];
