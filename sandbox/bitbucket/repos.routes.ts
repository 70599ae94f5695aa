import { visibleRepos } from "./access";
import { bitbucketError } from "../core/errors";
import { json, noContent, type Reply, type Router, type SandboxRequest } from "../core/http";
import { bodyObject, field, findRepo, findWorkspace, isReply, listReply, required, textReply } from "./common";
import { diffText, diffTrees } from "./diff";
import { log, mergeBase, resolveRevision } from "./git";
import type { BitbucketState, Commit, FileDiff, Repo } from "./model";
import { presentBranch, presentCommit, presentRepo, repoApi } from "./presenters";

/** Repositories, branches, commits, diffs and diffstats. */

const R = "/2.0/repositories/:workspace/:repo_slug";

/** `a..b` (changes on `a` since it diverged from `b`, or against `b` itself with topic=false), or one commit against its first parent. */
export function resolveSpec(repo: Repo, spec: string, topic = true): { from: string; to: string } | Reply {
  const dots = spec.indexOf("..");
  if (dots === -1) {
    const c = resolveRevision(repo, spec);
    if (!c) return bitbucketError(404, `Commit not found: ${spec}`);
    return { from: c.parents[0] ?? "", to: c.hash };
  }
  const a = resolveRevision(repo, spec.slice(0, dots));
  const b = resolveRevision(repo, spec.slice(dots + 2));
  if (!a || !b) return bitbucketError(404, `Commit not found: ${!a ? spec.slice(0, dots) : spec.slice(dots + 2)}`);
  return { from: topic ? mergeBase(repo, a.hash, b.hash) : b.hash, to: a.hash };
}

export function presentDiffstat(origin: string, s: BitbucketState, repo: Repo, from: string, to: string, f: FileDiff) {
  const side = (path: string | null, hash: string) =>
    path === null
      ? null
      : {
          path,
          type: "commit_file",
          escaped_path: path,
          links: { self: { href: `${repoApi(origin, s, repo.slug)}/src/${hash}/${path}` } },
        };
  return {
    type: "diffstat",
    lines_added: f.linesAdded,
    lines_removed: f.linesRemoved,
    status: f.status,
    old: side(f.oldPath, from),
    new: side(f.newPath, to),
  };
}

export function diffstatReply(req: SandboxRequest, s: BitbucketState, repo: Repo, from: string, to: string): Reply {
  const paths = req.query.getAll("path");
  const files = diffTrees(repo, from, to).filter((f) => paths.length === 0 || paths.includes(f.newPath ?? f.oldPath ?? ""));
  return listReply(req, files, (f) => presentDiffstat(req.origin, s, repo, from, to, f), { defaultPagelen: 500, maxPagelen: 5000 });
}

export const diffReply = (req: SandboxRequest, repo: Repo, from: string, to: string): Reply =>
  textReply(diffText(diffTrees(repo, from, to), req.query.getAll("path")));

function commitsReply(req: SandboxRequest, s: BitbucketState, repo: Repo, revision: string | null): Reply {
  const include = [...req.query.getAll("include")];
  const exclude = req.query.getAll("exclude");
  if (revision) include.push(revision);
  const heads = include.length > 0 ? include : [...repo.branches.keys()];
  const hashes: string[] = [];
  for (const rev of [...heads, ...exclude]) {
    const c = resolveRevision(repo, rev);
    if (!c) return bitbucketError(404, `Commit not found: ${rev}`);
    hashes.push(c.hash);
  }
  const commits = log(repo, hashes.slice(0, heads.length), hashes.slice(heads.length));
  return listReply(req, commits, (c) => presentCommit(req.origin, s, repo, c), { defaultPagelen: 30, withSize: false });
}

const BRANCH_NAME = /^(?!\/|.*\/\/|.*\.\.|.*\/$)[\w./-]+$/;

