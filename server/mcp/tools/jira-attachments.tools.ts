import { z } from "zod";
import type { JiraAttachment } from "../../upstream/jira.client";
import { nameOf } from "./format";
import { browseUrl, ISSUE_KEY } from "./jira-common";
import { defineTool, READ_ONLY, ToolError, wellFormed, WRITES, type ToolContext } from "./tool";

/**
 * A Jira issue's attachments: listing them, adding a file (text, or base64 for binary content;
 * bounded), and reading a text attachment (bounded, with a `truncated` flag). An attachment is
 * always named with its issue, so the client's Jira allow-list applies to it.
 */

const issueKey = z
  .string()
  .trim()
  .regex(ISSUE_KEY, "issueKey must be an issue key such as BK-12 (or a numeric id)")
  .describe("The issue key, e.g. BK-12.");
/** The largest file jira_add_attachment sends, decoded. */
export const MAX_ATTACHMENT_BYTES = 1024 * 1024;
const MAX_READ_BYTES = 100_000;

const TEXT_TYPES =
  /^(?:text\/|application\/(?:json|xml|csv|yaml|x-yaml|javascript|x-javascript|x-sh|sql|graphql|x-ndjson|ld\+json)\b|application\/[\w.+-]+\+(?:json|xml)\b)/i;
const isText = (mimeType: string | undefined) => mimeType !== undefined && TEXT_TYPES.test(mimeType);

const EXTENSION_TYPES: Record<string, string> = {
  txt: "text/plain",
  log: "text/plain",
  md: "text/markdown",
  csv: "text/csv",
  tsv: "text/tab-separated-values",
  html: "text/html",
  json: "application/json",
  xml: "application/xml",
  yaml: "application/yaml",
  yml: "application/yaml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  svg: "image/svg+xml",
  pdf: "application/pdf",
  zip: "application/zip",
};
const guessType = (filename: string, encoding: "text" | "base64") =>
  EXTENSION_TYPES[filename.split(".").pop()?.toLowerCase() ?? ""] ?? (encoding === "text" ? "text/plain" : "application/octet-stream");

const AttachmentSchema = z.object({
  id: z.string(),
  filename: z.string(),
  size: z.number().int(),
  mimeType: z.string().nullable(),
  author: z.string().nullable(),
  created: z.string().nullable(),
});

const present = (a: JiraAttachment) => ({
  id: String(a.id),
  filename: a.filename,
  size: a.size,
  mimeType: a.mimeType ?? null,
  author: nameOf(a.author),
  created: a.created ?? null,
});

const line = (a: ReturnType<typeof present>) =>
  `- ${a.id}: ${a.filename} (${a.mimeType ?? "?"}, ${a.size} bytes)${a.author ? ` by ${a.author}` : ""}`;

async function attachmentsOf(ctx: ToolContext, key: string) {
  const issue = await ctx.clients.jira.getIssue(key, { fields: ["attachment"] });
  return (Array.isArray(issue.fields.attachment) ? (issue.fields.attachment as JiraAttachment[]) : []).map(present);
}

export const jiraListAttachments = defineTool({
  name: "jira_list_attachments",
  service: "jira",
  toolset: "jira-attachments",
  reaches: [{ kind: "jira-issue", arg: "issueKey" }],
  scope: "read",
  description: "The files attached to a Jira issue: id (for jira_read_attachment), name, type, size.",
  input: z.object({ issueKey }),
  output: z.object({ key: z.string(), attachments: z.array(AttachmentSchema) }),
  annotations: { title: "List a Jira issue's attachments", ...READ_ONLY },
  async run({ issueKey: given }, ctx) {
    const key = given.toUpperCase();
    const attachments = await attachmentsOf(ctx, key);
    return {
      structured: { key, attachments },
      text: attachments.length
        ? [`${attachments.length} attachment${attachments.length === 1 ? "" : "s"} on ${key}:`, ...attachments.map(line)].join("\n")
        : `${key} has no attachments.`,
    };
  },
});

