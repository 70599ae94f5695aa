import { UpstreamError } from "./errors";
import type { TargetProvider, UpstreamCall, UpstreamHttp } from "./http";
import { confluenceNextUrl } from "./confluence-cloud.client";
import type {
  ConfluenceAttachment,
  ConfluenceComment,
  ConfluencePage,
  ConfluenceSpace,
  ConfluenceVersion,
  CursorPage,
} from "./confluence.client";
import { paginateNextLink } from "./paginate";

/**
 * Confluence Data Center's REST v1 answers (Confluence DC REST API 8.9/9.x, `/rest/api/…`) and
 * their translation into the Cloud shapes the tools read (confluence.client.ts): ids as strings,
 * `spaceId`, `parentId` from `ancestors`, `version.authorId` (DC has no account ids: a user's
 * `userKey`, which `/rest/api/user?key=` reads back), and cursors that are `start` offsets.
 */

/** A DC user (`username`, `userKey`, `displayName`; an anonymous one has none of them). */
export interface DcUser {
  type?: string;
  username?: string;
  userKey?: string;
  displayName?: string;
}

export interface DcVersion {
  by?: DcUser;
  when?: string;
  message?: string;
  number: number;
  minorEdit?: boolean;
}

export interface DcSpace {
  id: number | string;
  key: string;
  name: string;
  description?: { plain?: { value: string } };
  homepage?: { id: string | number };
  _links?: { webui?: string };
  _expandable?: { homepage?: string };
}

/** Content (a page, blog post, comment or attachment) with what the client expands. */
export interface DcContent {
  id: string | number;
  type: string;
  status?: string;
  title: string;
  space?: DcSpace;
  version?: DcVersion;
  ancestors?: { id: string | number; type?: string }[];
  container?: { id: string | number; type?: string };
  body?: { storage?: { value: string; representation?: string } };
  extensions?: {
    location?: string;
    inlineProperties?: { markerRef?: string; originalSelection?: string };
    resolution?: { status?: string };
    mediaType?: string;
    fileSize?: number;
    comment?: string;
  };
  metadata?: { mediaType?: string; comment?: string };
  _links?: { webui?: string; download?: string };
}

/** DC's offset page: `results`, `start`, `limit`, `size`, and `_links.next` (relative to the context path) while more remain. */
export interface DcList<T> {
  results: T[];
  start?: number;
  limit?: number;
  size?: number;
  totalSize?: number;
  _links?: { next?: string; base?: string; context?: string };
}

export const enc = encodeURIComponent;

/** A DC space as the Cloud shape, with its web link (`/display/KEY`). */
export const toSpace = (s: DcSpace): ConfluenceSpace & { _links?: { webui?: string } } => ({
  id: String(s.id),
  key: s.key,
  name: s.name,
  ...(s._links?.webui ? { _links: { webui: s._links.webui } } : {}),
});

export const toVersion = (v: DcVersion): ConfluenceVersion => ({
  number: v.number,
  ...(v.by?.userKey ? { authorId: v.by.userKey } : {}),
  ...(v.when ? { createdAt: v.when } : {}),
  message: v.message ?? "",
  minorEdit: v.minorEdit === true,
});

const lastAncestor = (c: DcContent): string | null | undefined =>
  c.ancestors === undefined ? undefined : c.ancestors.length ? String(c.ancestors[c.ancestors.length - 1]!.id) : null;

/** A DC page as the Cloud (v2) page: its space's id, its parent (when `ancestors` was expanded), version and storage body. */
export function toPage(c: DcContent, known: { parentId?: string } = {}): ConfluencePage & { _links?: { webui?: string } } {
  const parentId = known.parentId ?? lastAncestor(c);
  return {
    id: String(c.id),
    title: c.title,
    ...(c.space ? { spaceId: String(c.space.id) } : {}),
    ...(parentId !== undefined ? { parentId } : {}),
    ...(c.status ? { status: c.status } : {}),
    ...(c.version ? { version: toVersion(c.version) } : {}),
    ...(c.body?.storage ? { body: { storage: { value: c.body.storage.value, representation: "storage" } } } : {}),
    ...(c._links?.webui ? { _links: { webui: c._links.webui } } : {}),
  };
}

