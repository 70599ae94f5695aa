import { z } from "zod";
import { isUpstreamError } from "../../upstream/errors";
import { readPage, pageUrl, wikiUrl } from "./confluence-common";
import { cursorArg } from "./cursor";
import { defineTool, READ_ONLY, ToolError, wellFormed, WRITES } from "./tool";

/** A page's attachments: listing them, and uploading a small file (text or base64). */

const pageId = z
  .string()
  .trim()
  .regex(/^\d{1,20}$/, "pageId must be a numeric page id such as 1081519")
  .describe("The page id.");

/** The most an upload may hold, decoded: files pass through the model's context, so they stay small. */
export const MAX_UPLOAD_BYTES = 1024 * 1024;

const MEDIA_TYPES: Record<string, string> = {
  txt: "text/plain",
  log: "text/plain",
  md: "text/markdown",
  csv: "text/csv",
  html: "text/html",
  xml: "application/xml",
  json: "application/json",
  yaml: "application/yaml",
  yml: "application/yaml",
  pdf: "application/pdf",
  zip: "application/zip",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  svg: "image/svg+xml",
  webp: "image/webp",
};

/** The media type a file name suggests; text content without a known extension is plain text. */
export function mediaTypeOf(filename: string, encoding: "text" | "base64"): string {
  const ext = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase();
  return (ext && MEDIA_TYPES[ext]) ?? (encoding === "text" ? "text/plain" : "application/octet-stream");
}

const size = (bytes: number) =>
  bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const AttachmentSchema = z.object({
  id: z.string(),
  title: z.string(),
  mediaType: z.string().nullable(),
  size: z.number().int().nullable(),
  comment: z.string().nullable(),
  created: z.string().nullable(),
  downloadUrl: z.string().nullable(),
});

export const confluenceListAttachments = defineTool({
  name: "confluence_list_attachments",
  service: "confluence",
  toolset: "confluence-attachments",
  reaches: [{ kind: "confluence-page", arg: "pageId" }],
  scope: "read",
  description: "A Confluence page's attachments: file name, media type, size and download link. Pass nextCursor for more.",
  input: z.object({
    pageId,
    maxResults: z.number().int().min(1, "maxResults must be at least 1").max(100, "maxResults may be at most 100").default(25),
    cursor: cursorArg,
  }),
  output: z.object({ pageId: z.string(), title: z.string(), attachments: z.array(AttachmentSchema), nextCursor: z.string().nullable() }),
  annotations: { title: "List a Confluence page's attachments", ...READ_ONLY },
  async run({ pageId: id, maxResults, cursor }, ctx) {
    const scope = `confluence_list_attachments\u0000${id}`;
    const upstream = cursor === undefined ? undefined : ctx.cursors.open(scope, cursor);
    const page = await readPage(ctx, id);
    const listed = await ctx.clients.confluence.attachments(id, { limit: maxResults, ...(upstream ? { cursor: upstream } : {}) });
    const attachments = listed.results.map((a) => ({
      id: String(a.id),
      title: a.title,
      mediaType: a.mediaType ?? null,
      size: typeof a.fileSize === "number" ? a.fileSize : null,
      comment: a.comment || null,
      created: a.createdAt ?? null,
      downloadUrl: wikiUrl(ctx, a.downloadLink ?? a._links?.download),
    }));
    const nextCursor = listed.nextCursor ? ctx.cursors.seal(scope, listed.nextCursor) : null;
    const lines = attachments.map(
      (a) =>
        `- ${a.title} (${[a.mediaType, a.size === null ? null : size(a.size), `id ${a.id}`].filter(Boolean).join(" · ")})${a.comment ? `: ${a.comment}` : ""}${a.downloadUrl ? `\n  ${a.downloadUrl}` : ""}`,
    );
    const head = attachments.length
      ? `${attachments.length} attachment${attachments.length === 1 ? "" : "s"} on "${page.title}" (id ${id}):`
      : `No attachments${cursor ? " left" : ""} on "${page.title}" (id ${id}).`;
    return {
      structured: { pageId: id, title: page.title, attachments, nextCursor },
      text: [head, ...lines, ...(nextCursor ? [`nextCursor: ${nextCursor}`] : [])].join("\n"),
    };
  },
});

