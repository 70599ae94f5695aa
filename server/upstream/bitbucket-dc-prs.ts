import type { BitbucketActivity, BitbucketPage, BitbucketPullRequest } from "./bitbucket.client";
import { enc, prPath, repoPath, type DcContext } from "./bitbucket-dc-context";
import {
  activityOf,
  commitOf,
  flattenThreads,
  pullRequestOf,
  repoWeb,
  type DcActivity,
  type DcChange,
  type DcCommit,
  type DcDiff,
  type DcPage,
  type DcPullRequest,
} from "./bitbucket-dc-shapes";
import { diffstatOf, lineCounts, unifiedDiff } from "./bitbucket-dc-diff";
import { UpstreamError, isUpstreamError } from "./errors";
import { collect } from "./paginate";
import { ACTIVITY_LIMIT } from "./bitbucket-dc-reviews";

/**
 * Bitbucket DC pull requests in the Cloud shapes. DC guards each change of a pull request with its
 * `version`: the client reads the current one where the caller has none, and a stale one (409,
 * PullRequestOutOfDateException) becomes a conflict that says to read the pull request again.
 */

type Key = string;
const STRATEGY: Record<string, string> = { merge_commit: "no-ff", squash: "squash", fast_forward: "ff-only" };

export function dcPullRequestCalls(dc: DcContext, defaultBranch: (key: Key, slug: string) => Promise<string | undefined>) {
  const { call, pages, web } = dc;
  const prWeb = async (key: Key, slug: string, id: number) => `${repoWeb(await web(), key, slug)}/pull-requests/${id}`;
  const read = (key: Key, slug: string, id: number) => call<DcPullRequest>({ path: prPath(key, slug, id) });

  async function atVersion<T>(id: number, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (isUpstreamError(err) && err.status === 409 && /out-of-date/i.test(err.message))
        throw new UpstreamError(
          "bitbucket",
          "conflict",
          `Bitbucket reported a conflict (409): pull request #${id} was changed since it was read (its version moved on); read the pull request again (bitbucket_get_pull_request) and decide with what it says now`,
          { status: 409 },
        );
      throw err;
    }
  }

  const reviewerRefs = (reviewers: ({ uuid: string } | { account_id: string })[]) =>
    reviewers.map((r) => ({ user: { name: "account_id" in r ? r.account_id : r.uuid } }));

  return {
    async *pullRequests(key: Key, slug: string, state: "OPEN" | "MERGED" | "DECLINED" | "SUPERSEDED" = "OPEN", maxItems?: number) {
      if (state === "SUPERSEDED") return;
      for await (const pr of pages<DcPullRequest>(`${repoPath(key, slug)}/pull-requests`, { state, order: "NEWEST" }, maxItems, 50))
        yield pullRequestOf(pr) as BitbucketPullRequest;
    },
    pullRequest: async (key: Key, slug: string, id: number): Promise<BitbucketPullRequest> => pullRequestOf(await read(key, slug, id)),
    /** DC answers the diff as JSON hunks: rendered as the unified text the Cloud API gives. */
    pullRequestDiff: async (key: Key, slug: string, id: number) =>
      unifiedDiff(await call<DcDiff>({ path: `${prPath(key, slug, id)}/diff`, query: { contextLines: 3, withComments: false } })),
    async *pullRequestDiffstat(key: Key, slug: string, id: number, maxItems?: number) {
      const counts = lineCounts(
        await call<DcDiff>({ path: `${prPath(key, slug, id)}/diff`, query: { contextLines: 0, withComments: false } }),
      );
      for await (const c of pages<DcChange>(`${prPath(key, slug, id)}/changes`, {}, maxItems, 500)) yield diffstatOf(c, counts);
    },
    /** One page (`page` from 1); DC has no SUPERSEDED state, so none are. */
    async pullRequestsPage(
      key: Key,
      slug: string,
      options: { state?: string | undefined; pagelen?: number; page?: number } = {},
    ): Promise<BitbucketPage<BitbucketPullRequest>> {
      const pagelen = options.pagelen ?? 25;
      const page = options.page ?? 1;
      if (options.state === "SUPERSEDED") return { values: [], page, pagelen };
      const answer = await call<DcPage<DcPullRequest>>({
        path: `${repoPath(key, slug)}/pull-requests`,
        query: { state: options.state ?? "OPEN", order: "NEWEST", start: (page - 1) * pagelen, limit: pagelen },
      });
      return {
        values: (answer.values ?? []).map(pullRequestOf),
        page,
        pagelen,
        ...(answer.isLastPage === false ? { next: String(page + 1) } : {}),
      };
    },
    /** Newest first, as DC lists them; what Cloud has no entry for (a task, a rescope) is left out. */
    async *pullRequestActivity(key: Key, slug: string, id: number, maxItems?: number) {
      const activities = await collect(pages<DcActivity>(`${prPath(key, slug, id)}/activities`, {}, ACTIVITY_LIMIT, 100));
      const parents = new Map<number, number>();
      for (const { comment: c, parentId } of flattenThreads(activities.flatMap((a) => (a.comment ? [a.comment] : []))))
        if (parentId !== null) parents.set(c.id, parentId);
      const link = await prWeb(key, slug, id);
      let yielded = 0;
      for (const a of activities) {
        const entry: BitbucketActivity | null = activityOf(a, parents, link);
        if (!entry) continue;
        if (maxItems !== undefined && yielded++ >= maxItems) return;
        yield entry;
      }
    },
    async *pullRequestCommits(key: Key, slug: string, id: number, maxItems?: number) {
      const base = repoWeb(await web(), key, slug);
      for await (const c of pages<DcCommit>(`${prPath(key, slug, id)}/commits`, {}, maxItems, 50)) yield commitOf(c, base);
    },
    /** DC's PUT takes the whole pull request at its version (the one the caller read, when it gives it). */
    async updatePullRequest(
      key: Key,
      slug: string,
      id: number,
      body: {
        title: string;
        description: string;
        destination: { branch: { name: string } };
        reviewers: ({ uuid: string } | { account_id: string })[];
      } & { version?: number },
    ): Promise<BitbucketPullRequest> {
      const version = body.version ?? (await read(key, slug, id)).version;
      const updated = await atVersion(id, () =>
        call<DcPullRequest>({
          method: "PUT",
          path: prPath(key, slug, id),
          body: {
            id,
            version,
            title: body.title,
            description: body.description,
            toRef: { id: `refs/heads/${body.destination.branch.name}` },
            reviewers: reviewerRefs(body.reviewers),
          },
        }),
      );
      return pullRequestOf(updated);
    },
    /** Reviewers by user name (DC's `{user: {name}}`); DC has no per-pull-request "close source branch" (merge can delete it). */
    async createPullRequest(
      key: Key,
      slug: string,
      pr: { title: string; source: string; destination?: string; description?: string; reviewers?: string[]; closeSourceBranch?: boolean },
    ): Promise<BitbucketPullRequest> {
      const destination = pr.destination ?? (await defaultBranch(key, slug));
      const ref = (branch: string | undefined) => ({ id: `refs/heads/${branch ?? ""}`, repository: { slug, project: { key } } });
      const created = await call<DcPullRequest>({
        method: "POST",
        path: `${repoPath(key, slug)}/pull-requests`,
        body: {
          title: pr.title,
          ...(pr.description !== undefined ? { description: pr.description } : {}),
          fromRef: ref(pr.source),
          toRef: ref(destination),
          reviewers: (pr.reviewers ?? []).map((name) => ({ user: { name } })),
        },
      });
      return pullRequestOf(created);
    },
    async declinePullRequest(key: Key, slug: string, id: number): Promise<BitbucketPullRequest> {
      const { version } = await read(key, slug, id);
      const declined = await atVersion(id, () =>
        call<DcPullRequest>({ method: "POST", path: `${prPath(key, slug, id)}/decline`, query: { version }, body: { version } }),
      );
      return pullRequestOf(declined);
    },
    /** `merge_strategy` as DC's `strategyId`; `close_source_branch` deletes the branch afterwards (branch-utils), as DC's own option does. */
    async mergePullRequest(
      key: Key,
      slug: string,
      id: number,
      options: { message?: string; merge_strategy?: string; close_source_branch?: boolean } = {},
    ): Promise<BitbucketPullRequest> {
      const current = await read(key, slug, id);
      const merged = await atVersion(id, () =>
        call<DcPullRequest>({
          method: "POST",
          path: `${prPath(key, slug, id)}/merge`,
          query: { version: current.version },
          body: {
            version: current.version,
            ...(options.message ? { message: options.message } : {}),
            ...(options.merge_strategy ? { strategyId: STRATEGY[options.merge_strategy] ?? options.merge_strategy } : {}),
          },
        }),
      );
      if (options.close_source_branch)
        await call<void>({
          method: "DELETE",
          path: `/rest/branch-utils/1.0/projects/${enc(key)}/repos/${enc(slug)}/branches`,
          body: { name: current.fromRef.id, dryRun: false },
        }).catch(() => undefined); // The merge stands whether or not the branch could be deleted.
      return pullRequestOf(merged);
    },
  };
}
