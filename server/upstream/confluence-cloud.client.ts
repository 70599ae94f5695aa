import type { TargetProvider, UpstreamCall, UpstreamHttp, UpstreamTarget } from "./http";
import { paginateNextLink } from "./paginate";
import type {
  ConfluenceSpace,
  ConfluencePage,
  CursorPage,
  ConfluenceVersion,
  ConfluenceComment,
  ConfluenceAttachment,
  CommentKind,
  Links,
} from "./confluence.client";

const enc = encodeURIComponent;

/**
 * Confluence's `_links.next` is relative: v1 to the site context (`/rest/api/...`), v2 to the host
 * (`/wiki/api/v2/...`). Resolved against the target's base URL (`https://site/wiki`).
 */
export function confluenceNextUrl(target: UpstreamTarget, next: string | undefined): string | undefined {
  if (!next) return undefined;
  if (/^https?:\/\//i.test(next)) return next;
  const base = new URL(target.baseUrl);
  const context = base.pathname.replace(/\/+$/, "");
  return `${base.origin}${context && next.startsWith(`${context}/`) ? "" : context}${next}`;
}

/** Confluence Cloud: v2 for spaces and pages, v1 for CQL search, comments and labels. Base URL: `<instance>/wiki`. */
export function createConfluenceCloudClient(http: UpstreamHttp, target: TargetProvider) {
  const call = async <T>(c: UpstreamCall): Promise<T> => (await http.request<T>("confluence", await target(), c)).data;

  /** Pages of a listing that links to its next page. */
  const follow = <T>(first: UpstreamCall, maxItems?: number) =>
    paginateNextLink<T>(async (next) => {
      const t = await target();
      const page = (await http.request<Links & { results: T[] }>("confluence", t, next ? { path: next } : first)).data;
      return { items: page.results ?? [], next: confluenceNextUrl(t, page._links?.next) };
    }, maxItems);

  /** One page of a v2 listing; the next page's cursor is taken from `_links.next`. */
  const cursorPage = async <T>(c: UpstreamCall): Promise<CursorPage<T>> => {
    const page = await call<Links & { results: T[] }>(c);
    const next = page._links?.next;
    return { results: page.results ?? [], nextCursor: next ? new URL(next, "http://x").searchParams.get("cursor") : null };
  };

  return {
    /** One page of spaces: the connection test's call. */
    spacesPage: (limit = 25, timeoutMs?: number) =>
      call<Links & { results: ConfluenceSpace[] }>({ path: "/api/v2/spaces", query: { limit }, timeoutMs }),
    space: (id: string) => call<ConfluenceSpace>({ path: `/api/v2/spaces/${enc(id)}` }),
    /** The space with this key, or undefined. */
    spaceByKey: async (key: string): Promise<ConfluenceSpace | undefined> =>
      (await call<{ results: ConfluenceSpace[] }>({ path: "/api/v2/spaces", query: { keys: key, limit: 1 } })).results[0],
    spaces: (maxItems?: number) => follow<ConfluenceSpace>({ path: "/api/v2/spaces", query: { limit: 100 } }, maxItems),

    /**
     * How many spaces the account can see, counted page by page (v2 has no total) up to `cap`;
     * `capped` when a next page remains. Pages of 250, v2's largest, each within `timeoutMs`.
     */
    async spaceCount(cap: number, timeoutMs?: number): Promise<{ count: number; capped: boolean }> {
      const t = await target();
      let count = 0;
      let next: string | undefined;
      for (;;) {
        const call: UpstreamCall = next
          ? { path: next, timeoutMs }
          : { path: "/api/v2/spaces", query: { limit: Math.min(250, cap) }, timeoutMs };
        const page = (await http.request<Links & { results: unknown[] }>("confluence", t, call)).data;
        count += page.results?.length ?? 0;
        next = confluenceNextUrl(t, page._links?.next);
        // A repeated next link cannot loop for ever: every page counts towards the cap.
        if (!next || (page.results?.length ?? 0) === 0) return count > cap ? { count: cap, capped: true } : { count, capped: false };
        if (count >= cap) return { count: cap, capped: true };
      }
    },

    /** `bodyFormat` null: the page's facts (its space, title, version) without its body, as an allow-list check reads it. */
    getPage: (id: string, bodyFormat: "storage" | "atlas_doc_format" | "view" | null = "storage") =>
      call<ConfluencePage>({ path: `/api/v2/pages/${enc(id)}`, query: { "body-format": bodyFormat ?? undefined } }),

    pagesInSpace: (spaceId: string, maxItems?: number) =>
      follow<ConfluencePage>({ path: `/api/v2/spaces/${enc(spaceId)}/pages`, query: { limit: 100 } }, maxItems),

    /** The page's ancestors, the root first (ids only, as Confluence gives them). */
    ancestors: (pageId: string) =>
      follow<{ id: string; type?: string }>({ path: `/api/v2/pages/${enc(pageId)}/ancestors`, query: { limit: 50 } }, 50),

    children: (pageId: string, maxItems?: number) =>
      follow<ConfluencePage>({ path: `/api/v2/pages/${enc(pageId)}/children`, query: { limit: 100 } }, maxItems),

    /** CQL search (v1), one page; `expand` such as "content.space". */
    search: (cql: string, options: { limit?: number; start?: number; expand?: string } = {}) =>
      call<Links & { results: Record<string, unknown>[]; totalSize?: number; size: number }>({
        path: "/rest/api/search",
        query: { cql, limit: options.limit ?? 25, start: options.start, expand: options.expand },
      }),

    searchAll: (cql: string, maxItems?: number) =>
      follow<Record<string, unknown>>({ path: "/rest/api/search", query: { cql, limit: 50 } }, maxItems),

    createPage: (page: { spaceId: string; title: string; body: string; parentId?: string }) =>
      call<ConfluencePage>({
        method: "POST",
        path: "/api/v2/pages",
        body: {
          spaceId: page.spaceId,
          status: "current",
          title: page.title,
          parentId: page.parentId,
          body: { representation: "storage", value: page.body },
        },
      }),

    /** `version` is the new version number (the current one + 1); a stale one gets 409. */
    updatePage: (id: string, page: { title: string; body: string; version: number; message?: string }) =>
      call<ConfluencePage>({
        method: "PUT",
        path: `/api/v2/pages/${enc(id)}`,
        body: {
          id,
          status: "current",
          title: page.title,
          body: { representation: "storage", value: page.body },
          version: { number: page.version, message: page.message },
        },
      }),

    /** The current page of this title in the space (exact title), with its storage body; undefined when there is none. */
    pageByTitle: async (spaceId: string, title: string): Promise<ConfluencePage | undefined> =>
      (
        await call<{ results: ConfluencePage[] }>({
          path: "/api/v2/pages",
          query: { "space-id": spaceId, title, status: "current", "body-format": "storage", limit: 1 },
        })
      ).results[0],

    /** The space with this key and its plain description, or undefined. */
    spaceDetails: async (key: string) =>
      (
        await call<{
          results: (ConfluenceSpace & {
            homepageId?: string | null;
            description?: { plain?: { value: string } } | null;
            _links?: { webui?: string };
          })[];
        }>({ path: "/api/v2/spaces", query: { keys: key, "description-format": "plain", limit: 1 } })
      ).results[0],

    /** Descendant pages to `depth` levels (1-5), each with its parent and depth. */
    descendants: (pageId: string, depth: number, maxItems?: number) =>
      follow<{ id: string; title: string; parentId?: string | null; depth?: number; childPosition?: number; status?: string }>(
        { path: `/api/v2/pages/${enc(pageId)}/descendants`, query: { depth, limit: 250 } },
        maxItems,
      ),

    /** v1 move: `append` under the target, or `before`/`after` it among its siblings. */
    movePage: (id: string, position: "append" | "before" | "after", targetId: string) =>
      call<{ pageId?: string }>({ method: "PUT", path: `/rest/api/content/${enc(id)}/move/${position}/${enc(targetId)}` }),

    /** Moves the page to the trash (v2; a trashed page can be restored in Confluence). */
    deletePage: (id: string) => call<void>({ method: "DELETE", path: `/api/v2/pages/${enc(id)}` }),

    /** One page of the page's versions, newest first. */
    versions: (pageId: string, options: { limit: number; cursor?: string }) =>
      cursorPage<ConfluenceVersion>({
        path: `/api/v2/pages/${enc(pageId)}/versions`,
        query: { limit: options.limit, cursor: options.cursor },
      }),

    /** The page as it was at `version`, storage body included. */
    pageAtVersion: (id: string, version: number) =>
      call<ConfluencePage>({ path: `/api/v2/pages/${enc(id)}`, query: { version, "body-format": "storage" } }),

    /** One page of a page's top-level footer or inline comments. */
    comments: (pageId: string, kind: CommentKind, options: { limit: number; cursor?: string }) =>
      cursorPage<ConfluenceComment>({
        path: `/api/v2/pages/${enc(pageId)}/${kind}-comments`,
        query: { "body-format": "storage", limit: options.limit, cursor: options.cursor },
      }),

    /** Replies to a comment (the first `maxItems`). */
    commentReplies: (commentId: string, kind: CommentKind, maxItems: number) =>
      follow<ConfluenceComment>(
        {
          path: `/api/v2/${kind}-comments/${enc(commentId)}/children`,
          query: { "body-format": "storage", limit: Math.min(maxItems, 250) },
        },
        maxItems,
      ),

    /** A comment of either kind (404 when it is not of that kind). */
    comment: (commentId: string, kind: CommentKind) =>
      call<ConfluenceComment>({ path: `/api/v2/${kind}-comments/${enc(commentId)}`, query: { "body-format": "storage" } }),

    /** A reply under a footer or inline comment. */
    replyComment: (parentCommentId: string, kind: CommentKind, storageBody: string) =>
      call<ConfluenceComment>({
        method: "POST",
        path: `/api/v2/${kind}-comments`,
        body: { parentCommentId, body: { representation: "storage", value: storageBody } },
      }),

    /** An inline comment anchored on the `matchIndex`-th (0-based) occurrence of `selection` in the page's text. */
    addInlineComment: (pageId: string, storageBody: string, selection: { text: string; matchCount: number; matchIndex: number }) =>
      call<ConfluenceComment>({
        method: "POST",
        path: "/api/v2/inline-comments",
        body: {
          pageId,
          body: { representation: "storage", value: storageBody },
          inlineCommentProperties: {
            textSelection: selection.text,
            textSelectionMatchCount: selection.matchCount,
            textSelectionMatchIndex: selection.matchIndex,
          },
        },
      }),

    /** One page of a page's attachments. */
    attachments: (pageId: string, options: { limit: number; cursor?: string }) =>
      cursorPage<ConfluenceAttachment>({
        path: `/api/v2/pages/${enc(pageId)}/attachments`,
        query: { limit: options.limit, cursor: options.cursor },
      }),

    /** v1 upload (multipart, with the XSRF opt-out Confluence requires); a file of the same name already there is refused. */
    uploadAttachment: (pageId: string, file: { name: string; data: Uint8Array; mediaType: string; comment?: string }) => {
      const form = new FormData();
      form.append("file", new Blob([file.data], { type: file.mediaType }), file.name);
      if (file.comment) form.append("comment", file.comment);
      form.append("minorEdit", "true");
      return call<{
        results: {
          id: string;
          title: string;
          extensions?: { mediaType?: string; fileSize?: number; comment?: string };
          _links?: { webui?: string; download?: string };
        }[];
      }>({
        method: "POST",
        path: `/rest/api/content/${enc(pageId)}/child/attachment`,
        headers: { "x-atlassian-token": "nocheck" },
        form,
      });
    },

    /** A user's public name (v1). */
    user: (accountId: string) =>
      call<{ accountId: string; displayName?: string; publicName?: string }>({ path: "/rest/api/user", query: { accountId } }),

    /** One page of a page's labels (v2), optionally of one prefix (global, my, team). */
    pageLabels: (pageId: string, options: { limit: number; cursor?: string; prefix?: string | undefined }) =>
      cursorPage<{ id: string; name: string; prefix?: string }>({
        path: `/api/v2/pages/${enc(pageId)}/labels`,
        query: { limit: options.limit, cursor: options.cursor, prefix: options.prefix },
      }),

    labels: (id: string) =>
      call<{ results: { name: string; prefix?: string }[] }>({ path: `/rest/api/content/${enc(id)}/label`, query: { limit: 200 } }),

    removeLabel: (id: string, label: string) => call<void>({ method: "DELETE", path: `/rest/api/content/${enc(id)}/label/${enc(label)}` }),

    addLabels: (id: string, labels: string[]) =>
      call<{ results: { name: string }[] }>({
        method: "POST",
        path: `/rest/api/content/${enc(id)}/label`,
        body: labels.map((name) => ({ prefix: "global", name })),
      }),

    addComment: (pageId: string, storageBody: string) =>
      call<{ id: string }>({
        method: "POST",
        path: "/rest/api/content",
        body: {
          type: "comment",
          container: { id: pageId, type: "page" },
          body: { storage: { value: storageBody, representation: "storage" } },
        },
      }),
  };
}
