import type { SandboxRequest } from "../core/http";
import { anchors, commentVersion, repoId } from "./dc-common";
import { dcUser } from "./dc-present";
import type { BitbucketState, Comment, PullRequest, Repo, Task, User } from "./model";
import { prTips } from "./presenters.pr";

/** Bitbucket DC's comments (RestComment, tasks as BLOCKER ones) and a pull request's activities. */

/**
 * A pull request's activities as DC lists them, newest first (RestPullRequestActivity): `action`
 * OPENED, UPDATED (reviewers added or removed: `addedReviewers`/`removedReviewers`), APPROVED,
 * REVIEWED (needs work), COMMENTED (`commentAction` ADDED or REPLIED, with the comment as it is
 * now, its replies nested), MERGED, DECLINED. DC records no activity for a changed title,
 * description or target branch, so edits of those show nowhere here (as on DC).
 */
export function dcActivities(req: SandboxRequest, s: BitbucketState, r: Repo, pr: PullRequest) {
  const user = (u: User) => dcUser(req, s, u);
  const entries: { on: number; body: Record<string, unknown> }[] = [
    { on: pr.createdOn, body: { createdDate: pr.createdOn, user: user(pr.author), action: "OPENED" } },
  ];
  for (const e of pr.edits) {
    const change = e.changes.reviewers;
    if (!change) continue;
    const before = change.old ? change.old.split(",") : [];
    const after = change.new ? change.new.split(",") : [];
    const named = (names: string[]) => names.map((n) => s.usersByKey.get(n)).flatMap((u) => (u ? [user(u)] : []));
    entries.push({
      on: e.on,
      body: {
        createdDate: e.on,
        user: user(e.by),
        action: "UPDATED",
        addedReviewers: named(after.filter((n) => !before.includes(n))),
        removedReviewers: named(before.filter((n) => !after.includes(n))),
      },
    });
  }
  for (const p of pr.participants.values()) {
    if (p.participatedOn === null || p.state === null) continue;
    entries.push({
      on: p.participatedOn,
      body: { createdDate: p.participatedOn, user: user(p.user), action: p.state === "approved" ? "APPROVED" : "REVIEWED" },
    });
  }
  for (const c of pr.comments) {
    if (c.deleted) continue;
    entries.push({
      on: c.createdOn,
      body: {
        createdDate: c.createdOn,
        user: user(c.user),
        action: "COMMENTED",
        commentAction: c.parentId === null ? "ADDED" : "REPLIED",
        comment: dcComment(req, s, r, pr, c),
      },
    });
  }
  for (const t of pr.tasks) {
    entries.push({
      on: t.createdOn,
      body: {
        createdDate: t.createdOn,
        user: user(t.creator),
        action: "COMMENTED",
        commentAction: t.commentId === null ? "ADDED" : "REPLIED",
        comment: dcTask(req, s, t),
      },
    });
  }
  if (pr.state !== "OPEN" && pr.closedOn !== null) {
    const action = pr.state === "MERGED" ? "MERGED" : "DECLINED";
    entries.push({ on: pr.closedOn, body: { createdDate: pr.closedOn, user: user(pr.closedBy ?? pr.author), action } });
  }
  // Ids in time order (stable: new activity is always newer), listed newest first.
  return entries
    .sort((a, b) => a.on - b.on)
    .map((e, i) => ({ id: pr.id * 10_000 + i + 1, ...e.body }))
    .reverse();
}

/** A task as DC 7.2+ has it: a comment of severity BLOCKER, OPEN or RESOLVED. */
export function dcTask(req: SandboxRequest, s: BitbucketState, t: Task) {
  return {
    properties: { repositoryId: 0 },
    id: t.id,
    version: commentVersion(t),
    text: t.raw,
    author: dcUser(req, s, t.creator),
    createdDate: t.createdOn,
    updatedDate: t.updatedOn,
    comments: [],
    tasks: [],
    severity: "BLOCKER",
    state: t.state === "RESOLVED" ? "RESOLVED" : "OPEN",
    ...(t.resolvedBy && t.resolvedOn !== null ? { resolvedDate: t.resolvedOn, resolver: dcUser(req, s, t.resolvedBy) } : {}),
    threadResolved: false,
    permittedOperations: { editable: true, transitionable: true, deletable: true },
  };
}

/** A comment (RestComment) with its replies nested under `comments`, the tasks on it among them (blocker replies). */
export function dcComment(req: SandboxRequest, s: BitbucketState, r: Repo, pr: PullRequest, c: Comment): Record<string, unknown> {
  const replies = pr.comments.filter((x) => x.parentId === c.id && !x.deleted).map((x) => dcComment(req, s, r, pr, x));
  const tasks = pr.tasks.filter((t) => t.commentId === c.id).map((t) => dcTask(req, s, t));
  const tips = prTips(r, pr);
  const anchor = anchors.get(c);
  return {
    properties: { repositoryId: repoId(s, r) },
    id: c.id,
    version: commentVersion(c),
    text: c.raw,
    author: dcUser(req, s, c.user),
    createdDate: c.createdOn,
    updatedDate: c.updatedOn,
    comments: [...replies, ...tasks],
    tasks: [],
    severity: "NORMAL",
    state: "OPEN",
    threadResolved: c.resolution !== null,
    ...(c.resolution ? { threadResolvedDate: c.resolution.on, threadResolver: dcUser(req, s, c.resolution.user) } : {}),
    ...(c.inline
      ? {
          anchor: {
            fromHash: tips.destination,
            toHash: tips.source,
            line: c.inline.to ?? c.inline.from ?? undefined,
            lineType: anchor?.lineType ?? "ADDED",
            fileType: anchor?.fileType ?? (c.inline.to !== null ? "TO" : "FROM"),
            path: c.inline.path,
            diffType: "EFFECTIVE",
            orphaned: false,
          },
        }
      : {}),
    permittedOperations: { editable: true, transitionable: true, deletable: true },
  };
}
