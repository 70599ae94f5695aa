import { intParam, json } from "../core/http";
import type { Reply, SandboxRequest } from "../core/http";
import { decodeCursor, editui, encodeCursor, tinyui, webui, wikiBase, withQuery } from "./links";
import { toAdf, viewHtml } from "./render";
import type { ConfluenceState, Content, Space, VersionInfo } from "./types";
import { currentVersion } from "./types";

/** v2 (`/wiki/api/v2`) shapes: its own error body, cursor pages with a `Link` header, presenters. */

type Json = Record<string, unknown>;

const ERROR_CODES: Record<number, string> = { 400: "INVALID_REQUEST_PARAMETER", 403: "FORBIDDEN", 404: "NOT_FOUND", 409: "CONFLICT" };
const ERROR_TITLES: Record<number, string> = { 400: "Bad Request", 403: "Forbidden", 404: "Not Found", 409: "Conflict" };

/** v2 errors are `{errors:[{status,code,title,detail}]}`, unlike v1's `{statusCode,data,message}`. */
export function v2Error(status: number, title?: string, detail: string | null = null): Reply {
  return json(
    { errors: [{ status, code: ERROR_CODES[status] ?? "ERROR", title: title ?? ERROR_TITLES[status] ?? "Error", detail }] },
    status,
  );
}

export const notFound = () => v2Error(404, "Not Found", null);

/** Comma-separated or repeated list parameters. */
export const listParam = (query: URLSearchParams, name: string): string[] =>
  query
    .getAll(name)
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);

/**
 * One cursor page of `items`. The cursor holds the offset reached and the last id returned: when the
 * list has shifted (an insert or delete before that point) the page continues after that id instead.
 */
export function cursorPage<T extends { id: string }>(req: SandboxRequest, items: readonly T[], present: (item: T) => unknown): Reply {
  const limit = intParam(req.query, "limit", 25, 1, 250);
  let start = 0;
  const cursor = req.query.get("cursor");
  if (cursor) {
    const decoded = decodeCursor(cursor);
    if (!decoded) return v2Error(400, "Invalid cursor", `The cursor '${cursor}' is not valid`);
    if (items[decoded.offset - 1]?.id === decoded.lastId) start = decoded.offset;
    else {
      const at = items.findIndex((x) => x.id === decoded.lastId);
      start = at >= 0 ? at + 1 : Math.min(decoded.offset, items.length);
    }
  }
  const slice = items.slice(start, start + limit);
  const links: Record<string, string> = {};
  const headers: Record<string, string> = {};
  const last = slice[slice.length - 1];
  if (last && start + limit < items.length) {
    links.next = withQuery(req.path, req.query, { limit: String(limit), cursor: encodeCursor(start + slice.length, last.id) });
    headers.link = `<${links.next}>; rel="next", <${wikiBase(req)}>; rel="base"`;
  }
  links.base = wikiBase(req);
  return json({ results: slice.map(present), _links: links }, 200, headers);
}

export const BODY_FORMATS_LIST = ["storage", "atlas_doc_format"];
export const BODY_FORMATS_SINGLE = ["storage", "atlas_doc_format", "view", "export_view", "styled_view", "anonymous_export_view"];

/** The `body-format` parameter, or an error reply when it is not one of `allowed`. */
export function bodyFormat(req: SandboxRequest, allowed: string[]): string | null | Reply {
  const f = req.query.get("body-format");
  if (f === null || f === "") return null;
  if (!allowed.includes(f)) return v2Error(400, `Invalid value for body-format: ${f}`, `Allowed values: ${allowed.join(", ")}`);
  return f;
}

export function bodyOf(c: Content, format: string | null): Json {
  if (!format) return {};
  const value = format === "storage" ? c.body : format === "atlas_doc_format" ? JSON.stringify(toAdf(c.body)) : viewHtml(c.body);
  return { [format]: { representation: format, value } };
}

export const presentVersionV2 = (v: VersionInfo): Json => ({
  createdAt: v.when,
  message: v.message,
  number: v.number,
  minorEdit: v.minorEdit,
  authorId: v.by,
});

export function presentPageV2(state: ConfluenceState, c: Content, format: string | null): Json {
  const spaceId = String(state.spaceByKey.get(c.spaceKey)?.id ?? "");
  const version = presentVersionV2(currentVersion(c));
  const body = bodyOf(c, format);
  const links = {
    editui: editui(c.id),
    webui: webui(state, c),
    edituiv2: `/spaces/${c.spaceKey}/pages/edit-v2/${c.id}`,
    tinyui: tinyui(c.id),
  };
  if (c.type !== "page")
    return {
      id: c.id,
      status: c.status,
      title: c.title,
      spaceId,
      authorId: c.authorId,
      createdAt: c.createdAt,
      version,
      body,
      _links: links,
    };
  return {
    id: c.id,
    status: c.status,
    title: c.title,
    spaceId,
    parentId: c.parentId,
    parentType: c.parentId ? "page" : null,
    position: c.position,
    authorId: c.authorId,
    ownerId: c.authorId,
    lastOwnerId: null,
    createdAt: c.createdAt,
    version,
    body,
    _links: links,
  };
}

export function presentCommentV2(state: ConfluenceState, c: Content, format: string | null): Json {
  const container = c.containerId ? state.content.get(c.containerId) : undefined;
  return {
    id: c.id,
    status: c.status,
    title: c.title,
    ...(container?.type === "blogpost" ? { blogPostId: container.id } : { pageId: c.containerId }),
    ...(c.parentId ? { parentCommentId: c.parentId } : {}),
    version: presentVersionV2(currentVersion(c)),
    body: bodyOf(c, format),
    ...(c.inline
      ? {
          resolutionStatus: c.inline.resolution,
          properties: { inlineMarkerRef: c.inline.markerRef, inlineOriginalSelection: c.inline.selection },
        }
      : {}),
    _links: { webui: webui(state, c) },
  };
}

export function presentSpaceV2(s: Space, descriptionFormat: string | null): Json {
  return {
    id: String(s.id),
    key: s.key,
    name: s.name,
    type: "global",
    status: "current",
    authorId: s.authorId,
    createdAt: s.createdAt,
    homepageId: s.homepageId,
    description: descriptionFormat
      ? {
          [descriptionFormat]: {
            representation: descriptionFormat,
            value: descriptionFormat === "view" ? `<p>${s.description}</p>` : s.description,
          },
        }
      : null,
    icon: null,
    _links: { webui: `/spaces/${s.key}` },
  };
}

/** A `{representation,value}` v2 body in storage format, or an error message. */
export function storageFromV2(body: unknown): string | { error: string } | undefined {
  if (body === undefined) return undefined;
  if (typeof body !== "object" || body === null) return { error: "body must be {representation, value}" };
  const { representation, value } = body as { representation?: unknown; value?: unknown };
  if (representation !== "storage")
    return { error: `Unsupported body representation '${String(representation)}': the sandbox accepts storage` };
  if (typeof value !== "string") return { error: "body.value must be a string" };
  return value;
}
