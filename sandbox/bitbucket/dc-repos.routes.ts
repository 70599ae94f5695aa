import { json, noContent, type Reply, type SandboxRequest } from "../core/http";
import { textReply } from "./common";
import { dcBody, dcError, dcPage, dcVisibleRepos, findDcRepo, isReply, userNamed, type DcRoutes } from "./dc-common";
import { personalOwner } from "./dc-personal";
import { dcBranch, dcCommit, dcPath, dcPersonalProject, dcProject, dcRepo, dcUser } from "./dc-present";
import { dcChange, dcFileDiff } from "./dc-present-diff";
import { diffTrees } from "./diff";
import { listDirectory, log, resolveRevision, treeAt } from "./git";
import type { BitbucketState, Commit, Repo } from "./model";

/** Bitbucket DC: who is calling, projects, repositories, branches, tags, commits, their changes and diffs, files. */

const R = "/projects/:projectKey/repos/:repositorySlug";
const BRANCH_NAME = /^(?!\/|.*\/\/|.*\.\.|.*\/$)[\w./-]+$/;

/** A ref as DC takes one: a branch (`main` or `refs/heads/main`) or a commit id. */
export function resolveAt(repo: Repo, at: string | null): Commit | null {
  if (at === null || at === "") return repo.commits.get(repo.branches.get(repo.mainbranch) ?? "") ?? null;
  return resolveRevision(repo, at.replace(/^refs\/heads\//, ""));
}

const noCommit = (repo: Repo, id: string) => dcError(404, `Commit '${id}' does not exist in repository '${repo.slug}'.`);

/** The application's version and build (DC 9.4.2 here): a client tells Data Center from Cloud, and its version, by it. */
const APPLICATION = { version: "9.4.2", buildNumber: "9004002", buildDate: "1717574400000", displayName: "Bitbucket" };

export function dcRepoRoutes(api: DcRoutes, state: () => BitbucketState): void {
  api.get("/application-properties", () => json(APPLICATION));

  api.get("/users/:userSlug", (req) => {
    const s = state();
    const u = userNamed(s, req.params.userSlug ?? "");
    return u ? json(dcUser(req, s, u)) : dcError(404, `User ${req.params.userSlug ?? ""} does not exist.`);
  });
  api.get("/users", (req) => {
    const s = state();
    const filter = (req.query.get("filter") ?? "").toLowerCase();
    const users = s.users.filter((u) => !filter || u.nickname.includes(filter) || u.displayName.toLowerCase().includes(filter));
    return dcPage(req, users, (u) => dcUser(req, s, u));
  });

  // A person sees the projects holding a repository they may see; the service account all of them.
  api.get("/projects", (req) => {
    const s = state();
    const keys = new Set(dcVisibleRepos(req, s).map((r) => r.projectKey));
    const name = (req.query.get("name") ?? "").toLowerCase();
    const projects = s.projects.filter((p) => keys.has(p.key) && (!name || p.name.toLowerCase().includes(name)));
    return dcPage(req, projects, (p) => dcProject(req, s, p));
  });

  api.get("/projects/:projectKey", (req) => {
    const s = state();
    const key = (req.params.projectKey ?? "").toUpperCase();
    const visible = dcVisibleRepos(req, s).some((r) => r.projectKey.toUpperCase() === key);
    const project = s.projectsByKey.get(key);
    if (project && (visible || req.caller.kind === "service")) return json(dcProject(req, s, project));
    if (personalOwner(key) !== null && (visible || (req.caller.kind === "person" && personalOwner(key) === req.caller.person.nickname)))
      return json(dcPersonalProject(req, s, key));
    return dcError(404, `Project ${req.params.projectKey ?? ""} does not exist.`);
  });

  api.get("/projects/:projectKey/repos", (req) => {
    const s = state();
    const key = (req.params.projectKey ?? "").toUpperCase();
    const repos = dcVisibleRepos(req, s)
      .filter((r) => r.projectKey.toUpperCase() === key)
      .sort((a, b) => a.name.localeCompare(b.name));
    if (repos.length === 0 && !s.projectsByKey.has(key)) return dcError(404, `Project ${req.params.projectKey ?? ""} does not exist.`);
    return dcPage(req, repos, (r) => dcRepo(req, s, r));
  });

  // Every repository the caller may see, personal ones included; `name` and `projectname` narrow it (substrings, any case).
  api.get("/repos", (req) => {
    const s = state();
    const name = (req.query.get("name") ?? "").toLowerCase();
    const projectName = (req.query.get("projectname") ?? "").toLowerCase();
    const projectNameOf = (r: Repo) => (s.projectsByKey.get(r.projectKey)?.name ?? r.projectKey).toLowerCase();
    const repos = dcVisibleRepos(req, s)
      .filter((r) => (!name || r.name.toLowerCase().includes(name)) && (!projectName || projectNameOf(r).includes(projectName)))
      .sort((a, b) => (a.projectKey === b.projectKey ? a.name.localeCompare(b.name) : a.projectKey < b.projectKey ? -1 : 1));
    return dcPage(req, repos, (r) => dcRepo(req, s, r));
  });

  api.get(R, (req) => {
    const s = state();
    const repo = findDcRepo(s, req);
    return isReply(repo) ? repo : json(dcRepo(req, s, repo));
  });

  api.get(`${R}/branches`, (req) => {
    const s = state();
    const repo = findDcRepo(s, req);
    if (isReply(repo)) return repo;
    const filter = (req.query.get("filterText") ?? "").toLowerCase();
    const details = req.query.get("details") === "true";
    const tip = (hash: string) => repo.commits.get(hash)!;
    const branches = [...repo.branches].filter(([name]) => !filter || name.toLowerCase().includes(filter));
    if (req.query.get("orderBy") === "ALPHABETICAL") branches.sort(([a], [b]) => a.localeCompare(b));
    else branches.sort(([, a], [, b]) => tip(b).date - tip(a).date);
    return dcPage(req, branches, ([name, hash]) => dcBranch(req, s, repo, name, tip(hash), details));
  });

  // The default branch: `/default-branch` (a minimal ref, DC 7.5+) and the older `/branches/default` (a branch).
  api.get(`${R}/branches/default`, (req) => {
    const s = state();
    const repo = findDcRepo(s, req);
    if (isReply(repo)) return repo;
    const tip = repo.commits.get(repo.branches.get(repo.mainbranch) ?? "");
    return tip ? json(dcBranch(req, s, repo, repo.mainbranch, tip, false)) : noContent();
  });
  api.get(`${R}/default-branch`, (req) => {
    const repo = findDcRepo(state(), req);
    if (isReply(repo)) return repo;
    return json({ id: `refs/heads/${repo.mainbranch}`, displayId: repo.mainbranch, type: "BRANCH" });
  });

  /** `{name, startPoint}`: the core API's branch creation, and branch-utils' (the same body and answer). */
  const createBranch = (req: SandboxRequest): Reply => {
    const s = state();
    const repo = findDcRepo(s, req);
    if (isReply(repo)) return repo;
    const body = dcBody(req);
    if (isReply(body)) return body;
    const name = typeof body.name === "string" ? body.name.replace(/^refs\/heads\//, "") : "";
    if (!name) return dcError(400, "name: A branch name is required.", { name: "A branch name is required." });
    if (!BRANCH_NAME.test(name))
      return dcError(400, `'${name}' is an invalid branch name.`, { name: `'${name}' is an invalid branch name.` });
    if (repo.branches.has(name)) return dcError(409, `Branch '${name}' already exists in repository '${repo.slug}'.`);
    const start = typeof body.startPoint === "string" ? resolveAt(repo, body.startPoint) : null;
    if (!start) return dcError(400, `startPoint: '${String(body.startPoint ?? "")}' is not a branch or commit of ${repo.slug}.`);
    repo.branches.set(name, start.hash);
    repo.updatedOn = Date.now();
    return json(dcBranch(req, s, repo, name, start, false));
  };
  api.post(`${R}/branches`, createBranch);
  api.at("post", `/rest/branch-utils/1.0${R}/branches`, createBranch);
  api.at("delete", `/rest/branch-utils/1.0${R}/branches`, (req) => {
    const repo = findDcRepo(state(), req);
    if (isReply(repo)) return repo;
    const body = dcBody(req);
    if (isReply(body)) return body;
    const name = typeof body.name === "string" ? body.name.replace(/^refs\/heads\//, "") : "";
    if (!repo.branches.has(name)) return dcError(404, `Branch '${name}' does not exist in repository '${repo.slug}'.`);
    if (name === repo.mainbranch) return dcError(400, `'${name}' is the default branch and cannot be deleted.`);
    repo.branches.delete(name);
    return noContent();
  });

  // No tags are seeded (as on the Cloud flavour).
  api.get(`${R}/tags`, (req) => {
    const repo = findDcRepo(state(), req);
    return isReply(repo) ? repo : dcPage(req, [], (x) => x);
  });

  api.get(`${R}/commits`, (req) => {
    const s = state();
    const repo = findDcRepo(s, req);
    if (isReply(repo)) return repo;
    const until = resolveAt(repo, req.query.get("until"));
    if (!until) return noCommit(repo, req.query.get("until") ?? "");
    const sinceRef = req.query.get("since");
    const since = sinceRef ? resolveAt(repo, sinceRef) : null;
    if (sinceRef && !since) return noCommit(repo, sinceRef);
    const path = req.query.get("path");
    const commits = log(repo, [until.hash], since ? [since.hash] : []).filter(
      (c) => !path || c.ops.some((op) => op.path === path || op.path.startsWith(`${path}/`)),
    );
    return dcPage(req, commits, (c) => dcCommit(req, s, c));
  });

  const onCommit = (handle: (req: SandboxRequest, s: BitbucketState, repo: Repo, c: Commit) => Reply) => (req: SandboxRequest) => {
    const s = state();
    const repo = findDcRepo(s, req);
    if (isReply(repo)) return repo;
    const c = resolveAt(repo, req.params.commitId ?? "");
    return c ? handle(req, s, repo, c) : noCommit(repo, req.params.commitId ?? "");
  };
  /** A commit's changes: against `since`, or its first parent (the empty tree for the first commit). */
  const base = (req: SandboxRequest, repo: Repo, c: Commit) => {
    const since = req.query.get("since");
    return since ? (resolveAt(repo, since)?.hash ?? "") : (c.parents[0] ?? "");
  };
  api.get(
    `${R}/commits/:commitId`,
    onCommit((req, s, _repo, c) => json(dcCommit(req, s, c))),
  );
  api.get(
    `${R}/commits/:commitId/changes`,
    onCommit((req, _s, repo, c) => {
      const from = base(req, repo, c);
      return dcPage(req, diffTrees(repo, from, c.hash), (f) => dcChange(req, repo, f, c.hash), 1000, 25);
    }),
  );
  const diffOf = (req: SandboxRequest, repo: Repo, from: string, to: string, path?: string) => {
    const files = diffTrees(repo, from, to).filter((f) => !path || f.newPath === path || f.oldPath === path);
    return json({
      fromHash: from || null,
      toHash: to,
      contextLines: 3,
      whitespace: "SHOW",
      diffs: files.map(dcFileDiff),
      truncated: false,
    });
  };
  api.get(
    `${R}/commits/:commitId/diff`,
    onCommit((req, _s, repo, c) => diffOf(req, repo, base(req, repo, c), c.hash)),
  );
  api.get(
    `${R}/commits/:commitId/diff/*path`,
    onCommit((req, _s, repo, c) => diffOf(req, repo, base(req, repo, c), c.hash, req.params.path)),
  );

  /** A file's lines, a directory's children, or (`type=true`) only which it is. */
  const browse = (req: SandboxRequest): Reply => {
    const s = state();
    const repo = findDcRepo(s, req);
    if (isReply(repo)) return repo;
    const at = req.query.get("at");
    const c = resolveAt(repo, at);
    if (!c) return noCommit(repo, at ?? "");
    const path = (req.params.path ?? "").replace(/^\/+|\/+$/g, "");
    const tree = treeAt(repo, c.hash);
    const content = tree.get(path);
    const listing = content === undefined ? listDirectory(tree, path) : null;
    if (content === undefined && !listing) return dcError(404, `The path "${path}" does not exist at revision "${at ?? repo.mainbranch}"`);
    if (req.query.get("type") === "true") return json({ type: content === undefined ? "DIRECTORY" : "FILE" });
    if (content !== undefined) {
      const lines = content.split("\n");
      if (lines[lines.length - 1] === "") lines.pop();
      const page = dcPage(req, lines, (text) => ({ text }), 5000, 500);
      if (page.status !== 200) return page;
      const { values, ...rest } = page.body as { values: unknown[] };
      return json({ lines: values, ...rest });
    }
    const children = [...listing!.dirs.map((d) => ({ d, dir: true })), ...listing!.files.map((d) => ({ d, dir: false }))];
    const page = dcPage(req, children, ({ d, dir }) => {
      const name = d.slice(path ? path.length + 1 : 0);
      return dir
        ? { path: dcPath(name), type: "DIRECTORY" }
        : { path: dcPath(name), contentId: c.hash, type: "FILE", size: Buffer.byteLength(tree.get(d)!) };
    });
    return page.status === 200 ? json({ path: dcPath(path), revision: at ?? `refs/heads/${repo.mainbranch}`, children: page.body }) : page;
  };
  api.get(`${R}/browse`, browse);
  api.get(`${R}/browse/*path`, browse);

  api.get(`${R}/raw/*path`, (req) => {
    const repo = findDcRepo(state(), req);
    if (isReply(repo)) return repo;
    const at = req.query.get("at");
    const c = resolveAt(repo, at);
    if (!c) return noCommit(repo, at ?? "");
    const path = (req.params.path ?? "").replace(/^\/+|\/+$/g, "");
    const content = treeAt(repo, c.hash).get(path);
    if (content === undefined) return dcError(404, `The path "${path}" does not exist at revision "${at ?? repo.mainbranch}"`);
    return textReply(content, "text/plain;charset=UTF-8");
  });
}
