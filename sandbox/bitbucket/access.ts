import type { SandboxRequest } from "../core/http";
import { canSeeRepo } from "../identity/caller";
import type { BitbucketState, Repo, User } from "./model";

/**
 * What the request's caller may see (identity/caller.ts): the service account every repository of
 * the workspace, a person those they may see (any other answers 404, as Bitbucket does).
 */

export const repoVisible = (req: SandboxRequest, repo: Repo): boolean => canSeeRepo(req.caller, repo.slug);

/** The repositories the caller may see: the same array for the service account (no copy). */
export const visibleRepos = (req: SandboxRequest, repos: Repo[]): Repo[] =>
  req.caller.kind === "service" ? repos : repos.filter((r) => repoVisible(req, r));

/** The user the caller's writes are by: the workspace's own account, or the person. */
export const actor = (s: BitbucketState, req: SandboxRequest): User =>
  req.caller.kind === "service" ? s.me : (s.usersByKey.get(req.caller.person.accountId) ?? s.me);
