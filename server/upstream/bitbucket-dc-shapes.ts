import type {
  BitbucketActivity,
  BitbucketComment,
  BitbucketCommit,
  BitbucketPullRequest,
  BitbucketRepository,
  BitbucketTask,
} from "./bitbucket.client";

/**
 * Bitbucket Data Center REST 1.0 answers (Atlassian's DC REST reference; field names checked
 * against atlassian-python-api's `bitbucket/__init__.py` and cdancy/bitbucket-rest's fixtures) and
 * their translation into the Cloud 2.0 shapes of bitbucket.client.ts that the tools read: times
 * from epoch milliseconds to ISO, links from `{self: [{href}]}`, users to
 * `{display_name, nickname: name, account_id: name}` (DC takes a user by name: `{user: {name}}`).
 */

export interface DcLinks {
  self?: { href?: string }[];
  clone?: { href?: string; name?: string }[];
}
export interface DcUser {
  name: string;
  displayName?: string;
  emailAddress?: string;
  id?: number;
  slug?: string;
  links?: DcLinks;
}
export interface DcProject {
  key: string;
  id?: number;
  name: string;
  description?: string;
  type?: "NORMAL" | "PERSONAL";
  links?: DcLinks;
}
export interface DcRepository {
  slug: string;
  id?: number;
  name: string;
  description?: string;
  public?: boolean;
  project: DcProject;
  links?: DcLinks;
}
export interface DcCommit {
  id: string;
  displayId?: string;
  message?: string;
  author?: { name?: string; emailAddress?: string; displayName?: string };
  authorTimestamp?: number;
  parents?: { id: string }[];
}
export interface DcRef {
  id: string;
  displayId: string;
  latestCommit?: string;
  isDefault?: boolean;
  metadata?: Record<string, unknown>;
  repository?: DcRepository;
}
export interface DcParticipant {
  user: DcUser;
  role?: string;
  approved?: boolean;
  status?: "APPROVED" | "NEEDS_WORK" | "UNAPPROVED";
}
export interface DcPullRequest {
  id: number;
  version: number;
  title: string;
  description?: string;
  state: "OPEN" | "MERGED" | "DECLINED";
  createdDate?: number;
  updatedDate?: number;
  fromRef: DcRef;
  toRef: DcRef;
  author?: DcParticipant;
  reviewers?: DcParticipant[];
  participants?: DcParticipant[];
  properties?: { commentCount?: number; openTaskCount?: number; mergeCommit?: { id: string } };
  links?: DcLinks;
}
export interface DcComment {
  id: number;
  version: number;
  text: string;
  author?: DcUser;
  createdDate?: number;
  updatedDate?: number;
  comments?: DcComment[];
  severity?: "NORMAL" | "BLOCKER";
  state?: "OPEN" | "PENDING" | "RESOLVED";
  threadResolved?: boolean;
  threadResolvedDate?: number;
  threadResolver?: DcUser;
  resolvedDate?: number;
  resolver?: DcUser;
  anchor?: { path?: string; line?: number; lineType?: string; fileType?: "FROM" | "TO" };
}
export interface DcActivity {
  id: number;
  createdDate: number;
  user?: DcUser;
  action: string;
  commentAction?: string;
  comment?: DcComment;
  addedReviewers?: DcUser[];
  removedReviewers?: DcUser[];
}
export interface DcPath {
  toString?: string;
  name?: string;
}
export interface DcChange {
  path: DcPath;
  srcPath?: DcPath;
  type: "ADD" | "DELETE" | "MODIFY" | "MOVE" | "COPY" | string;
}
export interface DcDiff {
  diffs?: {
    source?: DcPath | null;
    destination?: DcPath | null;
    binary?: boolean;
    truncated?: boolean;
    hunks?: {
      sourceLine: number;
      sourceSpan: number;
      destinationLine: number;
      destinationSpan: number;
      segments?: { type: "ADDED" | "REMOVED" | "CONTEXT"; lines?: { line: string; source?: number; destination?: number }[] }[];
      truncated?: boolean;
    }[];
  }[];
  truncated?: boolean;
}
/** A DC page (`size` counts this page's values only). */
export interface DcPage<T> {
  values?: T[];
  size?: number;
  start?: number;
  isLastPage?: boolean;
  nextPageStart?: number | null;
}

