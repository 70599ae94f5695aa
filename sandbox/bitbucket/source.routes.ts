import { bitbucketError } from "../core/errors";
import { json, type Reply, type Router, type SandboxRequest } from "../core/http";
import { findRepo, isReply, listReply, textReply } from "./common";
import { blobId } from "./diff";
import { listDirectory, resolveRevision, treeAt } from "./git";
import type { BitbucketState, Commit, Repo } from "./model";
import { repoApi } from "./presenters";

/** `src`: directory listings, raw files and `?format=meta`. */

const R = "/2.0/repositories/:workspace/:repo_slug";

const MIME: Record<string, string> = {
  json: "application/json",
  md: "text/markdown",
  py: "text/x-python",
  ts: "application/typescript",
  js: "application/javascript",
  go: "text/x-go",
  toml: "application/toml",
};

const mimeOf = (path: string): string | null => {
  const ext = path.includes(".") ? path.slice(path.lastIndexOf(".") + 1) : "";
  return MIME[ext] ?? (ext ? "text/plain" : null);
};

function fileMeta(origin: string, s: BitbucketState, repo: Repo, c: Commit, path: string, content: string) {
  const src = `${repoApi(origin, s, repo.slug)}/src/${c.hash}/${path}`;
  return {
    path,
    commit: commitLink(origin, s, repo, c),
    type: "commit_file",
    attributes: [],
    escaped_path: path,
    size: Buffer.byteLength(content),
    mimetype: mimeOf(path),
    links: {
      self: { href: src },
      meta: { href: `${src}?format=meta` },
      history: { href: `${repoApi(origin, s, repo.slug)}/filehistory/${c.hash}/${path}` },
    },
  };
}

const commitLink = (origin: string, s: BitbucketState, repo: Repo, c: Commit) => ({
  type: "commit",
  hash: c.hash,
  links: {
    self: { href: `${repoApi(origin, s, repo.slug)}/commit/${c.hash}` },
    html: { href: `${origin}/${s.workspace.slug}/${repo.slug}/commits/${c.hash}` },
  },
});

function dirMeta(origin: string, s: BitbucketState, repo: Repo, c: Commit, path: string) {
  const src = `${repoApi(origin, s, repo.slug)}/src/${c.hash}/${path}${path ? "/" : ""}`;
  return {
    path,
    type: "commit_directory",
    commit: commitLink(origin, s, repo, c),
    links: { self: { href: src }, meta: { href: `${src}?format=meta` } },
  };
}

/**
 * The commit segment may be a branch whose name has slashes: `src/feature/x/README.md` resolves
 * `feature/x` when `feature` alone is not a revision, as the web UI does.
 */
function resolvePath(repo: Repo, commit: string, rest: string): { c: Commit; path: string } | null {
  const direct = resolveRevision(repo, commit);
  if (direct) return { c: direct, path: rest };
  const parts = rest.split("/");
  for (let i = 1; i <= parts.length; i++) {
    const c = resolveRevision(repo, [commit, ...parts.slice(0, i)].join("/"));
    if (c) return { c, path: parts.slice(i).join("/") };
  }
  return null;
}

function srcReply(req: SandboxRequest, s: BitbucketState, repo: Repo, commit: string, rawPath: string): Reply {
  const found = resolvePath(repo, commit, rawPath.replace(/^\/+|\/+$/g, ""));
  if (!found) return bitbucketError(404, `Commit not found: ${commit}`);
  const { c, path } = found;
  const tree = treeAt(repo, c.hash);
  const content = tree.get(path);
  const meta = req.query.get("format") === "meta";
  if (content !== undefined) {
    if (meta) return json(fileMeta(req.origin, s, repo, c, path, content));
    const contentType = path.endsWith(".json") ? "application/json" : "text/plain";
    return textReply(content, contentType, { etag: `"${blobId(content)}"`, "content-disposition": "attachment" });
  }
  const listing = listDirectory(tree, path);
  if (!listing) return bitbucketError(404, `No such file or directory: ${path}`);
  if (meta) return json(dirMeta(req.origin, s, repo, c, path));
  const entries = [...listing.dirs.map((d) => ({ dir: true, path: d })), ...listing.files.map((f) => ({ dir: false, path: f }))].sort(
    (a, b) => (a.path < b.path ? -1 : 1),
  );
  return listReply(
    req,
    entries,
    (e) => (e.dir ? dirMeta(req.origin, s, repo, c, e.path) : fileMeta(req.origin, s, repo, c, e.path, tree.get(e.path)!)),
    {
      defaultPagelen: 10,
    },
  );
}

export function sourceRoutes(router: Router, state: () => BitbucketState): void {
  // Like Bitbucket, the bare `src` redirects to the main branch's tip.
  router.get(`${R}/src`, (req) => {
    const s = state();
    const repo = findRepo(s, req);
    if (isReply(repo)) return repo;
    const tip = repo.branches.get(repo.mainbranch)!;
    const query = req.query.toString();
    return { status: 302, headers: { location: `${repoApi(req.origin, s, repo.slug)}/src/${tip}/${query ? `?${query}` : ""}` } };
  });

  router.get(`${R}/src/:commit`, (req) => {
    const s = state();
    const repo = findRepo(s, req);
    return isReply(repo) ? repo : srcReply(req, s, repo, req.params.commit ?? "", "");
  });

  router.get(`${R}/src/:commit/*path`, (req) => {
    const s = state();
    const repo = findRepo(s, req);
    return isReply(repo) ? repo : srcReply(req, s, repo, req.params.commit ?? "", req.params.path ?? "");
  });
}
