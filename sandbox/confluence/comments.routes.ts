import { actorId, contentVisible } from "./access";
import { randomUUID } from "node:crypto";
import { json } from "../core/http";
import type { Reply, Router, SandboxRequest } from "../core/http";
import { escapeXml } from "./render";
import { commentsOf } from "./presenters";
import { createContent, textFields, updateContent } from "./store";
import type { ConfluenceState, Content, InlineResolution } from "./types";
import { currentVersion } from "./types";
import { BODY_FORMATS_LIST, bodyFormat, cursorPage, notFound, presentCommentV2, storageFromV2, v2Error } from "./v2.common";

/**
 * v2 comments beyond the footer listing: one comment of either kind, inline comments (listed,
 * replied to, resolved), and creating footer and inline comments. An inline comment wraps the text
 * it highlights in an `ac:inline-comment-marker` in the page's storage, as Confluence does.
 */

const V2 = "/wiki/api/v2";
type Kind = "footer" | "inline";
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const kindOf = (c: Content): Kind => (c.inline ? "inline" : "footer");

function commentOfKind(req: SandboxRequest, state: ConfluenceState, id: string, kind: Kind): Content | undefined {
  const c = state.content.get(id);
  return c && c.type === "comment" && c.status === "current" && kindOf(c) === kind && contentVisible(req, c) ? c : undefined;
}

/** The text between tags (CDATA excluded): [start, end) ranges of the storage. */
function textRanges(storage: string): [number, number][] {
  const out: [number, number][] = [];
  let last = 0;
  for (const m of storage.matchAll(/<!\[CDATA\[[\s\S]*?\]\]>|<[^>]*>/g)) {
    if (m.index > last) out.push([last, m.index]);
    last = m.index + m[0].length;
  }
  if (last < storage.length) out.push([last, storage.length]);
  return out;
}

/** Where `selection` occurs in the page's text (not across tags). */
function occurrences(storage: string, selection: string): number[] {
  const needle = escapeXml(selection);
  const found: number[] = [];
  for (const [start, end] of textRanges(storage)) {
    const text = storage.slice(start, end);
    for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) found.push(start + at);
  }
  return found;
}

function createComment(req: SandboxRequest, state: ConfluenceState, kind: Kind): Reply {
  const b = req.body;
  if (!isRecord(b)) return v2Error(400, "The request body must be a JSON object");
  const body = storageFromV2(b.body);
  if (body === undefined || (typeof body === "string" && body.trim() === "")) return v2Error(400, "body is required");
  if (typeof body === "object") return v2Error(400, body.error);
  if (b.parentCommentId !== undefined) {
    const parent = commentOfKind(req, state, String(b.parentCommentId), kind);
    if (!parent?.containerId) return v2Error(404, "Not Found", `No ${kind} comment with id ${String(b.parentCommentId)}`);
    const container = state.content.get(parent.containerId)!;
    const reply = createContent(state, {
      type: "comment",
      title: `Re: ${container.title}`,
      spaceKey: container.spaceKey,
      parentId: parent.id,
      containerId: container.id,
      body,
      status: "current",
      authorId: actorId(req, state),
    });
    if (parent.inline) reply.inline = { ...parent.inline };
    return json(presentCommentV2(state, reply, "storage"));
  }
  const idKey = kind === "footer" && b.blogPostId !== undefined ? "blogPostId" : "pageId";
  const found = state.content.get(String(b[idKey] ?? ""));
  const container = found && contentVisible(req, found) ? found : undefined;
  if (!container || container.status !== "current" || container.type !== (idKey === "pageId" ? "page" : "blogpost"))
    return v2Error(400, `Invalid ${idKey}: ${String(b[idKey] ?? "")}`, "Provide exactly one of pageId, blogPostId or parentCommentId");
  let inline: Content["inline"];
  if (kind === "inline") {
    const props = isRecord(b.inlineCommentProperties) ? b.inlineCommentProperties : undefined;
    const selection = typeof props?.textSelection === "string" ? props.textSelection : "";
    if (!selection.trim()) return v2Error(400, "inlineCommentProperties.textSelection is required");
    const found = occurrences(container.body, selection);
    const count = Number(props?.textSelectionMatchCount);
    const index = Number(props?.textSelectionMatchIndex);
    if (found.length === 0)
      return v2Error(400, "The text selection was not found on the page", `'${selection}' does not occur in the page's text`);
    if (!Number.isInteger(count) || count !== found.length)
      return v2Error(400, "textSelectionMatchCount does not match the page", `The selection occurs ${found.length} times`);
    if (!Number.isInteger(index) || index < 0 || index >= found.length)
      return v2Error(400, "textSelectionMatchIndex is out of range", `Use 0 to ${found.length - 1}`);
    // The marker goes into the page's storage (no new page version, as in Confluence).
    const markerRef = randomUUID();
    const at = found[index]!;
    const needle = escapeXml(selection);
    container.body = `${container.body.slice(0, at)}<ac:inline-comment-marker ac:ref="${markerRef}">${needle}</ac:inline-comment-marker>${container.body.slice(at + needle.length)}`;
    Object.assign(container, textFields(container.title, container.body));
    const version = currentVersion(container);
    if (version.body !== undefined) version.body = container.body;
    inline = { markerRef, selection, resolution: "open" };
  }
  const comment = createContent(state, {
    type: "comment",
    title: `Re: ${container.title}`,
    spaceKey: container.spaceKey,
    parentId: null,
    containerId: container.id,
    body,
    status: "current",
    authorId: actorId(req, state),
  });
  if (inline) comment.inline = inline;
  return json(presentCommentV2(state, comment, "storage"));
}

