import { actorId, contentVisible } from "./access";
import { confluenceError } from "../core/errors";
import { json } from "../core/http";
import type { Router } from "../core/http";
import { parseMultipart } from "../core/multipart";
import { wikiBase } from "./links";
import { presentUser } from "./presenters";
import type { Attachment, ConfluenceState, Content } from "./types";
import { contentNotFound, findContent } from "./v1.common";
import { cursorPage, listParam, notFound } from "./v2.common";

/**
 * Page attachments: the v1 upload (multipart/form-data, with the XSRF opt-out header Confluence
 * requires), the v2 listing, and the download link both give.
 */

/** v1 refuses uploads over this (Confluence's default attachment limit is 100 MB; the sandbox keeps less). */
const MAX_ATTACHMENT_BYTES = 1024 * 1024 + 1024;

const downloadLink = (a: Attachment) =>
  `/download/attachments/${a.pageId}/${encodeURIComponent(a.title)}?version=1&modificationDate=${Date.parse(a.createdAt)}&api=v2`;
const webuiLink = (a: Attachment) =>
  `/pages/viewpageattachments.action?pageId=${a.pageId}&preview=${encodeURIComponent(`/${a.pageId}/${a.id.slice(3)}/${a.title}`)}`;
const fileId = (a: Attachment) => `${a.id.slice(3).padStart(8, "0")}-0000-4000-8000-${a.pageId.padStart(12, "0")}`;

function presentV2(a: Attachment) {
  return {
    id: a.id,
    status: "current",
    title: a.title,
    createdAt: a.createdAt,
    pageId: a.pageId,
    mediaType: a.mediaType,
    mediaTypeDescription: a.mediaType.split("/")[1]?.toUpperCase() ?? "File",
    comment: a.comment,
    fileId: fileId(a),
    fileSize: a.data.length,
    webuiLink: webuiLink(a),
    downloadLink: downloadLink(a),
    version: { createdAt: a.createdAt, message: "", number: 1, minorEdit: false, authorId: a.authorId },
    _links: { webui: webuiLink(a), download: downloadLink(a) },
  };
}

export function attachmentRoutes(router: Router, state: () => ConfluenceState): void {
  router.post("/wiki/rest/api/content/:id/child/attachment", (req) => {
    const st = state();
    if (String(req.headers["x-atlassian-token"] ?? "").toLowerCase() !== "nocheck") return confluenceError(403, "XSRF check failed");
    const page: Content | undefined = findContent(st, req, req.params.id!);
    if (!page || page.type === "comment") return contentNotFound(req.params.id!);
    const parts = parseMultipart(req.body, req.headers["content-type"]);
    if (!parts) return confluenceError(400, "The request must be multipart/form-data with a file part");
    const files = parts.filter((p) => p.name === "file" && p.filename !== null);
    if (files.length === 0) return confluenceError(400, "At least one file must be given (a form part named file)");
    const comments = parts.filter((p) => p.name === "comment").map((p) => p.data.toString("utf8"));
    const list = st.attachments.get(page.id) ?? [];
    const made: Attachment[] = [];
    for (const [i, file] of files.entries()) {
      const title = file.filename!.trim();
      if (!title) return confluenceError(400, "The file name must not be empty");
      if (file.data.length > MAX_ATTACHMENT_BYTES) return confluenceError(413, `The file ${title} is larger than the attachment limit`);
      if ([...list, ...made].some((a) => a.title === title))
        return confluenceError(400, `Cannot add a new attachment with same file name as an existing attachment: ${title}`);
      st.nextId += 1;
      made.push({
        id: `att${st.nextId}`,
        pageId: page.id,
        title,
        mediaType: file.contentType ?? "application/octet-stream",
        comment: comments[i] ?? "",
        createdAt: new Date().toISOString(),
        authorId: actorId(req, st),
        data: Buffer.from(file.data),
      });
    }
    st.attachments.set(page.id, [...list, ...made]);
    const base = wikiBase(req);
    return json({
      results: made.map((a) => ({
        id: a.id,
        type: "attachment",
        status: "current",
        title: a.title,
        version: { by: presentUser(req, st, a.authorId), when: a.createdAt, number: 1, minorEdit: false, message: "" },
        container: { id: page.id, type: page.type, status: page.status, title: page.title },
        metadata: {
          mediaType: a.mediaType,
          comment: a.comment,
          _expandable: { currentuser: "", properties: "", frontend: "", labels: "" },
        },
        extensions: {
          mediaType: a.mediaType,
          fileSize: a.data.length,
          comment: a.comment,
          mediaTypeDescription: presentV2(a).mediaTypeDescription,
          fileId: fileId(a),
        },
        _links: { webui: webuiLink(a), download: downloadLink(a), self: `${base}/rest/api/content/${a.id}` },
      })),
      start: 0,
      limit: 50,
      size: made.length,
      _links: { base, context: "/wiki" },
    });
  });

  router.get("/wiki/api/v2/pages/:id/attachments", (req) => {
    const st = state();
    const page = st.content.get(req.params.id!);
    if (!page || page.type !== "page" || page.status !== "current" || !contentVisible(req, page)) return notFound();
    const mediaType = req.query.get("mediaType");
    const filenames = listParam(req.query, "filename");
    const items = (st.attachments.get(page.id) ?? []).filter(
      (a) => (!mediaType || a.mediaType === mediaType) && (filenames.length === 0 || filenames.includes(a.title)),
    );
    return cursorPage(req, items, presentV2);
  });

  router.get("/wiki/download/attachments/:pageId/:filename", (req) => {
    const st = state();
    const page = st.content.get(req.params.pageId!);
    const found =
      page && contentVisible(req, page) ? st.attachments.get(req.params.pageId!)?.find((a) => a.title === req.params.filename) : undefined;
    if (!found) return confluenceError(404, `No attachment ${req.params.filename ?? ""} on content ${req.params.pageId ?? ""}`);
    return {
      status: 200,
      bytes: found.data,
      contentType: found.mediaType,
      headers: { "content-disposition": `attachment; filename="${encodeURIComponent(found.title)}"` },
    };
  });
}
