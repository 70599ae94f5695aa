import { UpstreamError } from "./errors";
import type { CommentKind, ConfluenceComment, ConfluencePage, ConfluenceVersion, CursorPage } from "./confluence.client";
import {
  enc,
  locationOf,
  offsetCursorPage,
  startOf,
  toAttachment,
  toComment,
  toPage,
  toVersion,
  type DcCalls,
  type DcContent,
  type DcList,
  type DcUser,
  type DcVersion,
} from "./confluence-dc-shapes";

/**
 * Confluence Data Center's comments, attachments, labels, versions and users (REST v1), in the
 * Cloud client's shapes. Listings the tools page through take a cursor: here the `start` offset.
 */

const COMMENT_EXPAND = "body.storage,version,ancestors,extensions.inlineProperties,extensions.resolution";
/** Atlassian's XSRF opt-out that DC's multipart uploads need (DC documents the value `no-check`). */
const NO_CHECK = { "x-atlassian-token": "no-check" };

type Uploaded = {
  id: string;
  title: string;
  extensions?: { mediaType?: string; fileSize?: number; comment?: string };
  _links?: { webui?: string; download?: string };
};

const uploaded = (a: DcContent): Uploaded => ({
  id: String(a.id),
  title: a.title,
  ...(a.extensions ? { extensions: a.extensions } : {}),
  ...(a._links ? { _links: a._links } : {}),
});

