import { jiraError } from "../core/errors";
import { json, type Reply, type Router } from "../core/http";
import { parseMultipart } from "../core/multipart";
import { canSeeIssue } from "./access";
import { both, me, now, withIssue } from "./kit";
import type { Attachment, Issue, JiraState } from "./model";
import * as P from "./presenters";
import type { View } from "./presenters";
import { touch } from "./store";
import { jiraTime } from "./util";

/**
 * Attachments: upload (multipart/form-data, part name "file", with `X-Atlassian-Token: no-check`),
 * metadata, and content (a 303 to itself with `redirect=false` unless asked not to; `Range` gives 206).
 */

/** Jira Cloud's default attachment size limit is far larger; the sandbox keeps a small one. */
export const SANDBOX_ATTACHMENT_LIMIT = 1_500_000;

const GUESSED: Record<string, string> = {
  txt: "text/plain",
  md: "text/markdown",
  csv: "text/csv",
  log: "text/plain",
  json: "application/json",
  xml: "application/xml",
  html: "text/html",
  yaml: "application/yaml",
  yml: "application/yaml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  pdf: "application/pdf",
  zip: "application/zip",
};

/** Jira keeps the type the upload names, and guesses one from the extension when it names none (or only octet-stream). */
const mimeOf = (filename: string, given: string | undefined): string => {
  const named = given?.split(";")[0]?.trim().toLowerCase();
  if (named && named !== "application/octet-stream") return named;
  return GUESSED[filename.split(".").pop()?.toLowerCase() ?? ""] ?? "application/octet-stream";
};

export function presentAttachment(v: View, a: Attachment) {
  // Data Center serves the bytes from its attachment servlet under the context path, not from REST.
  const [content, thumbnail] = v.dataCenter
    ? [`${v.origin}/secure/attachment/${a.id}/${encodeURIComponent(a.filename)}`, `${v.origin}/secure/thumbnail/${a.id}/_thumb_${a.id}.png`]
    : [`${v.base}/attachment/content/${a.id}`, `${v.base}/attachment/thumbnail/${a.id}`];
  return {
    self: `${v.base}/attachment/${a.id}`,
    id: a.id,
    filename: a.filename,
    author: P.userById(v, a.authorId),
    created: jiraTime(a.created),
    size: a.data.length,
    mimeType: a.mimeType,
    content,
    ...(a.mimeType.startsWith("image/") ? { thumbnail } : {}),
  };
}

export const attachmentsOf = (state: JiraState, issue: Issue): Attachment[] =>
  [...state.attachments.values()].filter((a) => a.issueId === issue.id);

const NOT_FOUND = (id: string) => jiraError(404, `The attachment with id '${id}' does not exist.`);

/** An attachment whose issue is gone, or not browsable by the caller, is gone too. */
const findAttachment = (v: View, id: string): Attachment | undefined => {
  const a = v.state.attachments.get(id);
  const issue = a && v.state.issuesById.get(a.issueId);
  return issue && canSeeIssue(v, issue) ? a : undefined;
};

/** `bytes=a-b`, `bytes=a-` or `bytes=-n` against a size: the inclusive range, or null when it cannot be served. */
function byteRange(header: string, size: number): [number, number] | null {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === "" && m[2] === "")) return null;
  const [start, end] =
    m[1] === "" ? [Math.max(0, size - Number(m[2])), size - 1] : [Number(m[1]), m[2] === "" ? size - 1 : Math.min(size - 1, Number(m[2]))];
  return start <= end && start < size ? [start, end] : null;
}

export function attachmentRoutes(router: Router, state: () => JiraState): void {
  both(router, state, "post", "/issue/:issueIdOrKey/attachments", (req, v) =>
    withIssue(req, v, (issue): Reply => {
      if (String(req.headers["x-atlassian-token"] ?? "").toLowerCase() !== "no-check") return jiraError(403, "XSRF check failed");
      const parts = parseMultipart(req.body, req.headers["content-type"]);
      if (!parts) return jiraError(415, "The request must be multipart/form-data with the file in a part named 'file'.");
      const files = parts.filter((p) => p.name === "file" && p.filename !== null);
      if (files.length === 0) return jiraError(400, "No file was attached: send it in a multipart part named 'file'.");
      const tooLarge = files.find((f) => f.data.length > SANDBOX_ATTACHMENT_LIMIT);
      if (tooLarge)
        return jiraError(
          413,
          `The file '${tooLarge.filename ?? ""}' is larger than the attachment limit of ${SANDBOX_ATTACHMENT_LIMIT} bytes.`,
        );
      const at = now(v.state);
      const added = files.map((f) => {
        const id = String(v.state.next.attachment++);
        const a: Attachment = {
          id,
          issueId: issue.id,
          filename: f.filename || "attachment",
          authorId: me(v),
          created: at,
          mimeType: mimeOf(f.filename ?? "", f.contentType ?? undefined),
          data: Buffer.from(f.data),
        };
        v.state.attachments.set(id, a);
        return a;
      });
      touch(issue, at);
      return json(added.map((a) => presentAttachment(v, a)));
    }),
  );

  both(router, state, "get", "/attachment/:id", (req, v) => {
    const a = findAttachment(v, req.params.id ?? "");
    if (!a) return NOT_FOUND(req.params.id ?? "");
    const { content, thumbnail, ...meta } = presentAttachment(v, a);
    return json({ ...meta, id: Number(a.id), properties: {}, content, ...(thumbnail ? { thumbnail } : {}) });
  });

  both(router, state, "get", "/attachment/content/:id", (req, v) => {
    const a = findAttachment(v, req.params.id ?? "");
    if (!a) return NOT_FOUND(req.params.id ?? "");
    if (req.query.get("redirect") !== "false")
      return { status: 303, headers: { location: `${v.base}/attachment/content/${a.id}?redirect=false` } };
    const headers: Record<string, string> = {
      "accept-ranges": "bytes",
      "content-disposition": `attachment; filename="${a.filename.replace(/"/g, "")}"`,
    };
    const range = req.headers.range;
    if (typeof range === "string") {
      const r = byteRange(range, a.data.length);
      if (!r)
        return { status: 416, headers: { ...headers, "content-range": `bytes */${a.data.length}` }, text: "", contentType: "text/plain" };
      return {
        status: 206,
        bytes: a.data.subarray(r[0], r[1] + 1),
        contentType: a.mimeType,
        headers: { ...headers, "content-range": `bytes ${r[0]}-${r[1]}/${a.data.length}` },
      };
    }
    return { status: 200, bytes: a.data, contentType: a.mimeType, headers };
  });
}
