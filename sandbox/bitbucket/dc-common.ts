import { DC_CONTEXT, bitbucketDcError } from "../core/datacenter";
import type { Handler, Reply, Router, SandboxRequest } from "../core/http";
import { canSeeRepo } from "../identity/caller";
import { actor } from "./access";
import { ensurePersonalProjects, personalOwner } from "./dc-personal";
import type { BitbucketState, Comment, PullRequest, Repo, Task, User } from "./model";

/**
 * Plumbing of the Bitbucket Data Center (REST 1.0) flavour: its routes over the Cloud model (the
 * same seeded state, presented in DC's shapes), its pages, lookups, versions and errors.
 * Shapes follow Atlassian's Bitbucket Data Center REST reference and public DC clients
 * (atlassian-python-api's `bitbucket/__init__.py`, cdancy/bitbucket-rest's test fixtures).
 */

const REPLY_KEYS = new Set(["status", "body", "text", "bytes", "contentType", "headers"]);
/**
 * A reply rather than a value. Stricter than the Cloud module's test: a DC request body may carry a
 * `status` of its own (a participant's APPROVED), which must not pass for a reply.
 */
export const isReply = (x: unknown): x is Reply =>
  typeof x === "object" &&
  x !== null &&
  !Array.isArray(x) &&
  typeof (x as { status?: unknown }).status === "number" &&
  Object.keys(x).every((k) => REPLY_KEYS.has(k));
export const dcError = bitbucketDcError;

/** Where DC's web pages are: the context path on the request's origin (links in DC answers are absolute). */
export const webBase = (req: SandboxRequest): string => `${req.origin}${DC_CONTEXT.bitbucket}`;

/**
 * DC's REST resources answer under `/rest/api/1.0` and its alias `/rest/api/latest`; every reply
 * carries `X-AUSERNAME`/`X-AUSERID` for the authenticated user, as Bitbucket Server does (clients
 * read who they are from them: there is no `/user` on DC).
 */
export function dcRoutes(router: Router, state: () => BitbucketState) {
  const wrap =
    (handler: Handler): Handler =>
    async (req) => {
      const s = state();
      ensurePersonalProjects(s);
      const reply = await handler(req);
      const me = actor(s, req);
      reply.headers = { ...reply.headers, "x-ausername": me.nickname, "x-auserid": String(userId(s, me)) };
      return reply;
    };
  const add = (method: "get" | "post" | "put" | "delete", path: string, handler: Handler, roots: string[]) => {
    for (const root of roots) router[method](`${root}${path}`, wrap(handler));
  };
  const API = ["/rest/api/1.0", "/rest/api/latest"];
  return {
    get: (path: string, h: Handler) => add("get", path, h, API),
    post: (path: string, h: Handler) => add("post", path, h, API),
    put: (path: string, h: Handler) => add("put", path, h, API),
    delete: (path: string, h: Handler) => add("delete", path, h, API),
    /** A resource under another REST plugin's root (`/rest/branch-utils/1.0`, `/rest/search/latest`). */
    at: (method: "get" | "post" | "put" | "delete", path: string, h: Handler) => add(method, path, h, [""]),
  };
}
export type DcRoutes = ReturnType<typeof dcRoutes>;

/** DC's numeric ids: the position in the seeded lists (stable for a seed). */
export const userId = (s: BitbucketState, u: User): number => s.users.indexOf(u) + 1;
export const repoId = (s: BitbucketState, r: Repo): number => s.repos.indexOf(r) + 1;

/** A user by name or slug (DC compares them case-insensitively). */
export const userNamed = (s: BitbucketState, name: string): User | undefined => {
  const lower = name.toLowerCase();
  return s.users.find((u) => u.nickname.toLowerCase() === lower);
};

/**
 * A DC page: `{size, limit, isLastPage, values, start, nextPageStart}` (`size` counts this page's
 * values; DC gives no total). A limit above the maximum is lowered to it, as DC does.
 */
export function dcPage<T, R>(req: SandboxRequest, items: readonly T[], present: (item: T) => R, max = 1000, fallback = 25): Reply {
  const start = Number(req.query.get("start") ?? "0");
  const asked = Number(req.query.get("limit") ?? String(fallback));
  if (!Number.isInteger(start) || start < 0) return dcError(400, "start must be a non-negative whole number");
  if (!Number.isInteger(asked) || asked < 1) return dcError(400, "limit must be a positive whole number");
  const limit = Math.min(asked, max);
  const values = items.slice(start, start + limit).map(present);
  const isLastPage = start + values.length >= items.length;
  return {
    status: 200,
    body: { size: values.length, limit, isLastPage, values, start, ...(isLastPage ? {} : { nextPageStart: start + values.length }) },
  };
}

export function dcBody(req: SandboxRequest): Record<string, unknown> | Reply {
  const b = req.body;
  if (b === undefined || b === null || b === "") return {};
  if (typeof b !== "object" || Array.isArray(b)) return dcError(400, "The request body must be a JSON object");
  return b as Record<string, unknown>;
}

