import { bitbucketError } from "../core/errors";
import { json, noContent, type Reply, type Router, type SandboxRequest } from "../core/http";
import { bodyObject, field, onPullRequest, isReply, listReply, required } from "./common";
import { ancestors, log } from "./git";
import type { BitbucketState, Comment, Commit, Participant, PullRequest, Repo, User } from "./model";
import { presentComment, presentParticipant, presentPullRequest } from "./presenters.pr";
import { prRange } from "./pullrequests.routes";
import { diffTrees } from "./diff";

/** Pull request comments, approvals, change requests, merge and decline. */

const PR = "/2.0/repositories/:workspace/:repo_slug/pullrequests/:pull_request_id";
const STRATEGIES = ["merge_commit", "squash", "fast_forward"];

/** The acting user as a participant of the pull request (added as one when they are not yet). */
function meAsParticipant(me: User, pr: PullRequest, now: number): Participant {
  let p = pr.participants.get(me.nickname);
  if (!p) {
    p = { user: me, role: "PARTICIPANT", approved: false, state: null, participatedOn: now };
    pr.participants.set(me.nickname, p);
  }
  p.participatedOn = now;
  return p;
}

function findComment(pr: PullRequest, req: SandboxRequest): Comment | Reply {
  const c = pr.commentsById.get(Number(req.params.comment_id));
  return c ?? bitbucketError(404, `Comment ${req.params.comment_id ?? ""} not found`);
}

function commentInput(
  body: Record<string, unknown>,
  pr: PullRequest,
): { raw: string; inline: Comment["inline"]; parentId: number | null } | Reply {
  const raw = field(body, "content.raw");
  if (typeof raw !== "string" || raw.trim() === "") return required("content");
  let inline: Comment["inline"] = null;
  if (body.inline !== undefined && body.inline !== null) {
    const path = field(body, "inline.path");
    const to = field(body, "inline.to") ?? null;
    const from = field(body, "inline.from") ?? null;
    if (typeof path !== "string" || path === "") return required("inline.path");
    if ((to !== null && !Number.isInteger(to)) || (from !== null && !Number.isInteger(from))) {
      return bitbucketError(400, "inline: line numbers must be integers", { inline: "Invalid line number" });
    }
    inline = { path, to: to as number | null, from: from as number | null };
  }
  const parent = field(body, "parent.id");
  if (parent !== undefined && (typeof parent !== "number" || !pr.commentsById.has(parent)))
    return bitbucketError(400, `parent: Comment not found: ${String(parent)}`);
  return { raw, inline, parentId: typeof parent === "number" ? parent : null };
}

export function mergeCommit(
  s: BitbucketState,
  me: User,
  repo: Repo,
  pr: PullRequest,
  strategy: string,
  message: string | null,
  now: number,
): Commit | Reply {
  const source = repo.branches.get(pr.source.branch);
  const destination = repo.branches.get(pr.destination.branch);
  if (!source) return bitbucketError(400, `The source branch ${pr.source.branch} no longer exists.`);
  if (!destination) return bitbucketError(400, `The destination branch ${pr.destination.branch} no longer exists.`);
  if (strategy === "fast_forward") {
    if (!ancestors(repo, [source]).has(destination))
      return bitbucketError(400, "Fast-forward merge is not possible: the destination branch has diverged.");
    return repo.commits.get(source)!;
  }
  const ops = [...log(repo, [source], [destination])].reverse().flatMap((c) => c.ops);
  const text =
    message ??
    (strategy === "squash"
      ? `${pr.title} (pull request #${pr.id})\n\n${pr.description}`
      : `Merged in ${pr.source.branch} (pull request #${pr.id})\n\n${pr.title}`);
  const c: Commit = {
    hash: s.rng.hex(40),
    message: text.trim(),
    author: me,
    date: now,
    parents: strategy === "squash" ? [destination] : [destination, source],
    ops,
  };
  repo.commits.set(c.hash, c);
  return c;
}

