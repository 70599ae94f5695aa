import type { SandboxRequest } from "../core/http";
import { dcState, prVersion, repoId, userId, webBase } from "./dc-common";
import { personalOwner } from "./dc-personal";
import type { BitbucketState, Commit, Participant, PullRequest, Project, Repo, User } from "./model";
import { prTips } from "./presenters.pr";

/**
 * Bitbucket Data Center REST 1.0 shapes of the model (RestApplicationUser, RestProject,
 * RestRepository, RestBranch, RestCommit, RestChange, RestPullRequest, RestComment): field names as
 * in Atlassian's DC REST reference and the fixtures of cdancy/bitbucket-rest. Links are
 * `{name: [{href}]}` arrays; times are epoch milliseconds.
 */

const self = (href: string) => ({ self: [{ href }] });

export function dcUser(req: SandboxRequest, s: BitbucketState, u: User) {
  return {
    name: u.nickname,
    emailAddress: `${u.nickname}@bridgekeeper.test`,
    id: userId(s, u),
    displayName: u.displayName,
    active: true,
    slug: u.nickname.toLowerCase(),
    type: "NORMAL",
    links: self(`${webBase(req)}/users/${u.nickname.toLowerCase()}`),
  };
}

export function dcProject(req: SandboxRequest, s: BitbucketState, p: Project) {
  return {
    key: p.key,
    id: s.projects.indexOf(p) + 1,
    name: p.name,
    description: p.description,
    public: !p.isPrivate,
    type: "NORMAL",
    links: self(`${webBase(req)}/projects/${p.key}`),
  };
}

/** A personal project (`~USERNAME`): named after its owner, who it embeds. */
export function dcPersonalProject(req: SandboxRequest, s: BitbucketState, key: string) {
  const owner = s.users.find((u) => u.nickname.toLowerCase() === personalOwner(key));
  return {
    key,
    id: 1000 + (owner ? userId(s, owner) : 0),
    name: owner?.displayName ?? key.slice(1),
    type: "PERSONAL",
    ...(owner ? { owner: dcUser(req, s, owner) } : {}),
    links: self(`${webBase(req)}/users/${(personalOwner(key) ?? "").toLowerCase()}`),
  };
}

const projectOf = (req: SandboxRequest, s: BitbucketState, key: string) => {
  const p = s.projectsByKey.get(key);
  return p ? dcProject(req, s, p) : dcPersonalProject(req, s, key);
};

/** Where a repository's pages are: `/projects/KEY/repos/slug`, or `/users/name/repos/slug` for a personal one. */
export function repoWeb(req: SandboxRequest, r: Repo): string {
  const owner = personalOwner(r.projectKey);
  return owner ? `${webBase(req)}/users/${owner}/repos/${r.slug}` : `${webBase(req)}/projects/${r.projectKey}/repos/${r.slug}`;
}

export function dcRepo(req: SandboxRequest, s: BitbucketState, r: Repo) {
  const scmPath = `${r.projectKey.toLowerCase()}/${r.slug}.git`;
  const host = new URL(req.origin).hostname;
  return {
    slug: r.slug,
    id: repoId(s, r),
    name: r.name,
    description: r.description,
    hierarchyId: r.uuid.replace(/[{}-]/g, "").slice(0, 20),
    scmId: "git",
    state: "AVAILABLE",
    statusMessage: "Available",
    forkable: true,
    project: projectOf(req, s, r.projectKey),
    public: !r.isPrivate,
    archived: false,
    links: {
      clone: [
        { href: `${webBase(req)}/scm/${scmPath}`, name: "http" },
        { href: `ssh://git@${host}:7999/${scmPath}`, name: "ssh" },
      ],
      ...self(`${repoWeb(req, r)}/browse`),
    },
  };
}