export function createConfluenceDataCenterThreads(deps: { call: DcCalls["call"]; follow: DcCalls["follow"] }) {
  const { call, follow } = deps;

  /** The comment with this id, of this kind (404 otherwise, as Cloud's per-kind read answers). */
  async function commentOfKind(commentId: string, kind: CommentKind): Promise<DcContent> {
    const c = await call<DcContent>({ path: `/rest/api/content/${enc(commentId)}`, query: { expand: `${COMMENT_EXPAND},container` } });
    if (c.type !== "comment" || locationOf(c) !== kind)
      throw new UpstreamError("confluence", "not_found", `Confluence found nothing there (404): ${commentId} is not a ${kind} comment`, {
        status: 404,
      });
    return c;
  }

  /** The data of a file as a multipart form (file, comment, minorEdit), as DC's attachment resource takes it. */
  const formOf = (file: { name: string; data: Uint8Array; mediaType: string; comment?: string }) => {
    const form = new FormData();
    form.append("file", new Blob([file.data], { type: file.mediaType }), file.name);
    if (file.comment) form.append("comment", file.comment);
    form.append("minorEdit", "true");
    return form;
  };

  return {
    /** One page of the page's versions, newest first: DC 7+ lists them on its experimental API. */
    async versions(pageId: string, options: { limit: number; cursor?: string }): Promise<CursorPage<ConfluenceVersion>> {
      const start = startOf(options.cursor);
      const listed = await call<DcList<DcVersion>>({
        path: `/rest/experimental/content/${enc(pageId)}/version`,
        query: { start, limit: options.limit },
      });
      return offsetCursorPage(listed, start, toVersion);
    },

    /**
     * The page as it was at `version` (`status=historical&version=N`), storage body included. The
     * status filter names `current` too: the newest version is the current content, not a historical one.
     */
    async pageAtVersion(id: string, version: number): Promise<ConfluencePage> {
      const c = await call<DcContent>({
        path: `/rest/api/content/${enc(id)}`,
        query: { status: ["historical", "current"], version, expand: "space,version,body.storage" },
      });
      // A historical version is content of its own on DC: the tools know it by the page's id.
      return { ...toPage(c), id };
    },

    /** One page of a page's top-level footer or inline comments (`location`; replies are read through their comment). */
    async comments(pageId: string, kind: CommentKind, options: { limit: number; cursor?: string }): Promise<CursorPage<ConfluenceComment>> {
      const start = startOf(options.cursor);
      const listed = await call<DcList<DcContent>>({
        path: `/rest/api/content/${enc(pageId)}/child/comment`,
        query: { location: kind, expand: COMMENT_EXPAND, start, limit: options.limit },
      });
      return offsetCursorPage(listed, start, (c) => toComment(c, { pageId }));
    },

    /** Replies to a comment (the first `maxItems`): the comment's own child comments. */
    commentReplies: (commentId: string, _kind: CommentKind, maxItems: number) =>
      follow<DcContent, ConfluenceComment>(
        { path: `/rest/api/content/${enc(commentId)}/child/comment`, query: { expand: COMMENT_EXPAND, limit: Math.min(maxItems, 100) } },
        (c) => toComment(c, { parentCommentId: commentId }),
        maxItems,
      ),

    comment: async (commentId: string, kind: CommentKind) => toComment(await commentOfKind(commentId, kind)),

    /** A reply: a comment on the same page, its parent named in `ancestors` (DC's REST v1 way of threading). */
    async replyComment(parentCommentId: string, kind: CommentKind, storageBody: string): Promise<ConfluenceComment> {
      const parent = await commentOfKind(parentCommentId, kind);
      if (!parent.container)
        throw new UpstreamError("confluence", "invalid_response", `Confluence did not say which page comment ${parentCommentId} is on`);
      const reply = await call<DcContent>({
        method: "POST",
        path: "/rest/api/content",
        body: {
          type: "comment",
          container: { id: String(parent.container.id), type: parent.container.type ?? "page" },
          ancestors: [{ id: parentCommentId }],
          body: { storage: { value: storageBody, representation: "storage" } },
        },
      });
      return toComment(reply, { parentCommentId });
    },

    /**
     * Not on Data Center: DC's REST API cannot anchor a new inline comment on a page's text (its
     * editor uses a private resource for that); inline comments are read and replied to only.
     */
    addInlineComment(pageId: string, _storageBody: string, _selection: { text: string; matchCount: number; matchIndex: number }) {
      return Promise.reject<ConfluenceComment>(
        new UpstreamError(
          "confluence",
          "bad_request",
          `Confluence Data Center cannot add an inline comment to page ${pageId} through its REST API: add a footer comment instead`,
        ),
      );
    },

    /** One page of a page's attachments (their latest version's date and author expanded). */
    async attachments(pageId: string, options: { limit: number; cursor?: string }) {
      const start = startOf(options.cursor);
      const listed = await call<DcList<DcContent>>({
        path: `/rest/api/content/${enc(pageId)}/child/attachment`,
        query: { expand: "version", start, limit: options.limit },
      });
      return offsetCursorPage(listed, start, (a) => toAttachment(a, pageId));
    },

    /**
     * A file uploaded to the page; one of the same name already there gets the new data as its next
     * version (`…/child/attachment/{id}/data`), as DC's own clients do, rather than a refusal.
     */
    async uploadAttachment(pageId: string, file: { name: string; data: Uint8Array; mediaType: string; comment?: string }) {
      const base = `/rest/api/content/${enc(pageId)}/child/attachment`;
      const same = (await call<DcList<DcContent>>({ path: base, query: { filename: file.name, limit: 1 } })).results.find(
        (a) => a.title === file.name,
      );
      if (same) {
        const updated = await call<DcContent>({
          method: "POST",
          path: `${base}/${enc(String(same.id))}/data`,
          headers: NO_CHECK,
          form: formOf(file),
        });
        return { results: [uploaded(updated)] };
      }
      const made = await call<DcList<DcContent>>({ method: "POST", path: base, headers: NO_CHECK, form: formOf(file) });
      return { results: made.results.map(uploaded) };
    },

    /** A user's display name by their DC user key (the `authorId` this client gives versions). */
    async user(accountId: string) {
      const u = await call<DcUser>({ path: "/rest/api/user", query: { key: accountId } });
      return { accountId, ...(u.displayName ? { displayName: u.displayName } : {}) };
    },

    /** One page of a page's labels, optionally of one prefix (global, my, team). */
    async pageLabels(pageId: string, options: { limit: number; cursor?: string; prefix?: string | undefined }) {
      const start = startOf(options.cursor);
      const listed = await call<DcList<{ id: string | number; name: string; prefix?: string }>>({
        path: `/rest/api/content/${enc(pageId)}/label`,
        query: { prefix: options.prefix, start, limit: options.limit },
      });
      return offsetCursorPage(listed, start, (l) => ({ id: String(l.id), name: l.name, ...(l.prefix ? { prefix: l.prefix } : {}) }));
    },

    labels: (id: string) =>
      call<{ results: { name: string; prefix?: string }[] }>({ path: `/rest/api/content/${enc(id)}/label`, query: { limit: 200 } }),

    /** The query form: DC's path form cannot name every label. */
    removeLabel: (id: string, label: string) =>
      call<void>({ method: "DELETE", path: `/rest/api/content/${enc(id)}/label`, query: { name: label } }),

    addLabels: (id: string, labels: string[]) =>
      call<{ results: { name: string }[] }>({
        method: "POST",
        path: `/rest/api/content/${enc(id)}/label`,
        body: labels.map((name) => ({ prefix: "global", name })),
      }),

    addComment: async (pageId: string, storageBody: string) => {
      const made = await call<DcContent>({
        method: "POST",
        path: "/rest/api/content",
        body: {
          type: "comment",
          container: { id: pageId, type: "page" },
          body: { storage: { value: storageBody, representation: "storage" } },
        },
      });
      return { id: String(made.id) };
    },
  };
}
