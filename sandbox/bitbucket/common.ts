import { actor, repoVisible } from "./access";
import { bitbucketError } from "../core/errors";
import type { Reply, SandboxRequest } from "../core/http";
import type { BitbucketState, PullRequest, Repo, User } from "./model";
import { isReply, paginate, queried, type PageOptions } from "./query";

export { isReply };

/** Shared route plumbing: lookups that answer Bitbucket's 404s, lists with q/sort/pagination. */

export function findWorkspace(s: BitbucketState, slug: string | undefined): Reply | null {
  if (slug === s.workspace.slug || slug === s.workspace.uuid) return null;
  return bitbucketError(404, `No workspace with identifier '${slug ?? ""}'.`);
}

export function findRepo(s: BitbucketState, req: SandboxRequest): Repo | Reply {
  const ws = findWorkspace(s, req.params.workspace);
  if (ws) return ws;
  const slug = (req.params.repo_slug ?? "").toLowerCase();
  const repo = s.reposBySlug.get(slug) ?? s.repos.find((r) => r.uuid === req.params.repo_slug);
  return repo && repoVisible(req, repo)
    ? repo
    : bitbucketError(404, `Repository ${s.workspace.slug}/${req.params.repo_slug ?? ""} not found`);
}

export function findPullRequest(s: BitbucketState, req: SandboxRequest): { repo: Repo; pr: PullRequest } | Reply {
  const repo = findRepo(s, req);
  if (isReply(repo)) return repo;
  const id = Number(req.params.pull_request_id);
  const pr = Number.isInteger(id) ? repo.pullRequests.get(id) : undefined;
  return pr ? { repo, pr } : bitbucketError(404, `Pull request ${req.params.pull_request_id ?? ""} not found`);
}

/** The pull request a route is about, found, the state it lives in, and who acts on it. */
export interface PullRequestAt {
  s: BitbucketState;
  repo: Repo;
  pr: PullRequest;
  me: User;
}

/** A handler for one pull request: an unknown repository or id is Bitbucket's 404, before `handle` runs. */
export const onPullRequest =
  (state: () => BitbucketState, handle: (req: SandboxRequest, at: PullRequestAt) => Reply | Promise<Reply>) =>
  (req: SandboxRequest): Reply | Promise<Reply> => {
    const s = state();
    const found = findPullRequest(s, req);
    return isReply(found) ? found : handle(req, { s, ...found, me: actor(s, req) });
  };

/**
 * A paginated list. Without `q`/`sort` only the requested page is presented (the common, cheap
 * case); with them every item is presented first so the query sees the API's field names.
 */
export function listReply<T, R>(req: SandboxRequest, items: T[], present: (item: T) => R, options?: PageOptions): Reply {
  if (!req.query.get("q") && !req.query.get("sort")) return paginate(req, items, present, options);
  const filtered = queried(req, items.map(present));
  if (isReply(filtered)) return filtered;
  return paginate(req, filtered, (x) => x, options);
}

/** The JSON body as an object (a 400 for anything else). */
export function bodyObject(req: SandboxRequest): Record<string, unknown> | Reply {
  const b = req.body;
  if (b === undefined || b === null || b === "") return {};
  if (typeof b !== "object" || Array.isArray(b)) return bitbucketError(400, "Request body must be a JSON object");
  return b as Record<string, unknown>;
}

export const field = (obj: unknown, path: string): unknown => {
  let cur = obj;
  for (const key of path.split(".")) {
    if (typeof cur !== "object" || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
};

export const required = (name: string): Reply =>
  bitbucketError(400, `${name}: This field is required.`, { [name]: "This field is required." });

export const textReply = (text: string, contentType = "text/plain", headers?: Record<string, string>): Reply => ({
  status: 200,
  text,
  contentType,
  headers,
});
