import { json, type Reply, type SandboxRequest } from "../core/http";
import {
  dcBody,
  dcError,
  dcPage,
  isReply,
  notOpen,
  onDcPullRequest,
  prVersion,
  sentVersion,
  staleVersion,
  type DcRoutes,
} from "./dc-common";
import { dcParticipant, dcPullRequest } from "./dc-present";
import type { BitbucketState, Participant, PullRequest, User } from "./model";
import { mergeCommit } from "./pr-actions.routes";

/**
 * Bitbucket DC pull request actions: merge (`?version=`, a `strategyId`), decline (`?version=`),
 * and the caller's review status (`PUT …/participants/{userSlug}`: APPROVED, NEEDS_WORK,
 * UNAPPROVED; the older `…/approve` too).
 */

const PR = "/projects/:projectKey/repos/:repositorySlug/pull-requests/:pullRequestId";

/** DC's merge strategies (`strategyId`) as the model's. */
const STRATEGIES: Record<string, string> = {
  "no-ff": "merge_commit",
  ff: "merge_commit",
  "ff-only": "fast_forward",
  squash: "squash",
  "squash-ff-only": "squash",
  "rebase-no-ff": "merge_commit",
  "rebase-ff-only": "fast_forward",
};

export function dcPullRequestActionRoutes(api: DcRoutes, state: () => BitbucketState): void {
  api.get(
    `${PR}/merge`,
    onDcPullRequest(state, (_req, { pr }) =>
      json({
        canMerge: pr.state === "OPEN" && !pr.conflict,
        conflicted: pr.conflict,
        outcome: pr.conflict ? "CONFLICTED" : "CLEAN",
        vetoes: [],
      }),
    ),
  );

  api.post(
    `${PR}/merge`,
    onDcPullRequest(state, (req, { s, repo, pr, me }) => {
      const body = dcBody(req);
      if (isReply(body)) return body;
      const version = sentVersion(req, body);
      if (isReply(version)) return version;
      if (pr.state !== "OPEN") return notOpen(pr, "merged");
      if (version !== null && version !== prVersion(pr)) return staleVersion(pr, version);
      const strategy = STRATEGIES[typeof body.strategyId === "string" ? body.strategyId : "no-ff"];
      if (!strategy)
        return dcError(400, `${String(body.strategyId)} is not a merge strategy of this repository.`, { strategyId: "unknown" });
      if (pr.conflict)
        return {
          status: 409,
          body: {
            errors: [
              {
                context: null,
                message: "The pull request has conflicts and cannot be merged: resolve them on the source branch first.",
                exceptionName: "com.atlassian.bitbucket.pull.PullRequestMergeVetoedException",
                conflicted: true,
                vetoes: [],
              },
            ],
          },
        };
      const now = Date.now();
      const destinationBefore = repo.branches.get(pr.destination.branch)!;
      const sourceTip = repo.branches.get(pr.source.branch) ?? pr.source.hash;
      const merged = mergeCommit(s, me, repo, pr, strategy, typeof body.message === "string" ? body.message : null, now);
      if (isReply(merged)) return dcError(409, (merged.body as { error?: { message?: string } }).error?.message ?? "The merge failed.");
      repo.branches.set(pr.destination.branch, merged.hash);
      Object.assign(pr, {
        source: { ...pr.source, hash: sourceTip },
        destination: { ...pr.destination, hash: destinationBefore },
        state: "MERGED",
        mergeCommit: merged.hash,
        closedBy: me,
        closedOn: now,
        updatedOn: now,
      });
      repo.updatedOn = now;
      return json(dcPullRequest(req, s, repo, pr));
    }),
  );

  api.post(
    `${PR}/decline`,
    onDcPullRequest(state, (req, { s, repo, pr, me }) => {
      const body = dcBody(req);
      if (isReply(body)) return body;
      const version = sentVersion(req, body);
      if (isReply(version)) return version;
      if (pr.state !== "OPEN") return notOpen(pr, "declined");
      if (version !== null && version !== prVersion(pr)) return staleVersion(pr, version);
      const now = Date.now();
      pr.source.hash = repo.branches.get(pr.source.branch) ?? pr.source.hash;
      pr.destination.hash = repo.branches.get(pr.destination.branch) ?? pr.destination.hash;
      Object.assign(pr, { state: "DECLINED", closedBy: me, closedOn: now, updatedOn: now });
      return json(dcPullRequest(req, s, repo, pr));
    }),
  );

  api.get(
    `${PR}/participants`,
    onDcPullRequest(state, (req, { s, pr }) => dcPage(req, [...pr.participants.values()], (p) => dcParticipant(req, s, p))),
  );

  /** Sets the caller's review status (APPROVED, NEEDS_WORK, UNAPPROVED), adding them as a participant; never the author's. */
  const review = (req: SandboxRequest, s: BitbucketState, pr: PullRequest, me: User, status: string): Reply => {
    if (!["APPROVED", "NEEDS_WORK", "UNAPPROVED"].includes(status))
      return dcError(400, `${status} is not a participant status: APPROVED, NEEDS_WORK or UNAPPROVED.`, { status: "invalid" });
    if (pr.state !== "OPEN") return notOpen(pr, "reviewed");
    if (pr.author === me) return dcError(400, "The author of a pull request cannot review it.");
    const now = Date.now();
    let p = pr.participants.get(me.nickname);
    if (!p) {
      p = { user: me, role: "PARTICIPANT", approved: false, state: null, participatedOn: now } satisfies Participant;
      pr.participants.set(me.nickname, p);
    }
    p.approved = status === "APPROVED";
    p.state = status === "APPROVED" ? "approved" : status === "NEEDS_WORK" ? "changes_requested" : null;
    p.participatedOn = now;
    return json(dcParticipant(req, s, p));
  };

  api.put(
    `${PR}/participants/:userSlug`,
    onDcPullRequest(state, (req, { s, pr, me }) => {
      if ((req.params.userSlug ?? "").toLowerCase() !== me.nickname.toLowerCase())
        return dcError(400, `${req.params.userSlug ?? ""} is not you: only the current user's status can be changed.`);
      const body = dcBody(req);
      if (isReply(body)) return body;
      return review(req, s, pr, me, typeof body.status === "string" ? body.status : "");
    }),
  );
  // The older approve resource (deprecated since 4.2, still answered).
  api.post(
    `${PR}/approve`,
    onDcPullRequest(state, (req, { s, pr, me }) => review(req, s, pr, me, "APPROVED")),
  );
  api.delete(
    `${PR}/approve`,
    onDcPullRequest(state, (req, { s, pr, me }) => review(req, s, pr, me, "UNAPPROVED")),
  );
}
