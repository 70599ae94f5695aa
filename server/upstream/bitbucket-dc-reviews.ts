import type { BitbucketComment, BitbucketPage, BitbucketTask } from "./bitbucket.client";
import { API, enc, prPath, type DcContext } from "./bitbucket-dc-context";
import {
  commentOf,
  flattenThreads,
  repoWeb,
  taskOf,
  userOf,
  type DcActivity,
  type DcComment,
  type DcDiff,
  type DcUser,
} from "./bitbucket-dc-shapes";
import { UpstreamError, isUpstreamError } from "./errors";
import { collect } from "./paginate";

/**
 * Bitbucket DC reviews in the Cloud shapes: comments (anchored to a line, replies), thread
 * resolution (DC 8+: `threadResolved` at the comment's version), tasks (DC 7.2+: BLOCKER
 * comments, OPEN or RESOLVED) and the caller's review status (`/participants/{slug}`).
 */

type Key = string;
/** How many activities are read to find a pull request's comments (DC lists comments only by file, or within activities). */
export const ACTIVITY_LIMIT = 2000;

export function dcReviewCalls(dc: DcContext) {
  const { call, pages, web } = dc;
  const prWeb = async (key: Key, slug: string, id: number) => `${repoWeb(await web(), key, slug)}/pull-requests/${id}`;

  /** Every comment (replies included, tasks not), oldest first, with its thread's parent: DC nests them in the activities. */
  async function allComments(key: Key, slug: string, id: number): Promise<{ comment: DcComment; parentId: number | null }[]> {
    const activities = await collect(pages<DcActivity>(`${prPath(key, slug, id)}/activities`, {}, ACTIVITY_LIMIT, 100));
    const roots = activities.filter((a) => a.action === "COMMENTED" && a.comment).map((a) => a.comment!);
    return flattenThreads(roots).filter((c) => c.comment.severity !== "BLOCKER");
  }

  async function comment(key: Key, slug: string, id: number, commentId: number) {
    return call<DcComment>({ path: `${prPath(key, slug, id)}/comments/${commentId}` });
  }

  /** Sets the caller's own review status; DC takes it at `/participants/{their slug}`. */
  async function setStatus(key: Key, slug: string, id: number, status: "APPROVED" | "NEEDS_WORK" | "UNAPPROVED") {
    const me = await call<DcUser>({ path: `${API}/users/${enc(await dc.whoAmI())}` });
    return call<unknown>({
      method: "PUT",
      path: `${prPath(key, slug, id)}/participants/${enc(me.slug ?? me.name)}`,
      body: { user: { name: me.name }, approved: status === "APPROVED", status },
    });
  }

  /** Whether a line of the new file is added or unchanged in the pull request's diff: DC anchors a comment to one of them. */
  async function lineType(key: Key, slug: string, id: number, path: string, line: number): Promise<"ADDED" | "CONTEXT"> {
    const diff = await call<DcDiff>({
      path: `${prPath(key, slug, id)}/diff/${path.split("/").map(enc).join("/")}`,
      query: { contextLines: 10, withComments: false },
    }).catch((err: unknown) => (isUpstreamError(err) && err.kind === "not_found" ? ({} as DcDiff) : Promise.reject(err)));
    for (const d of diff.diffs ?? [])
      for (const h of d.hunks ?? [])
        for (const seg of h.segments ?? [])
          if (seg.type !== "REMOVED" && seg.lines?.some((l) => l.destination === line)) return seg.type === "ADDED" ? "ADDED" : "CONTEXT";
    return "CONTEXT";
  }

  return {
    async pullRequestCommentsPage(
      key: Key,
      slug: string,
      id: number,
      options: { pagelen?: number; page?: number } = {},
    ): Promise<BitbucketPage<BitbucketComment>> {
      const pagelen = options.pagelen ?? 25;
      const page = options.page ?? 1;
      const [all, link] = await Promise.all([allComments(key, slug, id), prWeb(key, slug, id)]);
      const values = all.slice((page - 1) * pagelen, page * pagelen).map((c) => commentOf(c.comment, c.parentId, link));
      return { values, page, pagelen, size: all.length, ...(page * pagelen < all.length ? { next: String(page + 1) } : {}) };
    },
    /** DC 8+: a thread is resolved on its first comment, at the comment's version; resolving a resolved one is the Cloud's 409. */
    async resolveComment(key: Key, slug: string, id: number, commentId: number) {
      const c = await comment(key, slug, id, commentId);
      if (c.threadResolved) throw new UpstreamError("bitbucket", "conflict", `Comment ${commentId} is already resolved`, { status: 409 });
      const done = await call<DcComment>({
        method: "PUT",
        path: `${prPath(key, slug, id)}/comments/${commentId}`,
        body: { version: c.version, threadResolved: true },
      });
      return {
        user: userOf(done.threadResolver),
        created_on: done.threadResolvedDate ? new Date(done.threadResolvedDate).toISOString() : undefined,
      };
    },
    async reopenComment(key: Key, slug: string, id: number, commentId: number): Promise<void> {
      const c = await comment(key, slug, id, commentId);
      if (!c.threadResolved) throw new UpstreamError("bitbucket", "conflict", `Comment ${commentId} is not resolved`, { status: 409 });
      await call<DcComment>({
        method: "PUT",
        path: `${prPath(key, slug, id)}/comments/${commentId}`,
        body: { version: c.version, threadResolved: false },
      });
    },
    /** Tasks: DC 7.2+ keeps them as BLOCKER comments (`/blocker-comments`), which do not say the comment they are on. */
    async *pullRequestTasks(key: Key, slug: string, id: number, maxItems?: number) {
      for await (const c of pages<DcComment>(`${prPath(key, slug, id)}/blocker-comments`, {}, maxItems, 100))
        yield taskOf(c) as BitbucketTask;
    },
    /** A BLOCKER comment; on a comment, a BLOCKER reply to it. */
    async createPullRequestTask(key: Key, slug: string, id: number, raw: string, commentId?: number): Promise<BitbucketTask> {
      const c = await call<DcComment>({
        method: "POST",
        path: `${prPath(key, slug, id)}/comments`,
        body: { text: raw, severity: "BLOCKER", ...(commentId ? { parent: { id: commentId } } : {}) },
      });
      return taskOf(c, commentId ?? null);
    },
    async setPullRequestTaskState(
      key: Key,
      slug: string,
      id: number,
      taskId: number,
      state: "RESOLVED" | "UNRESOLVED",
    ): Promise<BitbucketTask> {
      const c = await comment(key, slug, id, taskId);
      const done = await call<DcComment>({
        method: "PUT",
        path: `${prPath(key, slug, id)}/comments/${taskId}`,
        body: { version: c.version, state: state === "RESOLVED" ? "RESOLVED" : "OPEN" },
      });
      return taskOf(done);
    },
    /** On a line of the new file: anchored as DC wants it, ADDED or CONTEXT as the diff has that line. */
    async commentOnPullRequest(
      key: Key,
      slug: string,
      id: number,
      raw: string,
      options: { inline?: { path: string; to: number }; parentId?: number } = {},
    ) {
      const anchor = options.inline
        ? {
            path: options.inline.path,
            line: options.inline.to,
            lineType: await lineType(key, slug, id, options.inline.path, options.inline.to),
            fileType: "TO",
            diffType: "EFFECTIVE",
          }
        : undefined;
      const c = await call<DcComment>({
        method: "POST",
        path: `${prPath(key, slug, id)}/comments`,
        body: { text: raw, ...(anchor ? { anchor } : {}), ...(options.parentId ? { parent: { id: options.parentId } } : {}) },
      });
      return { id: c.id, links: { html: { href: `${await prWeb(key, slug, id)}/overview?commentId=${c.id}` } } };
    },
    approvePullRequest: async (key: Key, slug: string, id: number) => {
      await setStatus(key, slug, id, "APPROVED");
      return { approved: true };
    },
    unapprovePullRequest: async (key: Key, slug: string, id: number): Promise<void> => {
      await setStatus(key, slug, id, "UNAPPROVED");
    },
    /** DC's "needs work". */
    requestChanges: (key: Key, slug: string, id: number) => setStatus(key, slug, id, "NEEDS_WORK"),
    withdrawChangeRequest: async (key: Key, slug: string, id: number): Promise<void> => {
      await setStatus(key, slug, id, "UNAPPROVED");
    },
  };
}