export const iso = (ms: number | undefined): string | undefined => (typeof ms === "number" ? new Date(ms).toISOString() : undefined);
export const selfHref = (links: DcLinks | undefined): string | undefined => links?.self?.[0]?.href;

export const userOf = (u: DcUser | undefined) =>
  u ? { display_name: u.displayName ?? u.name, nickname: u.name, account_id: u.name } : undefined;

/** A repository's web address on the server: `/projects/KEY/repos/slug`, `/users/name/repos/slug` for a personal (`~NAME`) one. */
export const repoWeb = (web: string, key: string, slug: string): string =>
  key.startsWith("~")
    ? `${web}/users/${encodeURIComponent(key.slice(1).toLowerCase())}/repos/${encodeURIComponent(slug)}`
    : `${web}/projects/${encodeURIComponent(key)}/repos/${encodeURIComponent(slug)}`;

export function repositoryOf(r: DcRepository, mainbranch?: string): BitbucketRepository & { project: { key: string; name: string } } {
  return {
    slug: r.slug,
    name: r.name,
    full_name: `${r.project.key}/${r.slug}`,
    is_private: r.public === undefined ? undefined : !r.public,
    ...(mainbranch ? { mainbranch: { name: mainbranch } } : {}),
    description: r.description ?? "",
    project: { key: r.project.key, name: r.project.name },
    links: {
      html: { href: selfHref(r.links) },
      // DC names its HTTP(S) clone URL "http"; the Cloud shape calls it "https".
      clone: (r.links?.clone ?? []).map((c) => ({ name: c.name === "http" ? "https" : c.name, href: c.href })),
    },
  };
}

export function commitOf(c: DcCommit, web?: string): BitbucketCommit {
  const a = c.author;
  return {
    hash: c.id,
    message: c.message ?? "",
    date: iso(c.authorTimestamp) ?? "",
    author: a
      ? {
          raw: `${a.displayName ?? a.name ?? "?"}${a.emailAddress ? ` <${a.emailAddress}>` : ""}`,
          user: { display_name: a.displayName ?? a.name },
        }
      : undefined,
    parents: (c.parents ?? []).map((p) => ({ hash: p.id })),
    links: web ? { html: { href: `${web}/commits/${c.id}` } } : undefined,
  };
}

const STATUS = { APPROVED: "approved", NEEDS_WORK: "changes_requested", UNAPPROVED: null } as const;

export function pullRequestOf(pr: DcPullRequest): BitbucketPullRequest & Record<string, unknown> {
  const side = (ref: DcRef) => ({
    branch: { name: ref.displayId },
    commit: ref.latestCommit ? { hash: ref.latestCommit } : undefined,
    repository: ref.repository ? { full_name: `${ref.repository.project.key}/${ref.repository.slug}` } : undefined,
  });
  const participant = (p: DcParticipant) => ({
    user: userOf(p.user),
    role: p.role === "REVIEWER" ? "REVIEWER" : "PARTICIPANT",
    approved: p.approved === true,
    state: STATUS[p.status ?? "UNAPPROVED"] ?? null,
  });
  return {
    id: pr.id,
    title: pr.title,
    state: pr.state,
    // DC's optimistic lock: what an update, merge or decline must send back (read by the DC client).
    version: pr.version,
    description: pr.description ?? "",
    author: userOf(pr.author?.user),
    source: side(pr.fromRef),
    destination: side(pr.toRef),
    created_on: iso(pr.createdDate),
    updated_on: iso(pr.updatedDate),
    reviewers: (pr.reviewers ?? []).map((r) => userOf(r.user)),
    participants: [...(pr.reviewers ?? []), ...(pr.participants ?? [])].map(participant),
    comment_count: pr.properties?.commentCount ?? 0,
    task_count: pr.properties?.openTaskCount ?? 0,
    merge_commit: pr.properties?.mergeCommit ? { hash: pr.properties.mergeCommit.id } : null,
    links: { html: { href: selfHref(pr.links) } },
  };
}