export const confluenceUploadAttachment = defineTool({
  name: "confluence_upload_attachment",
  service: "confluence",
  toolset: "confluence-attachments",
  reaches: [{ kind: "confluence-page", arg: "pageId" }],
  scope: "write",
  description: "Attach a file of at most 1 MB to a Confluence page: text as is, or binary as base64. A page's file names are unique.",
  input: z.object({
    pageId,
    filename: wellFormed(
      z
        .string()
        .trim()
        .min(1, "filename must not be empty")
        .max(255, "filename may be at most 255 characters")
        .refine(
          (name) => !/[/\\]/.test(name) && ![...name].some((c) => c.charCodeAt(0) < 32),
          "filename must be a plain file name such as report.csv (no slashes or control characters)",
        ),
      "filename",
    ),
    content: z
      .string()
      .max(1_500_000, "content may be at most 1500000 characters (1 MB as base64)")
      .describe("The file's content: text, or base64."),
    encoding: z.enum(["text", "base64"], { error: "encoding must be text or base64" }).default("text"),
    mediaType: z
      .string()
      .trim()
      .regex(/^[\w.+-]+\/[\w.+-]+$/, "mediaType must look like text/csv")
      .optional()
      .describe("By default, from the file name."),
    comment: z.string().trim().max(255, "comment may be at most 255 characters").optional(),
  }),
  output: z.object({
    pageId: z.string(),
    id: z.string(),
    title: z.string(),
    mediaType: z.string(),
    size: z.number().int(),
    downloadUrl: z.string().nullable(),
    url: z.string().nullable(),
  }),
  annotations: { title: "Attach a file to a Confluence page", ...WRITES },
  async run({ pageId: id, filename, content, encoding, mediaType, comment }, ctx) {
    let data: Buffer;
    if (encoding === "base64") {
      const compact = content.replace(/\s+/g, "");
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1)
        throw new ToolError(
          "content is not valid base64 (letters, digits, + and /, padded with =). Encode the file's bytes again, or pass text with encoding text.",
        );
      data = Buffer.from(compact, "base64");
    } else {
      data = Buffer.from(content, "utf8");
    }
    if (data.length > MAX_UPLOAD_BYTES)
      throw new ToolError(
        `The file is ${data.length.toLocaleString("en")} bytes; uploads are limited to 1 MB (${MAX_UPLOAD_BYTES.toLocaleString("en")} bytes). Upload a smaller file.`,
      );
    const page = await readPage(ctx, id);
    const type = mediaType ?? mediaTypeOf(filename, encoding);
    const uploaded = await ctx.clients.confluence
      .uploadAttachment(id, { name: filename, data, mediaType: type, ...(comment ? { comment } : {}) })
      .catch((err: unknown) => {
        if (isUpstreamError(err) && err.kind === "bad_request" && /same file name/i.test(err.message))
          throw new ToolError(`Page ${id} already has an attachment named ${filename}. Choose another file name.`);
        throw err;
      });
    const made = uploaded.results[0];
    if (!made)
      throw new ToolError(
        `Confluence accepted the upload to page ${id} but named no attachment. List the page's attachments with confluence_list_attachments to check.`,
      );
    const structured = {
      pageId: id,
      id: String(made.id),
      title: made.title,
      mediaType: made.extensions?.mediaType ?? type,
      size: made.extensions?.fileSize ?? data.length,
      downloadUrl: wikiUrl(ctx, made._links?.download),
      url: pageUrl(ctx, page),
    };
    return {
      structured,
      text: `Attached ${structured.title} (${structured.mediaType}, ${size(structured.size)}) to "${page.title}" (id ${id}) as ${structured.id}.${structured.downloadUrl ? `\n${structured.downloadUrl}` : ""}`,
    };
  },
});

export const CONFLUENCE_ATTACHMENTS_TOOLS = [confluenceListAttachments, confluenceUploadAttachment];
