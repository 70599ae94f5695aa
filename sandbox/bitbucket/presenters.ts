import type { BitbucketState, Commit, Project, Repo, User } from "./model";

/** Bitbucket Cloud 2.0 JSON shapes for the model. `o` is the request origin (links are absolute). */

export const isoDate = (ms: number): string => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$1000+00:00");
/** Commit dates have no fraction on Bitbucket. */
export const commitDate = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "+00:00");

export const href = (h: string) => ({ href: h });

/**
 * Presented objects are memoised per origin (and version) on the model object they describe, so a
 * hot GET mostly serialises ready-made JSON. Handlers must treat presented objects as read-only.
 */
const memoStore = new WeakMap<object, Map<string, unknown>>();
export function memo<T>(target: object, key: string, make: () => T): T {
  let m = memoStore.get(target);
  if (!m) {
    m = new Map();
    memoStore.set(target, m);
  }
  let v = m.get(key) as T | undefined;
  if (v === undefined) {
    if (m.size >= 8) m.clear();
    v = make();
    m.set(key, v);
  }
  return v;
}
const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const renderedCache = new Map<string, ReturnType<typeof renderMarkdown>>();

/** Markdown rendered the way the API's `content.html` looks for plain paragraphs (memoised). */
export function rendered(raw: string) {
  let hit = renderedCache.get(raw);
  if (!hit) {
    if (renderedCache.size >= 5000) renderedCache.clear();
    hit = renderMarkdown(raw);
    renderedCache.set(raw, hit);
  }
  return hit;
}