/** A DC comment as the Cloud (v2) comment: its page, the comment it replies to, an inline one's anchor and resolution. */
export function toComment(c: DcContent, known: { pageId?: string; parentCommentId?: string } = {}): ConfluenceComment {
  const container = c.container && (c.container.type ?? "page") === "page" ? String(c.container.id) : undefined;
  const pageId = known.pageId ?? container;
  const parent = known.parentCommentId ?? lastAncestor(c) ?? undefined;
  const inline = c.extensions?.location === "inline";
  return {
    id: String(c.id),
    ...(c.status ? { status: c.status } : {}),
    ...(pageId ? { pageId } : {}),
    ...(parent ? { parentCommentId: parent } : {}),
    ...(c.version ? { version: toVersion(c.version) } : {}),
    ...(c.body?.storage ? { body: { storage: { value: c.body.storage.value } } } : {}),
    ...(inline && c.extensions?.resolution?.status ? { resolutionStatus: c.extensions.resolution.status } : {}),
    ...(inline && c.extensions?.inlineProperties
      ? {
          properties: {
            ...(c.extensions.inlineProperties.markerRef ? { inlineMarkerRef: c.extensions.inlineProperties.markerRef } : {}),
            ...(c.extensions.inlineProperties.originalSelection
              ? { inlineOriginalSelection: c.extensions.inlineProperties.originalSelection }
              : {}),
          },
        }
      : {}),
    ...(c._links?.webui ? { _links: { webui: c._links.webui } } : {}),
  };
}

/** A comment's location as DC's `extensions.location` gives it (a comment without one is a footer comment). */
export const locationOf = (c: DcContent): "footer" | "inline" => (c.extensions?.location === "inline" ? "inline" : "footer");

export function toAttachment(a: DcContent, pageId: string): ConfluenceAttachment {
  const mediaType = a.extensions?.mediaType ?? a.metadata?.mediaType;
  const comment = a.extensions?.comment ?? a.metadata?.comment;
  return {
    id: String(a.id),
    title: a.title,
    pageId,
    ...(mediaType ? { mediaType } : {}),
    ...(typeof a.extensions?.fileSize === "number" ? { fileSize: a.extensions.fileSize } : {}),
    ...(comment ? { comment } : {}),
    ...(a.version?.when ? { createdAt: a.version.when } : {}),
    ...(a.version ? { version: toVersion(a.version) } : {}),
    ...(a._links?.download ? { downloadLink: a._links.download } : {}),
    ...(a._links?.webui ? { webuiLink: a._links.webui } : {}),
    _links: { ...(a._links?.webui ? { webui: a._links.webui } : {}), ...(a._links?.download ? { download: a._links.download } : {}) },
  };
}

/** DC's search highlights (`excerpt=highlight`, the default) mark matches as `@@@hl@@@…@@@endhl@@@`: plain text for the tools. */
export const unhighlight = (text: unknown): unknown => (typeof text === "string" ? text.replace(/@@@(?:end)?hl@@@/g, "") : text);

/** The `start` a cursor stands for (the client's own `start` offsets, sealed by the tools; anything else starts over). */
export const startOf = (cursor: string | undefined): number => (cursor && /^\d{1,9}$/.test(cursor) ? Number(cursor) : 0);

/** One offset page as a Cloud cursor page: the next page's cursor is the `start` it begins at, while DC links to one. */
export const offsetCursorPage = <T, U>(page: DcList<T>, start: number, map: (item: T) => U): CursorPage<U> => {
  const results = page.results ?? [];
  return {
    results: results.map(map),
    nextCursor: page._links?.next && results.length > 0 ? String((page.start ?? start) + results.length) : null,
  };
};

/** A page of content that is not a page (a blog post, a comment) is, to a page tool, not there: Cloud's v2 answers 404 as well. */
export const notAPage = (id: string, type: string) =>
  new UpstreamError("confluence", "not_found", `Confluence found nothing there (404): content ${id} is a ${type}, not a page`, {
    status: 404,
  });

/** The calls the DC client's parts share: one request, and a listing followed by its `next` links (each item mapped). */
export function dcCalls(http: UpstreamHttp, target: TargetProvider) {
  const call = async <T>(c: UpstreamCall): Promise<T> => (await http.request<T>("confluence", await target(), c)).data;
  async function* follow<T, U>(first: UpstreamCall, map: (item: T) => U, maxItems?: number): AsyncGenerator<U> {
    const items = paginateNextLink<T>(async (next) => {
      const t = await target();
      const page = (await http.request<DcList<T>>("confluence", t, next ? { path: next } : first)).data;
      return { items: page.results ?? [], next: confluenceNextUrl(t, page._links?.next) };
    }, maxItems);
    for await (const item of items) yield map(item);
  }
  return { call, follow };
}

export type DcCalls = ReturnType<typeof dcCalls>;