export function repoRoutes(router: Router, state: () => BitbucketState): void {
  router.get("/2.0/repositories/:workspace", (req) => {
    const s = state();
    return findWorkspace(s, req.params.workspace) ?? listReply(req, visibleRepos(req, s.repos), (r) => presentRepo(req.origin, s, r));
  });

  router.get(R, (req) => {
    const s = state();
    const repo = findRepo(s, req);
    return isReply(repo) ? repo : json(presentRepo(req.origin, s, repo));
  });

  router.get(`${R}/refs/branches`, (req) => {
    const s = state();
    const repo = findRepo(s, req);
    if (isReply(repo)) return repo;
    return listReply(req, [...repo.branches], ([name, hash]) => presentBranch(req.origin, s, repo, name, repo.commits.get(hash)!));
  });

  router.get(`${R}/refs/branches/*name`, (req) => {
    const s = state();
    const repo = findRepo(s, req);
    if (isReply(repo)) return repo;
    const name = (req.params.name ?? "").replace(/\/$/, "");
    const hash = repo.branches.get(name);
    return hash
      ? json(presentBranch(req.origin, s, repo, name, repo.commits.get(hash)!))
      : bitbucketError(404, `Branch not found: ${name}`);
  });

  router.post(`${R}/refs/branches`, (req) => {
    const s = state();
    const repo = findRepo(s, req);
    if (isReply(repo)) return repo;
    const body = bodyObject(req);
    if (isReply(body)) return body;
    const name = body.name;
    if (typeof name !== "string" || name === "") return required("name");
    if (!BRANCH_NAME.test(name)) return bitbucketError(400, `name: "${name}" is not a valid branch name.`, { name: "Invalid branch name" });
    if (repo.branches.has(name)) return bitbucketError(400, `BRANCH_ALREADY_EXISTS: Branch "${name}" already exists`);
    const target = field(body, "target.hash");
    if (typeof target !== "string" || target === "") return required("target.hash");
    const commit = resolveRevision(repo, target);
    if (!commit) return bitbucketError(400, `target.hash: Commit not found: ${target}`);
    repo.branches.set(name, commit.hash);
    repo.updatedOn = Date.now();
    const branch = presentBranch(req.origin, s, repo, name, commit);
    return json(branch, 201, { location: branch.links.self.href });
  });

  router.delete(`${R}/refs/branches/*name`, (req) => {
    const s = state();
    const repo = findRepo(s, req);
    if (isReply(repo)) return repo;
    const name = (req.params.name ?? "").replace(/\/$/, "");
    if (!repo.branches.has(name)) return bitbucketError(404, `Branch not found: ${name}`);
    if (name === repo.mainbranch) return bitbucketError(400, "You can't delete the main branch.");
    repo.branches.delete(name);
    repo.updatedOn = Date.now();
    return noContent();
  });

  router.get(`${R}/refs/tags`, (req) => {
    const s = state();
    const repo = findRepo(s, req);
    return isReply(repo) ? repo : listReply(req, [] as Commit[], (c) => c);
  });

  router.get(`${R}/commits`, (req) => {
    const s = state();
    const repo = findRepo(s, req);
    return isReply(repo) ? repo : commitsReply(req, s, repo, null);
  });

  router.get(`${R}/commits/*revision`, (req) => {
    const s = state();
    const repo = findRepo(s, req);
    return isReply(repo) ? repo : commitsReply(req, s, repo, (req.params.revision ?? "").replace(/\/$/, "") || null);
  });

  router.get(`${R}/commit/:commit`, (req) => {
    const s = state();
    const repo = findRepo(s, req);
    if (isReply(repo)) return repo;
    const c = resolveRevision(repo, req.params.commit ?? "");
    return c ? json(presentCommit(req.origin, s, repo, c)) : bitbucketError(404, `Commit not found: ${req.params.commit ?? ""}`);
  });

  router.get(`${R}/diff/*spec`, (req) => {
    const s = state();
    const repo = findRepo(s, req);
    if (isReply(repo)) return repo;
    const spec = resolveSpec(repo, req.params.spec ?? "", req.query.get("topic") !== "false");
    return isReply(spec) ? spec : diffReply(req, repo, spec.from, spec.to);
  });

  router.get(`${R}/diffstat/*spec`, (req) => {
    const s = state();
    const repo = findRepo(s, req);
    if (isReply(repo)) return repo;
    const spec = resolveSpec(repo, req.params.spec ?? "", req.query.get("topic") !== "false");
    return isReply(spec) ? spec : diffstatReply(req, s, repo, spec.from, spec.to);
  });
}
