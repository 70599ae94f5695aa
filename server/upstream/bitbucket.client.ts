import { byDeployment } from "./deployment";
import type { TargetProvider, UpstreamHttp } from "./http";
import { createBitbucketCloudClient } from "./bitbucket-cloud.client";
import { createBitbucketDataCenterClient } from "./bitbucket-dc.client";

export interface BitbucketPage<T> {
  values: T[];
  next?: string;
  page?: number;
  pagelen?: number;
  size?: number;
}

export interface BitbucketRepository {
  slug: string;
  name: string;
  full_name: string;
  is_private?: boolean;
  mainbranch?: { name: string };
  description?: string;
  language?: string;
  size?: number;
  updated_on?: string;
  links?: { html?: { href?: string }; clone?: { name?: string; href?: string }[] };
}

export interface BitbucketWorkspace {
  slug: string;
  name: string;
  uuid: string;
  links?: unknown;
}

export interface BitbucketDiffstat {
  status: string;
  lines_added: number;
  lines_removed: number;
  old?: { path?: string } | null;
  new?: { path?: string } | null;
}

export interface BitbucketPullRequest {
  id: number;
  title: string;
  state: string;
  source?: { branch?: { name: string } };
  destination?: { branch?: { name: string } };
}

/** Bitbucket Cloud REST 2.0, on BITBUCKET_API_URL. */
export interface BitbucketCommit {
  hash: string;
  message: string;
  date: string;
  author?: { raw?: string; user?: { display_name?: string } };
  parents?: { hash: string }[];
  links?: unknown;
}

/** A pull request comment: Markdown in `content.raw`; `inline` anchors it to a file's line, `parent` makes it a reply. */
export interface BitbucketComment {
  id: number;
  content?: { raw?: string };
  user?: unknown;
  created_on?: string;
  updated_on?: string;
  deleted?: boolean;
  inline?: { path?: string; from?: number | null; to?: number | null } | null;
  parent?: { id: number } | null;
  resolution?: { user?: unknown; created_on?: string } | null;
  links?: unknown;
}

export interface BitbucketTask {
  id: number;
  content?: { raw?: string };
  state: "UNRESOLVED" | "RESOLVED";
  creator?: unknown;
  created_on?: string;
  resolved_by?: unknown;
  resolved_on?: string | null;
  comment?: { id: number } | null;
  links?: unknown;
}

/** One entry of a pull request's activity: exactly one of update, approval, changes_requested, comment. */
export interface BitbucketActivity {
  update?: { state?: string; author?: unknown; date?: string; title?: string; changes?: Record<string, { old?: string; new?: string }> };
  approval?: { user?: unknown; date?: string };
  changes_requested?: { user?: unknown; date?: string };
  comment?: BitbucketComment;
}

export interface BitbucketBranch {
  name: string;
  target: BitbucketCommit;
  links?: unknown;
}

/** Bitbucket's one client: the Cloud shape, or the Data Center one, as the call's target says. */
export function createBitbucketClient(http: UpstreamHttp, target: TargetProvider): BitbucketClient {
  const cloud = createBitbucketCloudClient(http, target);
  return byDeployment<BitbucketClient>(
    target,
    { cloud, datacenter: createBitbucketDataCenterClient(http, target) },
    {
      repositories: true,
      workspaceMemberships: true,
      commitDiffstat: true,
      branches: true,
      commits: true,
      pullRequests: true,
      pullRequestDiffstat: true,
      pullRequestActivity: true,
      pullRequestCommits: true,
      pullRequestTasks: true,
    },
  );
}

export type BitbucketClient = ReturnType<typeof createBitbucketCloudClient>;
