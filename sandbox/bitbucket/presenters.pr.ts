import type { BitbucketState, Comment, Participant, PullRequest, Repo, Task, User } from "./model";
import { commitRef, href, isoDate, presentUser, rendered, repoApi, repoHtml, repoRef } from "./presenters";

/** Bitbucket Cloud 2.0 JSON shapes for pull requests, their participants and comments. */

export function presentParticipant(o: string, p: Participant) {
  return {
    type: "participant",
    user: presentUser(o, p.user),
    role: p.role,
    approved: p.approved,
    state: p.state,
    participated_on: p.participatedOn === null ? null : isoDate(p.participatedOn),
  };
}

/** Source/destination tips for an open pull request follow the branches; closed ones keep theirs. */
export function prTips(r: Repo, pr: PullRequest): { source: string; destination: string } {
  if (pr.state !== "OPEN") return { source: pr.source.hash, destination: pr.destination.hash };
  return {
    source: r.branches.get(pr.source.branch) ?? pr.source.hash,
    destination: r.branches.get(pr.destination.branch) ?? pr.destination.hash,
  };
}

export function presentPullRequest(o: string, s: BitbucketState, r: Repo, pr: PullRequest) {
  const api = `${repoApi(o, s, r.slug)}/pullrequests/${pr.id}`;
  const tips = prTips(r, pr);
  const side = (branch: string, hash: string) => ({
    branch: { name: branch },
    commit: { ...commitRef(o, s, r, hash.slice(0, 12)) },
    repository: repoRef(o, s, r),
  });
  const participants = [...pr.participants.values()];
  return {
    comment_count: pr.comments.filter((c) => !c.deleted).length,
    task_count: pr.tasks.filter((t) => t.state === "UNRESOLVED").length,
    type: "pullrequest",
    id: pr.id,
    title: pr.title,
    description: pr.description,
    rendered: { title: rendered(pr.title), description: rendered(pr.description) },
    state: pr.state,
    merge_commit: pr.mergeCommit ? commitRef(o, s, r, pr.mergeCommit.slice(0, 12)) : null,
    close_source_branch: pr.closeSourceBranch,
    closed_by: pr.closedBy ? presentUser(o, pr.closedBy) : null,
    author: presentUser(o, pr.author),
    reason: pr.reason,
    created_on: isoDate(pr.createdOn),
    updated_on: isoDate(pr.updatedOn),
    destination: side(pr.destination.branch, tips.destination),
    source: side(pr.source.branch, tips.source),
    reviewers: participants.filter((p) => p.role === "REVIEWER").map((p) => presentUser(o, p.user)),
    participants: participants.map((p) => presentParticipant(o, p)),
    links: {
      self: href(api),
      html: href(`${repoHtml(o, s, r.slug)}/pull-requests/${pr.id}`),
      commits: href(`${api}/commits`),
      approve: href(`${api}/approve`),
      "request-changes": href(`${api}/request-changes`),
      diff: href(`${api}/diff`),
      diffstat: href(`${api}/diffstat`),
      comments: href(`${api}/comments`),
      activity: href(`${api}/activity`),
      merge: href(`${api}/merge`),
      decline: href(`${api}/decline`),
      statuses: href(`${api}/statuses`),
    },
    summary: rendered(pr.description),
  };
}

export function presentComment(o: string, s: BitbucketState, r: Repo, pr: PullRequest, c: Comment) {
  const prApi = `${repoApi(o, s, r.slug)}/pullrequests/${pr.id}`;
  return {
    id: c.id,
    created_on: isoDate(c.createdOn),
    updated_on: isoDate(c.updatedOn),
    content: rendered(c.deleted ? "" : c.raw),
    user: presentUser(o, c.user),
    deleted: c.deleted,
    pending: false,
    ...(c.resolution ? { resolution: presentResolution(o, c.resolution) } : {}),
    ...(c.inline ? { inline: { from: c.inline.from, to: c.inline.to, path: c.inline.path } } : {}),
    ...(c.parentId !== null ? { parent: { id: c.parentId, links: { self: href(`${prApi}/comments/${c.parentId}`) } } } : {}),
    type: "pullrequest_comment",
    links: {
      self: href(`${prApi}/comments/${c.id}`),
      html: href(`${repoHtml(o, s, r.slug)}/pull-requests/${pr.id}/_/diff#comment-${c.id}`),
    },
    pullrequest: {
      type: "pullrequest",
      id: pr.id,
      title: pr.title,
      links: { self: href(prApi), html: href(`${repoHtml(o, s, r.slug)}/pull-requests/${pr.id}`) },
    },
  };
}

