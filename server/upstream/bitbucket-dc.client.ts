import type { BitbucketClient } from "./bitbucket.client";
import { createDcContext } from "./bitbucket-dc-context";
import { dcPullRequestCalls } from "./bitbucket-dc-prs";
import { dcDefaultBranch, dcRepositoryCalls } from "./bitbucket-dc-repos";
import { dcReviewCalls } from "./bitbucket-dc-reviews";
import type { TargetProvider, UpstreamHttp } from "./http";

/**
 * Bitbucket Data Center (Server) REST 1.0, on the server's base URL (its context path included),
 * answering in the Cloud 2.0 shapes of bitbucket.client.ts so the tools read one shape. A Cloud
 * "workspace" is a DC project key (`~USERNAME` for a personal project, `*` for every project where
 * a listing allows it). Repositories, files and search: bitbucket-dc-repos.ts; pull requests:
 * bitbucket-dc-prs.ts; comments, tasks and review status: bitbucket-dc-reviews.ts; DC's answers and
 * their translation: bitbucket-dc-shapes.ts and bitbucket-dc-diff.ts.
 */
export function createBitbucketDataCenterClient(http: UpstreamHttp, target: TargetProvider): BitbucketClient {
  const dc = createDcContext(http, target);
  return { ...dcRepositoryCalls(dc), ...dcPullRequestCalls(dc, dcDefaultBranch(dc)), ...dcReviewCalls(dc) };
}
