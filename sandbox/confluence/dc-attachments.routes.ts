import { json } from "../core/http";
import type { Reply, Router, SandboxRequest } from "../core/http";
import { parseMultipart, type FormPart } from "../core/multipart";
import { actorId, contentVisible } from "./access";
import { CONTEXT, dcBase, dcError, dcFind, dcNotFound, dcPage } from "./dc-common";
import { attachmentHistory, presentDcAttachment } from "./dc-presenters";
import { parseExpand } from "./links";
import type { Attachment, ConfluenceState, Content } from "./types";

/**
 * Confluence Data Center's attachments (`/rest/api/content/{id}/child/attachment`): listing, the
 * multipart upload (refused without `X-Atlassian-Token: no-check`, and for a file name the page
 * already has), and the upload of new data to an existing attachment (`…/{attachmentId}/data`),
 * which makes its next version, as DC does.
 */

/** The sandbox keeps files small (DC's default limit is 100 MB). */
const MAX_ATTACHMENT_BYTES = 1024 * 1024 + 1024;

/** Atlassian's XSRF opt-out: DC documents `no-check`; `nocheck` is accepted too. */
const xsrfOptedOut = (req: SandboxRequest) =>
  ["no-check", "nocheck"].includes(String(req.headers["x-atlassian-token"] ?? "").toLowerCase());

/** The page (or blog post) an attachment goes on, or the reply that says why not. */
function container(req: SandboxRequest, state: ConfluenceState): Content | Reply {
  if (!xsrfOptedOut(req)) return dcError(403, "XSRF check failed");
  const page = dcFind(state, req, req.params.id!);
  if (!page || page.type === "comment") return dcNotFound(req.params.id!);
  return page;
}

/** The form's files, or the reply that says what is wrong with it. */
function filesOf(req: SandboxRequest): { files: FormPart[]; comments: string[] } | Reply {
  const parts = parseMultipart(req.body, req.headers["content-type"]);
  if (!parts) return dcError(400, "The request must be multipart/form-data with a file part");
  const files = parts.filter((p) => p.name === "file" && p.filename !== null);
  if (files.length === 0) return dcError(400, "At least one file must be given (a form part named file)");
  for (const f of files) {
    if (!f.filename!.trim()) return dcError(400, "The file name must not be empty");
    if (f.data.length > MAX_ATTACHMENT_BYTES) return dcError(413, `The file ${f.filename!} is larger than the attachment limit`);
  }
  return { files, comments: parts.filter((p) => p.name === "comment").map((p) => p.data.toString("utf8")) };
}

const WRITE_EXPAND = new Set(["version", "container"]);

function upload(req: SandboxRequest, state: ConfluenceState): Reply {
  const page = container(req, state);
  if (!("id" in page)) return page;
  const form = filesOf(req);
  if (!("files" in form)) return form;
  const list = state.attachments.get(page.id) ?? [];
  const made: Attachment[] = [];
  for (const [i, file] of form.files.entries()) {
    const title = file.filename!.trim();
    if ([...list, ...made].some((a) => a.title === title))
      return dcError(400, `Cannot add a new attachment with same file name as an existing attachment: ${title}`);
    state.nextId += 1;
    made.push({
      id: `att${state.nextId}`,
      pageId: page.id,
      title,
      mediaType: file.contentType ?? "application/octet-stream",
      comment: form.comments[i] ?? "",
      createdAt: new Date().toISOString(),
      authorId: actorId(req, state),
      data: Buffer.from(file.data),
    });
  }
  state.attachments.set(page.id, [...list, ...made]);
  return json({
    results: made.map((a) => presentDcAttachment(req, state, a, WRITE_EXPAND)),
    size: made.length,
    _links: { base: dcBase(req), context: CONTEXT },
  });
}

/** POST …/child/attachment/{attachmentId}/data: the attachment's next version, its data (and name, comment, type) replaced. */
function updateData(req: SandboxRequest, state: ConfluenceState): Reply {
  const page = container(req, state);
  if (!("id" in page)) return page;
  const found = state.attachments.get(page.id)?.find((a) => a.id === req.params.attachmentId);
  if (!found) return dcError(404, `No attachment with id ${req.params.attachmentId ?? ""} on content ${page.id}`);
  const form = filesOf(req);
  if (!("files" in form)) return form;
  if (form.files.length !== 1) return dcError(400, "Exactly one file must be given to update an attachment's data");
  const file = form.files[0]!;
  const title = file.filename!.trim();
  if (title !== found.title && state.attachments.get(page.id)!.some((a) => a.title === title))
    return dcError(400, `Cannot rename the attachment to an existing attachment's file name: ${title}`);
  const versions = attachmentHistory(found);
  found.title = title;
  found.data = Buffer.from(file.data);
  found.mediaType = file.contentType ?? found.mediaType;
  if (form.comments[0] !== undefined) found.comment = form.comments[0];
  versions.push({
    number: versions.at(-1)!.number + 1,
    when: new Date().toISOString(),
    by: actorId(req, state),
    message: form.comments[0] ?? "",
    minorEdit: true,
  });
  return json(presentDcAttachment(req, state, found, WRITE_EXPAND));
}

export function dcAttachmentRoutes(router: Router, state: () => ConfluenceState): void {
  router.get("/rest/api/content/:id/child/attachment", (req) => {
    const st = state();
    const page = dcFind(st, req, req.params.id!);
    if (!page) return dcNotFound(req.params.id!);
    const filename = req.query.get("filename");
    const mediaType = req.query.get("mediaType");
    const items = (st.attachments.get(page.id) ?? []).filter(
      (a) => (!filename || a.title === filename) && (!mediaType || a.mediaType === mediaType),
    );
    const expand = parseExpand(req.query);
    return dcPage(req, items, (a) => presentDcAttachment(req, st, a, expand), { maxLimit: 200 });
  });

  router.post("/rest/api/content/:id/child/attachment", (req) => upload(req, state()));
  router.post("/rest/api/content/:id/child/attachment/:attachmentId/data", (req) => updateData(req, state()));

  router.get("/download/attachments/:pageId/:filename", (req) => {
    const st = state();
    const page = st.content.get(req.params.pageId!);
    const found =
      page && contentVisible(req, page) ? st.attachments.get(req.params.pageId!)?.find((a) => a.title === req.params.filename) : undefined;
    if (!found) return dcError(404, `No attachment ${req.params.filename ?? ""} on content ${req.params.pageId ?? ""}`);
    return {
      status: 200,
      bytes: found.data,
      contentType: found.mediaType,
      headers: { "content-disposition": `attachment; filename="${encodeURIComponent(found.title)}"` },
    };
  });
}