/** A comment thread's resolution (POST .../comments/{id}/resolve answers it; a resolved comment carries it). */
export const presentResolution = (o: string, r: { user: User; on: number }) => ({
  type: "comment_resolution",
  user: presentUser(o, r.user),
  created_on: isoDate(r.on),
});

const prLinks = (o: string, s: BitbucketState, r: Repo, pr: PullRequest) => ({
  self: href(`${repoApi(o, s, r.slug)}/pullrequests/${pr.id}`),
  html: href(`${repoHtml(o, s, r.slug)}/pull-requests/${pr.id}`),
});

export function presentTask(o: string, s: BitbucketState, r: Repo, pr: PullRequest, t: Task) {
  const comment = t.commentId === null ? undefined : pr.commentsById.get(t.commentId);
  return {
    id: t.id,
    created_on: isoDate(t.createdOn),
    updated_on: isoDate(t.updatedOn),
    state: t.state,
    content: rendered(t.raw),
    creator: presentUser(o, t.creator),
    pending: t.pending,
    resolved_on: t.resolvedOn === null ? null : isoDate(t.resolvedOn),
    resolved_by: t.resolvedBy ? presentUser(o, t.resolvedBy) : null,
    ...(comment
      ? {
          comment: {
            id: comment.id,
            type: "pullrequest_comment",
            links: {
              self: href(`${repoApi(o, s, r.slug)}/pullrequests/${pr.id}/comments/${comment.id}`),
              html: href(`${repoHtml(o, s, r.slug)}/pull-requests/${pr.id}/_/diff#comment-${comment.id}`),
            },
          },
        }
      : {}),
    links: {
      self: href(`${repoApi(o, s, r.slug)}/pullrequests/${pr.id}/tasks/${t.id}`),
      html: href(`${repoHtml(o, s, r.slug)}/pull-requests/${pr.id}`),
    },
  };
}

/**
 * A pull request's activity, newest first as Bitbucket lists it: `update` entries (opened, edited,
 * merged, declined), `approval`, `changes_requested` and `comment` entries, each with the pull
 * request it belongs to.
 */
export function pullRequestActivity(o: string, s: BitbucketState, r: Repo, pr: PullRequest) {
  const ref = { type: "pullrequest", id: pr.id, title: pr.title, links: prLinks(o, s, r, pr) };
  const tips = prTips(r, pr);
  const side = (branch: string, hash: string) => ({
    branch: { name: branch },
    commit: { type: "commit", hash: hash.slice(0, 12) },
    repository: repoRef(o, s, r),
  });
  const update = (on: number, by: User, state: string, changes?: Record<string, { old: string; new: string }>) => ({
    update: {
      state,
      draft: false,
      title: pr.title,
      description: pr.description,
      reason: state === "OPEN" ? "" : pr.reason,
      author: presentUser(o, by),
      date: isoDate(on),
      destination: side(pr.destination.branch, tips.destination),
      source: side(pr.source.branch, tips.source),
      ...(changes ? { changes } : {}),
    },
    pull_request: ref,
  });
  const entries: { on: number; entry: unknown }[] = [{ on: pr.createdOn, entry: update(pr.createdOn, pr.author, "OPEN") }];
  for (const e of pr.edits) entries.push({ on: e.on, entry: update(e.on, e.by, "OPEN", e.changes) });
  if (pr.state !== "OPEN" && pr.closedOn !== null)
    entries.push({ on: pr.closedOn, entry: update(pr.closedOn, pr.closedBy ?? pr.author, pr.state) });
  for (const p of pr.participants.values()) {
    if (p.participatedOn === null || p.state === null) continue;
    const kind = p.state === "approved" ? "approval" : "changes_requested";
    entries.push({
      on: p.participatedOn,
      entry: { [kind]: { date: isoDate(p.participatedOn), user: presentUser(o, p.user), pullrequest: ref }, pull_request: ref },
    });
  }
  for (const c of pr.comments) entries.push({ on: c.createdOn, entry: { comment: presentComment(o, s, r, pr, c), pull_request: ref } });
  return entries.sort((a, b) => b.on - a.on).map((e) => e.entry);
}