/** Whether the caller may see a repository: a personal one only its owner (and the service account). */
export function dcRepoVisible(req: SandboxRequest, repo: Repo): boolean {
  if (req.caller.kind === "service") return true;
  const owner = personalOwner(repo.projectKey);
  return owner !== null ? owner === req.caller.person.nickname.toLowerCase() : canSeeRepo(req.caller, repo.slug);
}

export const dcVisibleRepos = (req: SandboxRequest, s: BitbucketState): Repo[] => s.repos.filter((r) => dcRepoVisible(req, r));

const sameKey = (a: string, b: string) => a.toUpperCase() === b.toUpperCase();

/** The repository `/projects/{projectKey}/repos/{repositorySlug}` names, or DC's 404. */
export function findDcRepo(s: BitbucketState, req: SandboxRequest): Repo | Reply {
  const key = req.params.projectKey ?? "";
  const slug = (req.params.repositorySlug ?? "").toLowerCase();
  const repo = s.reposBySlug.get(slug);
  if (repo && sameKey(repo.projectKey, key) && dcRepoVisible(req, repo)) return repo;
  if (!s.repos.some((r) => sameKey(r.projectKey, key) && dcRepoVisible(req, r)) && !s.projectsByKey.has(key.toUpperCase()))
    return dcError(404, `Project ${key} does not exist.`);
  return dcError(404, `Repository ${key}/${req.params.repositorySlug ?? ""} does not exist.`);
}

export interface DcPullRequestAt {
  s: BitbucketState;
  repo: Repo;
  pr: PullRequest;
  me: User;
}

/** A handler for one pull request; an unknown repository or id is DC's 404 before it runs. */
export const onDcPullRequest =
  (state: () => BitbucketState, handle: (req: SandboxRequest, at: DcPullRequestAt) => Reply | Promise<Reply>) =>
  (req: SandboxRequest): Reply | Promise<Reply> => {
    const s = state();
    const repo = findDcRepo(s, req);
    if (isReply(repo)) return repo;
    const id = Number(req.params.pullRequestId);
    const pr = Number.isInteger(id) ? repo.pullRequests.get(id) : undefined;
    if (!pr) return dcError(404, `Pull request ${req.params.pullRequestId ?? ""} does not exist in ${repo.projectKey}/${repo.slug}.`);
    return handle(req, { s, repo, pr, me: actor(s, req) });
  };

/**
 * A pull request's version: DC counts its updates (each edit of title, description, reviewers or
 * target, and its merge or decline). Derived from the model, so a test that edits the pull request
 * in the sandbox's state (an entry in `edits`) makes a version held by a client stale.
 */
export const prVersion = (pr: PullRequest): number => pr.edits.length + (pr.state === "OPEN" ? 0 : 1);

/** DC's answer to a write with a stale version (409, `PullRequestOutOfDateException`, both versions named). */
export function staleVersion(pr: PullRequest, expected: number): Reply {
  return {
    status: 409,
    body: {
      errors: [
        {
          context: null,
          message: "You are attempting to modify a pull request based on out-of-date information.",
          exceptionName: "com.atlassian.bitbucket.pull.PullRequestOutOfDateException",
          currentVersion: prVersion(pr),
          expectedVersion: expected,
        },
      ],
    },
  };
}

/** The `version` a write sent (query or body); null when none was given, a 400 when it is not a number. */
export function sentVersion(req: SandboxRequest, body: Record<string, unknown>): number | null | Reply {
  const raw = req.query.get("version") ?? body.version;
  if (raw === undefined || raw === null) return null;
  const v = Number(raw);
  return Number.isInteger(v) ? v : dcError(400, "version must be a whole number", { version: "version must be a whole number" });
}

/** DC's 409 for a pull request that is not open (`IllegalPullRequestStateException`). */
export const notOpen = (pr: PullRequest, doing: string): Reply => ({
  status: 409,
  body: {
    errors: [
      {
        context: null,
        message: `Pull request ${pr.id} is ${dcState(pr).toLowerCase()}: it cannot be ${doing}.`,
        exceptionName: "com.atlassian.bitbucket.pull.IllegalPullRequestStateException",
      },
    ],
  },
});

/** DC has no SUPERSEDED state: such a pull request reads as declined. */
export const dcState = (pr: PullRequest): "OPEN" | "MERGED" | "DECLINED" =>
  pr.state === "SUPERSEDED" ? "DECLINED" : (pr.state as "OPEN" | "MERGED" | "DECLINED");

/** Comment and task versions (each edit, resolution or state change counts one). */
const versions = new WeakMap<Comment | Task, number>();
export const commentVersion = (c: Comment | Task): number => versions.get(c) ?? 0;
export const bumpComment = (c: Comment | Task): void => {
  versions.set(c, commentVersion(c) + 1);
};

/** What DC's comment anchors say that the Cloud model does not keep (line and file type), by comment. */
export const anchors = new WeakMap<Comment | Task, { lineType: string; fileType: string }>();