export const jiraAddAttachment = defineTool({
  name: "jira_add_attachment",
  service: "jira",
  toolset: "jira-attachments",
  reaches: [{ kind: "jira-issue", arg: "issueKey" }],
  scope: "write",
  description: 'Attach a file (at most 1 MB) to a Jira issue: its content as text, or as base64 with encoding "base64" for binary files.',
  input: z.object({
    issueKey,
    filename: wellFormed(
      z
        .string()
        .trim()
        .min(1, "filename must not be empty")
        .max(255, "filename may be at most 255 characters")
        .refine(
          (v) => !/[/\\"]/.test(v) && ![...v].some((ch) => ch.charCodeAt(0) < 32),
          "filename must be a plain file name such as notes.txt (no slashes, quotes or control characters)",
        ),
      "filename",
    ),
    content: z
      .string()
      .max(1_500_000, "content may be at most 1500000 characters (1 MB of file)")
      .describe("The file's content: text, or base64."),
    encoding: z.enum(["text", "base64"], { error: "encoding must be text or base64" }).default("text"),
    mimeType: z
      .string()
      .trim()
      .regex(/^[\w.+-]+\/[\w.+-]+$/, "mimeType must be a media type such as text/plain")
      .max(100)
      .optional()
      .describe("Default: from the file name's extension."),
  }),
  output: z.object({ key: z.string(), attachment: AttachmentSchema, url: z.string().nullable() }),
  annotations: { title: "Attach a file to a Jira issue", ...WRITES },
  async run({ issueKey: given, filename, content, encoding, mimeType }, ctx) {
    const key = given.toUpperCase();
    let data: Buffer;
    if (encoding === "base64") {
      const compact = content.replace(/\s+/g, "");
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 !== 0)
        throw new ToolError(
          'content is not valid base64 (A-Z, a-z, 0-9, + and /, padded with = to a multiple of 4). Send text with encoding "text" instead.',
        );
      data = Buffer.from(compact, "base64");
    } else data = Buffer.from(content, "utf8");
    if (data.length > MAX_ATTACHMENT_BYTES)
      throw new ToolError(
        `The file is ${data.length} bytes; attachments added through Bridgekeeper may be at most ${MAX_ATTACHMENT_BYTES} bytes (1 MB). Attach a smaller file, or split it.`,
      );
    const added = await ctx.clients.jira.addAttachment(key, { filename, mimeType: mimeType ?? guessType(filename, encoding), data });
    const first = added[0];
    if (!first)
      throw new ToolError(`Jira accepted the upload to ${key} but reported no attachment. List the issue's attachments to check.`);
    const attachment = present(first);
    const url = browseUrl(ctx, key);
    return {
      structured: { key, attachment, url },
      text: `Attached ${attachment.filename} (${attachment.mimeType ?? "?"}, ${attachment.size} bytes) to ${key} as attachment ${attachment.id}.${url ? `\n${url}` : ""}`,
    };
  },
});

export const jiraReadAttachment = defineTool({
  name: "jira_read_attachment",
  service: "jira",
  toolset: "jira-attachments",
  reaches: [{ kind: "jira-issue", arg: "issueKey" }],
  scope: "read",
  description: "Read a text attachment of a Jira issue (text, JSON, XML, CSV ...), up to maxBytes; binary files cannot be read.",
  input: z.object({
    issueKey,
    attachmentId: z
      .string()
      .trim()
      .regex(/^\d{1,18}$/, "attachmentId must be an attachment id from jira_list_attachments"),
    maxBytes: z
      .number()
      .int("maxBytes must be a whole number")
      .min(100, "maxBytes must be at least 100")
      .max(MAX_READ_BYTES, `maxBytes may be at most ${MAX_READ_BYTES}`)
      .default(20_000),
  }),
  output: z.object({
    key: z.string(),
    id: z.string(),
    filename: z.string(),
    mimeType: z.string().nullable(),
    size: z.number().int(),
    truncated: z.boolean(),
    content: z.string(),
  }),
  annotations: { title: "Read a Jira text attachment", ...READ_ONLY },
  async run({ issueKey: given, attachmentId, maxBytes }, ctx) {
    const key = given.toUpperCase();
    // An attachment is placed by its issue: it must be one of this issue's, so the allow-list holds.
    const listed = await attachmentsOf(ctx, key);
    if (!listed.some((a) => a.id === attachmentId)) {
      throw new ToolError(
        `${key} has no attachment ${attachmentId}. ${listed.length ? `Its attachments: ${listed.map((a) => `${a.id} (${a.filename})`).join(", ")}.` : "It has no attachments."}`,
      );
    }
    const meta = present(await ctx.clients.jira.attachment(attachmentId));
    if (!isText(meta.mimeType ?? undefined)) {
      throw new ToolError(
        `${meta.filename} is ${meta.mimeType ?? "of an unknown type"}, a binary file: it cannot be read as text. Only text attachments (text/*, JSON, XML, CSV, YAML) can be read.`,
      );
    }
    const raw = meta.size === 0 ? "" : await ctx.clients.jira.attachmentText(attachmentId, Math.min(maxBytes, meta.size));
    if (raw.includes("\u0000"))
      throw new ToolError(`${meta.filename} says it is ${meta.mimeType ?? "text"} but holds binary data: it cannot be read as text.`);
    const truncated = meta.size > maxBytes;
    // A cut through a multi-byte character decodes to a replacement character at the end.
    const content = truncated ? raw.replace(/\uFFFD+$/, "") : raw;
    const note = truncated
      ? `\n\n[truncated: the first ${maxBytes} of ${meta.size} bytes${maxBytes < MAX_READ_BYTES ? `; raise maxBytes (up to ${MAX_READ_BYTES}) for more` : ""}]`
      : "";
    return {
      structured: { key, id: meta.id, filename: meta.filename, mimeType: meta.mimeType, size: meta.size, truncated, content },
      text: `# ${meta.filename} (${meta.mimeType ?? "?"}, ${meta.size} bytes) on ${key}\n\n${content}${note}`,
    };
  },
});

export const JIRA_ATTACHMENTS_TOOLS = [jiraListAttachments, jiraAddAttachment, jiraReadAttachment];