/** A comment; `parent` from the thread it was found in (DC nests replies under `comments`), `prWeb` for its link. */
export function commentOf(c: DcComment, parentId: number | null, prWeb?: string): BitbucketComment {
  const a = c.anchor;
  return {
    id: c.id,
    content: { raw: c.text },
    user: userOf(c.author),
    created_on: iso(c.createdDate),
    updated_on: iso(c.updatedDate),
    deleted: false,
    inline: a?.path
      ? { path: a.path, from: a.fileType === "FROM" ? (a.line ?? null) : null, to: a.fileType !== "FROM" ? (a.line ?? null) : null }
      : null,
    parent: parentId === null ? null : { id: parentId },
    resolution: c.threadResolved ? { user: userOf(c.threadResolver), created_on: iso(c.threadResolvedDate) } : null,
    links: prWeb ? { html: { href: `${prWeb}/overview?commentId=${c.id}` } } : undefined,
  };
}

/** A task (DC 7.2+: a BLOCKER comment, OPEN or RESOLVED). */
export function taskOf(c: DcComment, commentId: number | null = null): BitbucketTask {
  return {
    id: c.id,
    content: { raw: c.text },
    state: c.state === "RESOLVED" ? "RESOLVED" : "UNRESOLVED",
    creator: userOf(c.author),
    created_on: iso(c.createdDate),
    resolved_by: userOf(c.resolver) ?? null,
    resolved_on: iso(c.resolvedDate) ?? null,
    comment: commentId === null ? null : { id: commentId },
  };
}

/**
 * Every comment of a thread tree, with its parent's id, oldest first: DC nests replies (and the
 * tasks on a comment, as BLOCKER replies) under `comments`.
 */
export function flattenThreads(roots: DcComment[]): { comment: DcComment; parentId: number | null }[] {
  const out = new Map<number, { comment: DcComment; parentId: number | null }>();
  const walk = (c: DcComment, parentId: number | null) => {
    if (!out.has(c.id) || parentId !== null) out.set(c.id, { comment: c, parentId: parentId ?? out.get(c.id)?.parentId ?? null });
    for (const reply of c.comments ?? []) walk(reply, c.id);
  };
  for (const root of roots) walk(root, null);
  return [...out.values()].sort((a, b) => (a.comment.createdDate ?? 0) - (b.comment.createdDate ?? 0) || a.comment.id - b.comment.id);
}

/** One activity in the Cloud shape (approval, changes_requested, comment or update); null for what Cloud has no word for. */
export function activityOf(a: DcActivity, parents: Map<number, number>, prWeb?: string): BitbucketActivity | null {
  const date = iso(a.createdDate);
  const user = userOf(a.user);
  switch (a.action) {
    case "APPROVED":
      return { approval: { user, date } };
    case "REVIEWED":
      return { changes_requested: { user, date } };
    case "COMMENTED":
      return a.comment && a.comment.severity !== "BLOCKER"
        ? { comment: commentOf(a.comment, parents.get(a.comment.id) ?? null, prWeb) }
        : null;
    case "OPENED":
    case "REOPENED":
      return { update: { state: "OPEN", author: user, date } };
    case "MERGED":
    case "DECLINED":
      return { update: { state: a.action, author: user, date } };
    case "UPDATED": {
      const names = (users: DcUser[] | undefined) => (users ?? []).map((u) => u.displayName ?? u.name).join(", ");
      const changes: Record<string, { old?: string; new?: string }> = {};
      if (a.addedReviewers?.length || a.removedReviewers?.length)
        changes.reviewers = { old: names(a.removedReviewers) || "—", new: names(a.addedReviewers) || "—" };
      return { update: { state: "OPEN", author: user, date, changes } };
    }
    case "UNAPPROVED":
      return { update: { state: "OPEN", author: user, date, changes: { approval: { old: "approved", new: "withdrawn" } } } };
    default:
      return null;
  }
}
