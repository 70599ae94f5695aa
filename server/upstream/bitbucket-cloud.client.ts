import type { TargetProvider, UpstreamCall, UpstreamHttp } from "./http";
import { paginateNextLink } from "./paginate";
import type {
  BitbucketPage,
  BitbucketRepository,
  BitbucketWorkspace,
  BitbucketDiffstat,
  BitbucketPullRequest,
  BitbucketCommit,
  BitbucketComment,
  BitbucketTask,
  BitbucketActivity,
  BitbucketBranch,
} from "./bitbucket.client";

const enc = encodeURIComponent;

export function createBitbucketCloudClient(http: UpstreamHttp, target: TargetProvider) {
  const call = async <T>(c: UpstreamCall): Promise<T> => (await http.request<T>("bitbucket", await target(), c)).data;

  /** Every item of a listing, following its absolute `next` links (checked to stay on the base URL). */
  const follow = <T>(first: UpstreamCall, maxItems?: number) =>
    paginateNextLink<T>(async (next) => {
      const page = await call<BitbucketPage<T>>(next ? { path: next } : first);
      return { items: page.values ?? [], next: page.next };
    }, maxItems);

  const repo = (workspace: string, slug: string) => `/repositories/${enc(workspace)}/${enc(slug)}`;

  return {
    user: (timeoutMs?: number) =>
      call<{ username?: string; nickname?: string; display_name: string; uuid: string; account_id?: string }>({ path: "/user", timeoutMs }),
    workspace: (workspace: string, timeoutMs?: number) =>
      call<{ slug: string; name: string; uuid: string }>({ path: `/workspaces/${enc(workspace)}`, timeoutMs }),

    /** The number of repositories in a workspace, from one one-item page's `size`. */
    async repositoryCount(workspace: string, timeoutMs?: number): Promise<number> {
      const page = await call<BitbucketPage<BitbucketRepository>>({
        path: `/repositories/${enc(workspace)}`,
        query: { pagelen: 1, fields: "size" },
        timeoutMs,
      });
      return page.size ?? 0;
    },

    repositories: (workspace: string, options: { q?: string; pageSize?: number; maxItems?: number } = {}) =>
      follow<BitbucketRepository>(
        { path: `/repositories/${enc(workspace)}`, query: { pagelen: options.pageSize ?? 100, q: options.q } },
        options.maxItems,
      ),
    /** One page of a workspace's repositories (`page` counts from 1). */
    repositoriesPage: (workspace: string, options: { q?: string | undefined; pagelen?: number; page?: number; sort?: string } = {}) =>
      call<BitbucketPage<BitbucketRepository>>({
        path: `/repositories/${enc(workspace)}`,
        query: { pagelen: options.pagelen ?? 25, page: options.page, q: options.q, sort: options.sort },
      }),
    /**
     * The workspaces the account is a member of, with its permission in each. Atlassian marked this
     * endpoint deprecated (CHANGE-2770) with no replacement that gives names and permissions yet;
     * it still answers.
     */
    workspaceMemberships: (maxItems?: number) =>
      follow<{ permission?: string; workspace: BitbucketWorkspace }>(
        { path: "/user/permissions/workspaces", query: { pagelen: 100 } },
        maxItems,
      ),
    repository: (workspace: string, slug: string) => call<BitbucketRepository>({ path: repo(workspace, slug) }),
    commit: (workspace: string, slug: string, hash: string) =>
      call<BitbucketCommit>({ path: `${repo(workspace, slug)}/commit/${enc(hash)}` }),
    /** A commit's changes against its first parent, file by file. */
    commitDiffstat: (workspace: string, slug: string, hash: string, maxItems?: number) =>
      follow<BitbucketDiffstat>({ path: `${repo(workspace, slug)}/diffstat/${enc(hash)}`, query: { pagelen: 500 } }, maxItems),
    commitDiff: (workspace: string, slug: string, hash: string) =>
      call<string>({ path: `${repo(workspace, slug)}/diff/${enc(hash)}`, accept: "text" }),
    branches: (workspace: string, slug: string, maxItems?: number) =>
      follow<BitbucketBranch>({ path: `${repo(workspace, slug)}/refs/branches`, query: { pagelen: 100 } }, maxItems),
    commits: (workspace: string, slug: string, revision?: string, maxItems?: number) =>
      follow<BitbucketCommit>(
        { path: `${repo(workspace, slug)}/commits${revision ? `/${enc(revision)}` : ""}`, query: { pagelen: 50 } },
        maxItems,
      ),
    fileContent: (workspace: string, slug: string, commit: string, path: string) =>
      call<string>({ path: `${repo(workspace, slug)}/src/${enc(commit)}/${path.split("/").map(enc).join("/")}`, accept: "text" }),

    pullRequests: (workspace: string, slug: string, state: "OPEN" | "MERGED" | "DECLINED" | "SUPERSEDED" = "OPEN", maxItems?: number) =>
      follow<BitbucketPullRequest>({ path: `${repo(workspace, slug)}/pullrequests`, query: { state, pagelen: 50 } }, maxItems),
    pullRequest: (workspace: string, slug: string, id: number) =>
      call<BitbucketPullRequest>({ path: `${repo(workspace, slug)}/pullrequests/${id}` }),
    pullRequestDiff: (workspace: string, slug: string, id: number) =>
      call<string>({ path: `${repo(workspace, slug)}/pullrequests/${id}/diff`, accept: "text" }),
    pullRequestDiffstat: (workspace: string, slug: string, id: number, maxItems?: number) =>
      follow<BitbucketDiffstat>({ path: `${repo(workspace, slug)}/pullrequests/${id}/diffstat` }, maxItems),
    pullRequestsPage: (workspace: string, slug: string, options: { state?: string | undefined; pagelen?: number; page?: number } = {}) =>
      call<BitbucketPage<BitbucketPullRequest>>({
        path: `${repo(workspace, slug)}/pullrequests`,
        query: { state: options.state, pagelen: options.pagelen ?? 25, page: options.page ?? 1 },
      }),
    /** A pull request's changes as Bitbucket lists them, newest first. */
    pullRequestActivity: (workspace: string, slug: string, id: number, maxItems?: number) =>
      follow<BitbucketActivity>({ path: `${repo(workspace, slug)}/pullrequests/${id}/activity`, query: { pagelen: 50 } }, maxItems),
    pullRequestCommits: (workspace: string, slug: string, id: number, maxItems?: number) =>
      follow<BitbucketCommit>({ path: `${repo(workspace, slug)}/pullrequests/${id}/commits`, query: { pagelen: 50 } }, maxItems),
    /** One page of a pull request's comments, oldest first (`page` counts from 1). */
    pullRequestCommentsPage: (workspace: string, slug: string, id: number, options: { pagelen?: number; page?: number } = {}) =>
      call<BitbucketPage<BitbucketComment>>({
        path: `${repo(workspace, slug)}/pullrequests/${id}/comments`,
        query: { pagelen: options.pagelen ?? 25, page: options.page ?? 1 },
      }),
    resolveComment: (workspace: string, slug: string, id: number, commentId: number) =>
      call<{ user?: unknown; created_on?: string }>({
        method: "POST",
        path: `${repo(workspace, slug)}/pullrequests/${id}/comments/${commentId}/resolve`,
      }),
    reopenComment: (workspace: string, slug: string, id: number, commentId: number) =>
      call<void>({ method: "DELETE", path: `${repo(workspace, slug)}/pullrequests/${id}/comments/${commentId}/resolve` }),
    /** PUT replaces what it is given (the reviewer list whole): send the merged pull request. */
    updatePullRequest: (
      workspace: string,
      slug: string,
      id: number,
      body: {
        title: string;
        description: string;
        destination: { branch: { name: string } };
        reviewers: ({ uuid: string } | { account_id: string })[];
      },
    ) => call<BitbucketPullRequest>({ method: "PUT", path: `${repo(workspace, slug)}/pullrequests/${id}`, body }),
    pullRequestTasks: (workspace: string, slug: string, id: number, maxItems?: number) =>
      follow<BitbucketTask>({ path: `${repo(workspace, slug)}/pullrequests/${id}/tasks`, query: { pagelen: 100 } }, maxItems),
    createPullRequestTask: (workspace: string, slug: string, id: number, raw: string, commentId?: number) =>
      call<BitbucketTask>({
        method: "POST",
        path: `${repo(workspace, slug)}/pullrequests/${id}/tasks`,
        body: { content: { raw }, ...(commentId ? { comment: { id: commentId } } : {}) },
      }),
    setPullRequestTaskState: (workspace: string, slug: string, id: number, taskId: number, state: "RESOLVED" | "UNRESOLVED") =>
      call<BitbucketTask>({ method: "PUT", path: `${repo(workspace, slug)}/pullrequests/${id}/tasks/${taskId}`, body: { state } }),
    /** A comment in Markdown; `inline` anchors it to a line of a file (`to`: the new file's line), `parentId` makes it a reply. */
    commentOnPullRequest: (
      workspace: string,
      slug: string,
      id: number,
      raw: string,
      options: { inline?: { path: string; to: number }; parentId?: number } = {},
    ) =>
      call<{ id: number; links?: unknown }>({
        method: "POST",
        path: `${repo(workspace, slug)}/pullrequests/${id}/comments`,
        body: {
          content: { raw },
          ...(options.inline ? { inline: options.inline } : {}),
          ...(options.parentId ? { parent: { id: options.parentId } } : {}),
        },
      }),
    approvePullRequest: (workspace: string, slug: string, id: number) =>
      call<{ approved: boolean }>({ method: "POST", path: `${repo(workspace, slug)}/pullrequests/${id}/approve` }),
    unapprovePullRequest: (workspace: string, slug: string, id: number) =>
      call<void>({ method: "DELETE", path: `${repo(workspace, slug)}/pullrequests/${id}/approve` }),
    requestChanges: (workspace: string, slug: string, id: number) =>
      call<unknown>({ method: "POST", path: `${repo(workspace, slug)}/pullrequests/${id}/request-changes` }),
    withdrawChangeRequest: (workspace: string, slug: string, id: number) =>
      call<void>({ method: "DELETE", path: `${repo(workspace, slug)}/pullrequests/${id}/request-changes` }),
    /** Reviewers by UUID (`{…}`) or account id. */
    createPullRequest: (
      workspace: string,
      slug: string,
      pr: { title: string; source: string; destination?: string; description?: string; reviewers?: string[]; closeSourceBranch?: boolean },
    ) =>
      call<BitbucketPullRequest>({
        method: "POST",
        path: `${repo(workspace, slug)}/pullrequests`,
        body: {
          title: pr.title,
          source: { branch: { name: pr.source } },
          ...(pr.destination ? { destination: { branch: { name: pr.destination } } } : {}),
          ...(pr.description !== undefined ? { description: pr.description } : {}),
          ...(pr.reviewers ? { reviewers: pr.reviewers.map((r) => (r.startsWith("{") ? { uuid: r } : { account_id: r })) } : {}),
          ...(pr.closeSourceBranch !== undefined ? { close_source_branch: pr.closeSourceBranch } : {}),
        },
      }),
    createBranch: (workspace: string, slug: string, name: string, commitHash: string) =>
      call<BitbucketBranch>({
        method: "POST",
        path: `${repo(workspace, slug)}/refs/branches`,
        body: { name, target: { hash: commitHash } },
      }),
    declinePullRequest: (workspace: string, slug: string, id: number) =>
      call<BitbucketPullRequest>({ method: "POST", path: `${repo(workspace, slug)}/pullrequests/${id}/decline` }),
    mergePullRequest: (
      workspace: string,
      slug: string,
      id: number,
      options: { message?: string; merge_strategy?: string; close_source_branch?: boolean } = {},
    ) => call<BitbucketPullRequest>({ method: "POST", path: `${repo(workspace, slug)}/pullrequests/${id}/merge`, body: options }),

    searchCode: (workspace: string, query: string, page = 1) =>
      call<BitbucketPage<Record<string, unknown>>>({
        path: `/workspaces/${enc(workspace)}/search/code`,
        query: { search_query: query, page, pagelen: 25 },
      }),
  };
}
