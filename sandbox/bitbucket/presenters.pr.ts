import type { BitbucketState, Comment, Participant, PullRequest, Repo } from "./model";
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
  return { source: r.branches.get(pr.source.branch) ?? pr.source.hash, destination: r.branches.get(pr.destination.branch) ?? pr.destination.hash };
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
    task_count: pr.taskCount,
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
    ...(c.inline ? { inline: { from: c.inline.from, to: c.inline.to, path: c.inline.path } } : {}),
    ...(c.parentId !== null ? { parent: { id: c.parentId, links: { self: href(`${prApi}/comments/${c.parentId}`) } } } : {}),
    type: "pullrequest_comment",
    links: {
      self: href(`${prApi}/comments/${c.id}`),
      html: href(`${repoHtml(o, s, r.slug)}/pull-requests/${pr.id}/_/diff#comment-${c.id}`),
    },
    pullrequest: { type: "pullrequest", id: pr.id, title: pr.title, links: { self: href(prApi), html: href(`${repoHtml(o, s, r.slug)}/pull-requests/${pr.id}`) } },
  };
}