export function dcCommit(req: SandboxRequest, s: BitbucketState, c: Commit) {
  const person = dcUser(req, s, c.author);
  return {
    id: c.hash,
    displayId: c.hash.slice(0, 11),
    author: person,
    authorTimestamp: c.date,
    committer: person,
    committerTimestamp: c.date,
    message: c.message,
    parents: c.parents.map((p) => ({ id: p, displayId: p.slice(0, 11) })),
  };
}

/** A branch (RestBranch); with `details`, the plugin metadata carrying its latest commit as DC's branch list does. */
export function dcBranch(req: SandboxRequest, s: BitbucketState, r: Repo, name: string, tip: Commit, details: boolean) {
  return {
    id: `refs/heads/${name}`,
    displayId: name,
    type: "BRANCH",
    latestCommit: tip.hash,
    latestChangeset: tip.hash,
    isDefault: name === r.mainbranch,
    ...(details ? { metadata: { "com.atlassian.bitbucket.server.bitbucket-branch:latest-commit-metadata": dcCommit(req, s, tip) } } : {}),
  };
}

/** A path as DC gives it: components, parent, name, extension, toString. */
export function dcPath(path: string) {
  const components = path === "" ? [] : path.split("/");
  const name = components[components.length - 1] ?? "";
  const dot = name.lastIndexOf(".");
  return {
    components,
    parent: components.slice(0, -1).join("/"),
    name,
    ...(dot > 0 ? { extension: name.slice(dot + 1) } : {}),
    toString: path,
  };
}

const STATUS = { approved: "APPROVED", changes_requested: "NEEDS_WORK" } as const;

export function dcParticipant(req: SandboxRequest, s: BitbucketState, p: Participant) {
  return {
    user: dcUser(req, s, p.user),
    role: p.role,
    approved: p.approved,
    status: p.state ? STATUS[p.state] : "UNAPPROVED",
  };
}

export const prWeb = (req: SandboxRequest, r: Repo, pr: PullRequest) => `${repoWeb(req, r)}/pull-requests/${pr.id}`;

export function dcPullRequest(req: SandboxRequest, s: BitbucketState, r: Repo, pr: PullRequest) {
  const tips = prTips(r, pr);
  const ref = (branch: string, hash: string) => ({
    id: `refs/heads/${branch}`,
    displayId: branch,
    latestCommit: hash,
    type: "BRANCH",
    repository: dcRepo(req, s, r),
  });
  const people = [...pr.participants.values()];
  const state = dcState(pr);
  return {
    id: pr.id,
    version: prVersion(pr),
    title: pr.title,
    description: pr.description,
    state,
    open: state === "OPEN",
    closed: state !== "OPEN",
    createdDate: pr.createdOn,
    updatedDate: pr.updatedOn,
    ...(pr.closedOn !== null && state !== "OPEN" ? { closedDate: pr.closedOn } : {}),
    fromRef: ref(pr.source.branch, tips.source),
    toRef: ref(pr.destination.branch, tips.destination),
    locked: false,
    author: { user: dcUser(req, s, pr.author), role: "AUTHOR", approved: false, status: "UNAPPROVED" },
    reviewers: people.filter((p) => p.role === "REVIEWER").map((p) => dcParticipant(req, s, p)),
    participants: people.filter((p) => p.role !== "REVIEWER").map((p) => dcParticipant(req, s, p)),
    properties: {
      ...(state === "OPEN" ? { mergeResult: { outcome: pr.conflict ? "CONFLICTED" : "CLEAN", current: true } } : {}),
      resolvedTaskCount: pr.tasks.filter((t) => t.state === "RESOLVED").length,
      commentCount: pr.comments.filter((c) => !c.deleted).length,
      openTaskCount: pr.tasks.filter((t) => t.state !== "RESOLVED").length,
      ...(pr.mergeCommit ? { mergeCommit: { id: pr.mergeCommit, displayId: pr.mergeCommit.slice(0, 11) } } : {}),
    },
    links: self(prWeb(req, r, pr)),
  };
}