/** PUT inline-comments/{id}: a new body (next version) and, for a top-level one, `resolved`. */
function updateInline(req: SandboxRequest, state: ConfluenceState, c: Content): Reply {
  const b = req.body;
  if (!isRecord(b)) return v2Error(400, "The request body must be a JSON object");
  const version = isRecord(b.version) ? Number(b.version.number) : NaN;
  const current = currentVersion(c).number;
  if (version !== current + 1) return v2Error(409, `Version must be incremented on update. Current version is: ${current}`);
  const body = storageFromV2(b.body);
  if (typeof body === "object") return v2Error(400, body.error);
  if (b.resolved !== undefined) {
    if (typeof b.resolved !== "boolean") return v2Error(400, "resolved must be true or false");
    if (c.parentId !== null) return v2Error(400, "Only a top-level inline comment can be resolved");
    const next: InlineResolution = b.resolved ? "resolved" : c.inline!.resolution === "resolved" ? "reopened" : c.inline!.resolution;
    c.inline!.resolution = next;
  }
  updateContent(c, { body: body ?? c.body, authorId: actorId(req, state) });
  return json(presentCommentV2(state, c, "storage"));
}

export function commentRoutes(router: Router, state: () => ConfluenceState): void {
  router.get(`${V2}/pages/:id/inline-comments`, (req) => {
    const st = state();
    const page = st.content.get(req.params.id!);
    if (!page || page.type !== "page" || page.status !== "current" || !contentVisible(req, page)) return notFound();
    const format = bodyFormat(req, BODY_FORMATS_LIST);
    if (format !== null && typeof format === "object") return format;
    const wanted = req.query.getAll("resolution-status").flatMap((v) => v.split(","));
    const items = commentsOf(st, page, false, "inline").filter((c) => wanted.length === 0 || wanted.includes(c.inline!.resolution));
    return cursorPage(req, items, (c) => presentCommentV2(st, c, format));
  });

  for (const kind of ["footer", "inline"] as const) {
    router.post(`${V2}/${kind}-comments`, (req) => createComment(req, state(), kind));
    router.get(`${V2}/${kind}-comments/:id`, (req) => {
      const st = state();
      const c = commentOfKind(req, st, req.params.id!, kind);
      if (!c) return notFound();
      const format = bodyFormat(req, BODY_FORMATS_LIST);
      if (format !== null && typeof format === "object") return format;
      return json(presentCommentV2(st, c, format));
    });
  }

  router.get(`${V2}/inline-comments/:id/children`, (req) => {
    const st = state();
    const comment = commentOfKind(req, st, req.params.id!, "inline");
    if (!comment?.containerId) return notFound();
    const format = bodyFormat(req, BODY_FORMATS_LIST);
    if (format !== null && typeof format === "object") return format;
    const replies = commentsOf(st, st.content.get(comment.containerId)!, true, "inline").filter((c) => c.parentId === comment.id);
    return cursorPage(req, replies, (c) => presentCommentV2(st, c, format));
  });

  router.put(`${V2}/inline-comments/:id`, (req) => {
    const st = state();
    const c = commentOfKind(req, st, req.params.id!, "inline");
    return c ? updateInline(req, st, c) : notFound();
  });
}