export function prActionRoutes(router: Router, state: () => BitbucketState): void {
  router.get(
    `${PR}/comments`,
    onPullRequest(state, (req, { s, repo, pr }) => {
      return listReply(req, pr.comments, (c) => presentComment(req.origin, s, repo, pr, c), { defaultPagelen: 10 });
    }),
  );

  router.post(
    `${PR}/comments`,
    onPullRequest(state, (req, { s, repo, pr, me }) => {
      const body = bodyObject(req);
      if (isReply(body)) return body;
      const input = commentInput(body, pr);
      if (isReply(input)) return input;
      const now = Date.now();
      const c: Comment = { id: ++s.nextCommentId, user: me, createdOn: now, updatedOn: now, deleted: false, resolution: null, ...input };
      pr.comments.push(c);
      pr.commentsById.set(c.id, c);
      if (pr.author !== me) meAsParticipant(me, pr, now);
      pr.updatedOn = now;
      const presented = presentComment(req.origin, s, repo, pr, c);
      return json(presented, 201, { location: presented.links.self.href });
    }),
  );

  router.get(
    `${PR}/comments/:comment_id`,
    onPullRequest(state, (req, { s, repo, pr }) => {
      const c = findComment(pr, req);
      return isReply(c) ? c : json(presentComment(req.origin, s, repo, pr, c));
    }),
  );

  router.put(
    `${PR}/comments/:comment_id`,
    onPullRequest(state, (req, { s, repo, pr, me }) => {
      const c = findComment(pr, req);
      if (isReply(c)) return c;
      if (c.user !== me) return bitbucketError(403, "You can only edit your own comments.");
      const raw = field(req.body, "content.raw");
      if (typeof raw !== "string" || raw.trim() === "") return required("content");
      c.raw = raw;
      c.updatedOn = Date.now();
      return json(presentComment(req.origin, s, repo, pr, c));
    }),
  );

  router.delete(
    `${PR}/comments/:comment_id`,
    onPullRequest(state, (req, { pr, me }) => {
      const c = findComment(pr, req);
      if (isReply(c)) return c;
      if (c.user !== me) return bitbucketError(403, "You can only delete your own comments.");
      c.deleted = true;
      c.updatedOn = Date.now();
      return noContent();
    }),
  );

  const review = (approve: boolean, changes: boolean) =>
    onPullRequest(state, (req, { pr, me }) => {
      if (pr.state !== "OPEN") return bitbucketError(400, `You can't review a pull request that is ${pr.state.toLowerCase()}.`);
      const now = Date.now();
      const p = meAsParticipant(me, pr, now);
      p.approved = approve;
      p.state = approve ? "approved" : changes ? "changes_requested" : null;
      pr.updatedOn = now;
      return approve || changes ? json(presentParticipant(req.origin, p)) : noContent();
    });
  router.post(`${PR}/approve`, review(true, false));
  router.delete(`${PR}/approve`, review(false, false));
  router.post(`${PR}/request-changes`, review(false, true));
  router.delete(`${PR}/request-changes`, review(false, false));

  router.post(
    `${PR}/merge`,
    onPullRequest(state, (req, { s, repo, pr, me }) => {
      const body = bodyObject(req);
      if (isReply(body)) return body;
      if (pr.state !== "OPEN") return bitbucketError(400, `You can't merge a pull request that is ${pr.state.toLowerCase()}.`);
      const strategy = body.merge_strategy ?? "merge_commit";
      if (typeof strategy !== "string" || !STRATEGIES.includes(strategy)) {
        return bitbucketError(400, `merge_strategy: "${String(strategy)}" is not a valid merge strategy.`, {
          merge_strategy: `Expected one of ${STRATEGIES.join(", ")}`,
        });
      }
      if (pr.conflict) {
        const paths = diffTrees(repo, prRange(repo, pr).from, prRange(repo, pr).to).map((f) => f.newPath ?? f.oldPath);
        return bitbucketError(
          409,
          `Merge conflict: resolve the conflicts in ${paths.slice(0, 3).join(", ") || "the source branch"} before merging.`,
        );
      }
      const now = Date.now();
      const destinationBefore = repo.branches.get(pr.destination.branch);
      const sourceTip = repo.branches.get(pr.source.branch);
      const merged = mergeCommit(s, me, repo, pr, strategy, typeof body.message === "string" ? body.message : null, now);
      if (isReply(merged)) return merged;
      repo.branches.set(pr.destination.branch, merged.hash);
      pr.source.hash = sourceTip!;
      pr.destination.hash = destinationBefore!;
      pr.state = "MERGED";
      pr.mergeCommit = merged.hash;
      pr.closedBy = me;
      pr.closedOn = now;
      pr.updatedOn = now;
      const close = typeof body.close_source_branch === "boolean" ? body.close_source_branch : pr.closeSourceBranch;
      pr.closeSourceBranch = close;
      if (close && pr.source.branch !== repo.mainbranch) repo.branches.delete(pr.source.branch);
      repo.updatedOn = now;
      return json(presentPullRequest(req.origin, s, repo, pr));
    }),
  );

  router.post(
    `${PR}/decline`,
    onPullRequest(state, (req, { s, repo, pr, me }) => {
      if (pr.state !== "OPEN") return bitbucketError(400, `You can't decline a pull request that is ${pr.state.toLowerCase()}.`);
      const now = Date.now();
      pr.source.hash = repo.branches.get(pr.source.branch) ?? pr.source.hash;
      pr.destination.hash = repo.branches.get(pr.destination.branch) ?? pr.destination.hash;
      pr.state = "DECLINED";
      pr.closedBy = me;
      pr.closedOn = now;
      pr.reason = typeof field(req.body, "reason") === "string" ? (field(req.body, "reason") as string) : "";
      pr.updatedOn = now;
      return json(presentPullRequest(req.origin, s, repo, pr));
    }),
  );
}