function renderMarkdown(raw: string) {
  const html = raw
    .split(/\n{2,}/)
    .filter((p) => p.trim() !== "")
    .map(
      (p) =>
        `<p>${escapeHtml(p)
          .replace(/`([^`]+)`/g, "<code>$1</code>")
          .replace(/\n/g, "<br>\n")}</p>`,
    )
    .join("\n");
  return { type: "rendered", raw, markup: "markdown", html };
}

export const repoApi = (o: string, s: BitbucketState, slug: string) => `${o}/2.0/repositories/${s.workspace.slug}/${slug}`;
export const repoHtml = (o: string, s: BitbucketState, slug: string) => `${o}/${s.workspace.slug}/${slug}`;

export const presentUser = (o: string, u: User) => memo(u, o, () => userJson(o, u));

function userJson(o: string, u: User) {
  const uuid = encodeURIComponent(u.uuid);
  return {
    display_name: u.displayName,
    links: { self: href(`${o}/2.0/users/${uuid}`), avatar: href(`${o}/account/${u.nickname}/avatar/`), html: href(`${o}/${uuid}/`) },
    type: "user",
    uuid: u.uuid,
    account_id: u.accountId,
    nickname: u.nickname,
  };
}

export function presentMe(o: string, u: User) {
  return {
    ...presentUser(o, u),
    username: u.nickname,
    created_on: isoDate(u.createdOn),
    is_staff: false,
    account_status: "active",
    has_2fa_enabled: null,
    location: null,
    website: null,
  };
}

export function presentWorkspace(o: string, s: BitbucketState) {
  const w = s.workspace;
  return {
    type: "workspace",
    uuid: w.uuid,
    name: w.name,
    slug: w.slug,
    is_private: true,
    created_on: isoDate(w.createdOn),
    links: {
      self: href(`${o}/2.0/workspaces/${w.slug}`),
      html: href(`${o}/${w.slug}/`),
      avatar: href(`${o}/workspaces/${w.slug}/avatar/`),
      members: href(`${o}/2.0/workspaces/${w.slug}/members`),
      projects: href(`${o}/2.0/workspaces/${w.slug}/projects`),
      repositories: href(`${o}/2.0/repositories/${w.slug}`),
    },
  };
}

const workspaceRef = (o: string, s: BitbucketState) => ({
  type: "workspace",
  uuid: s.workspace.uuid,
  name: s.workspace.name,
  slug: s.workspace.slug,
  links: { self: href(`${o}/2.0/workspaces/${s.workspace.slug}`), html: href(`${o}/${s.workspace.slug}/`) },
});

export function presentMembership(o: string, s: BitbucketState, u: User) {
  return {
    type: "workspace_membership",
    user: presentUser(o, u),
    workspace: workspaceRef(o, s),
    links: { self: href(`${o}/2.0/workspaces/${s.workspace.slug}/members/${encodeURIComponent(u.uuid)}`) },
  };
}

const projectRef = (o: string, s: BitbucketState, p: Project) => ({
  type: "project",
  key: p.key,
  uuid: p.uuid,
  name: p.name,
  links: {
    self: href(`${o}/2.0/workspaces/${s.workspace.slug}/projects/${p.key}`),
    html: href(`${o}/${s.workspace.slug}/workspace/projects/${p.key}`),
  },
});

export function presentProject(o: string, s: BitbucketState, p: Project) {
  return {
    ...projectRef(o, s, p),
    description: p.description,
    is_private: p.isPrivate,
    created_on: isoDate(p.createdOn),
    updated_on: isoDate(p.updatedOn),
    has_publicly_visible_repos: !p.isPrivate,
    owner: { ...workspaceRef(o, s), type: "team" },
    links: {
      ...projectRef(o, s, p).links,
      avatar: href(`${o}/account/user/${s.workspace.slug}/projects/${p.key}/avatar/32`),
      repositories: href(`${o}/2.0/repositories/${s.workspace.slug}?q=project.key%3D%22${p.key}%22`),
    },
  };
}

/** The short repository object embedded in commits and pull requests. */
export const repoRef = (o: string, s: BitbucketState, r: Repo) => ({
  type: "repository",
  full_name: `${s.workspace.slug}/${r.slug}`,
  links: {
    self: href(repoApi(o, s, r.slug)),
    html: href(repoHtml(o, s, r.slug)),
    avatar: href(`${o}/${s.workspace.slug}/${r.slug}/avatar/32/`),
  },
  name: r.name,
  uuid: r.uuid,
});

export const presentRepo = (o: string, s: BitbucketState, r: Repo) => memo(r, `${o}|${r.updatedOn}`, () => repoJson(o, s, r));

function repoJson(o: string, s: BitbucketState, r: Repo) {
  const api = repoApi(o, s, r.slug);
  const html = repoHtml(o, s, r.slug);
  const project = s.projectsByKey.get(r.projectKey)!;
  return {
    type: "repository",
    full_name: `${s.workspace.slug}/${r.slug}`,
    links: {
      self: href(api),
      html: href(html),
      avatar: href(`${o}/${s.workspace.slug}/${r.slug}/avatar/32/`),
      pullrequests: href(`${api}/pullrequests`),
      commits: href(`${api}/commits`),
      forks: href(`${api}/forks`),
      watchers: href(`${api}/watchers`),
      branches: href(`${api}/refs/branches`),
      tags: href(`${api}/refs/tags`),
      downloads: href(`${api}/downloads`),
      source: href(`${api}/src`),
      clone: [
        { name: "https", href: `${o.replace("://", `://${s.me.nickname}@`)}/${s.workspace.slug}/${r.slug}.git` },
        { name: "ssh", href: `git@bitbucket.org:${s.workspace.slug}/${r.slug}.git` },
      ],
      hooks: href(`${api}/hooks`),
    },
    name: r.name,
    slug: r.slug,
    description: r.description,
    scm: "git",
    website: null,
    owner: { ...workspaceRef(o, s), type: "team", display_name: s.workspace.name, username: s.workspace.slug },
    workspace: workspaceRef(o, s),
    is_private: r.isPrivate,
    project: projectRef(o, s, project),
    fork_policy: r.isPrivate ? "no_public_forks" : "allow_forks",
    created_on: isoDate(r.createdOn),
    updated_on: isoDate(r.updatedOn),
    size: r.size,
    language: r.language,
    uuid: r.uuid,
    mainbranch: { name: r.mainbranch, type: "branch" },
    override_settings: { default_merge_strategy: true, branching_model: true },
    parent: null,
    enforced_signed_commits: null,
    has_issues: r.hasIssues,
    has_wiki: r.hasWiki,
  };
}

export const commitRef = (o: string, s: BitbucketState, r: Repo, hash: string) => ({
  type: "commit",
  hash,
  links: { self: href(`${repoApi(o, s, r.slug)}/commit/${hash}`), html: href(`${repoHtml(o, s, r.slug)}/commits/${hash}`) },
});

export const presentCommit = (o: string, s: BitbucketState, r: Repo, c: Commit) => memo(c, o, () => commitJson(o, s, r, c));

function commitJson(o: string, s: BitbucketState, r: Repo, c: Commit) {
  const api = `${repoApi(o, s, r.slug)}/commit/${c.hash}`;
  return {
    type: "commit",
    hash: c.hash,
    date: commitDate(c.date),
    author: { type: "author", raw: `${c.author.displayName} <${c.author.nickname}@bridgekeeper.test>`, user: presentUser(o, c.author) },
    message: `${c.message}\n`,
    summary: rendered(`${c.message}\n`),
    links: {
      self: href(api),
      html: href(`${repoHtml(o, s, r.slug)}/commits/${c.hash}`),
      diff: href(`${repoApi(o, s, r.slug)}/diff/${c.hash}`),
      approve: href(`${api}/approve`),
      comments: href(`${api}/comments`),
      statuses: href(`${api}/statuses`),
      patch: href(`${repoApi(o, s, r.slug)}/patch/${c.hash}`),
    },
    parents: c.parents.map((p) => commitRef(o, s, r, p)),
    repository: repoRef(o, s, r),
  };
}

export function presentBranch(o: string, s: BitbucketState, r: Repo, name: string, tip: Commit) {
  const api = repoApi(o, s, r.slug);
  return {
    name,
    target: presentCommit(o, s, r, tip),
    links: {
      self: href(`${api}/refs/branches/${encodeURIComponent(name)}`),
      commits: href(`${api}/commits/${encodeURIComponent(name)}`),
      html: href(`${repoHtml(o, s, r.slug)}/branch/${encodeURIComponent(name)}`),
    },
    type: "branch",
    merge_strategies: ["merge_commit", "squash", "fast_forward"],
    default_merge_strategy: "merge_commit",
  };
}
