import { json, type Reply, type SandboxRequest } from "../core/http";
import { actor } from "./access";
import { textReply } from "./common";
import {
  dcBody,
  dcError,
  dcPage,
  dcState,
  findDcRepo,
  isReply,
  notOpen,
  onDcPullRequest,
  prVersion,
  sentVersion,
  staleVersion,
  userNamed,
  type DcRoutes,
} from "./dc-common";
import { dcCommit, dcPullRequest } from "./dc-present";
import { dcChange, dcFileDiff } from "./dc-present-diff";
import { diffText, diffTrees } from "./diff";
import { log } from "./git";
import type { BitbucketState, PullRequest, User } from "./model";
import { prTips } from "./presenters.pr";
import { prRange, setReviewers } from "./pullrequests.routes";

/** Bitbucket DC pull requests: list, open, read, edit, diff, changes, commits (merge, decline, review status: dc-pr-actions.routes.ts). */

const R = "/projects/:projectKey/repos/:repositorySlug";
const PR = `${R}/pull-requests/:pullRequestId`;
const branchOf = (ref: unknown): string | null => {
  const id = (ref as { id?: unknown } | undefined)?.id;
  return typeof id === "string" && id !== "" ? id.replace(/^refs\/heads\//, "") : null;
};

/** Reviewers as DC takes them: `[{user: {name}}]`; unknown users and the author are refused, as DC does. */
function reviewersOf(s: BitbucketState, raw: unknown, author: User): User[] | Reply {
  if (!Array.isArray(raw)) return dcError(400, "reviewers must be a list of {user: {name}}", { reviewers: "Malformed reviewers" });
  const out: User[] = [];
  for (const r of raw) {
    const name = (r as { user?: { name?: unknown } })?.user?.name;
    const user = typeof name === "string" ? userNamed(s, name) : undefined;
    if (!user) return dcError(400, `${String(name)} is not a user.`, { reviewers: `${String(name)} is not a user.` });
    if (user === author) return dcError(400, "The author of a pull request cannot be one of its reviewers.", { reviewers: "author" });
    if (!out.includes(user)) out.push(user);
  }
  return out;
}

export function dcPullRequestRoutes(api: DcRoutes, state: () => BitbucketState): void {
  api.get(`${R}/pull-requests`, (req) => {
    const s = state();
    const repo = findDcRepo(s, req);
    if (isReply(repo)) return repo;
    const wanted = (req.query.get("state") ?? "OPEN").toUpperCase();
    if (!["OPEN", "MERGED", "DECLINED", "ALL"].includes(wanted)) return dcError(400, `${wanted} is not a valid pull request state.`);
    const prs = [...repo.pullRequests.values()].filter((p) => wanted === "ALL" || dcState(p) === wanted);
    prs.sort((a, b) => (req.query.get("order") === "OLDEST" ? a.id - b.id : b.id - a.id));
    return dcPage(req, prs, (p) => dcPullRequest(req, s, repo, p));
  });

  api.post(`${R}/pull-requests`, (req) => {
    const s = state();
    const repo = findDcRepo(s, req);
    if (isReply(repo)) return repo;
    const body = dcBody(req);
    if (isReply(body)) return body;
    if (typeof body.title !== "string" || body.title.trim() === "")
      return dcError(400, "title: A title is required.", { title: "required" });
    const source = branchOf(body.fromRef);
    const destination = branchOf(body.toRef);
    if (!source || !destination) return dcError(400, "fromRef and toRef are required.", { fromRef: "required" });
    const sourceTip = repo.branches.get(source);
    const destTip = repo.branches.get(destination);
    if (!sourceTip || !destTip)
      return dcError(404, `Branch '${sourceTip ? destination : source}' does not exist in repository '${repo.slug}'.`);
    if (source === destination) return dcError(409, "The source and target branches of a pull request must differ.");
    if (log(repo, [sourceTip], [destTip]).length === 0)
      return dcError(409, `${source} is already up to date with ${destination}: there is nothing to merge.`);
    const existing = [...repo.pullRequests.values()].find(
      (p) => p.state === "OPEN" && p.source.branch === source && p.destination.branch === destination,
    );
    if (existing) return dcError(409, `Only one pull request may be open for a given source and target branch (#${existing.id}).`);
    const me = actor(s, req);
    const reviewers = body.reviewers === undefined ? [] : reviewersOf(s, body.reviewers, me);
    if (isReply(reviewers)) return reviewers;
    const now = Date.now();
    const pr: PullRequest = {
      id: repo.nextPrId++,
      title: body.title.trim(),
      description: typeof body.description === "string" ? body.description : "",
      state: "OPEN",
      author: me,
      source: { branch: source, hash: sourceTip },
      destination: { branch: destination, hash: destTip },
      mergeCommit: null,
      closedBy: null,
      closedOn: null,
      reason: "",
      createdOn: now,
      updatedOn: now,
      closeSourceBranch: false,
      participants: new Map(),
      comments: [],
      commentsById: new Map(),
      conflict: false,
      tasks: [],
      edits: [],
    };
    setReviewers(pr, reviewers);
    repo.pullRequests.set(pr.id, pr);
    return json(dcPullRequest(req, s, repo, pr), 201);
  });

  // `/pull-requests/{id}.diff` streams the raw diff; the router sees it as an id with a suffix.
  const rawDiff = onDcPullRequest(state, (_req, { repo, pr }) => {
    const range = prRange(repo, pr);
    return textReply(diffText(diffTrees(repo, range.from, range.to)), "text/plain;charset=UTF-8");
  });
  const getPullRequest = onDcPullRequest(state, (req, { s, repo, pr }) => json(dcPullRequest(req, s, repo, pr)));
  api.get(PR, (req) => {
    const id = req.params.pullRequestId ?? "";
    return id.endsWith(".diff") ? rawDiff({ ...req, params: { ...req.params, pullRequestId: id.slice(0, -5) } }) : getPullRequest(req);
  });

  // PUT replaces title, description, reviewers and target at `version`: reviewers left out are removed, as on DC.
  api.put(
    PR,
    onDcPullRequest(state, (req, { s, repo, pr, me }) => {
      const body = dcBody(req);
      if (isReply(body)) return body;
      const version = sentVersion(req, body);
      if (isReply(version)) return version;
      if (version === null) return dcError(400, "version: the pull request's current version is required.", { version: "required" });
      if (pr.state !== "OPEN") return notOpen(pr, "updated");
      if (version !== prVersion(pr)) return staleVersion(pr, version);
      if (body.title !== undefined && (typeof body.title !== "string" || body.title.trim() === ""))
        return dcError(400, "title: A title is required.", { title: "required" });
      const destination = body.toRef === undefined ? null : branchOf(body.toRef);
      if (destination !== null && !repo.branches.has(destination))
        return dcError(404, `Branch '${destination}' does not exist in repository '${repo.slug}'.`);
      const reviewers = reviewersOf(s, body.reviewers ?? [], pr.author);
      if (isReply(reviewers)) return reviewers;
      const changes: Record<string, { old: string; new: string }> = {};
      const change = (name: string, before: string, after: string) => {
        if (before !== after) changes[name] = { old: before, new: after };
      };
      const currentReviewers = [...pr.participants.values()].filter((p) => p.role === "REVIEWER").map((p) => p.user.nickname);
      if (typeof body.title === "string") change("title", pr.title, body.title.trim());
      if (typeof body.description === "string") change("description", pr.description, body.description);
      if (destination !== null) change("destination", pr.destination.branch, destination);
      change(
        "reviewers",
        currentReviewers.sort().join(","),
        reviewers
          .map((u) => u.nickname)
          .sort()
          .join(","),
      );
      if (Object.keys(changes).length === 0) return json(dcPullRequest(req, s, repo, pr));
      if (typeof body.title === "string") pr.title = body.title.trim();
      if (typeof body.description === "string") pr.description = body.description;
      if (destination !== null) pr.destination = { branch: destination, hash: repo.branches.get(destination)! };
      setReviewers(pr, reviewers);
      pr.updatedOn = Date.now();
      pr.edits.push({ by: me, on: pr.updatedOn, changes });
      return json(dcPullRequest(req, s, repo, pr));
    }),
  );

  /** The effective diff as JSON (RestDiff per file), whole or for one path. */
  const jsonDiff = (req: SandboxRequest, at: { repo: Parameters<typeof prRange>[0]; pr: PullRequest }, path?: string) => {
    const range = prRange(at.repo, at.pr);
    const files = diffTrees(at.repo, range.from, range.to).filter((f) => !path || f.newPath === path || f.oldPath === path);
    return json({
      fromHash: range.from,
      toHash: range.to,
      contextLines: 3,
      whitespace: "SHOW",
      diffs: files.map(dcFileDiff),
      truncated: false,
    });
  };
  api.get(
    `${PR}/diff`,
    onDcPullRequest(state, (req, at) => jsonDiff(req, at)),
  );
  api.get(
    `${PR}/diff/*path`,
    onDcPullRequest(state, (req, at) => jsonDiff(req, at, req.params.path)),
  );

  api.get(
    `${PR}/changes`,
    onDcPullRequest(state, (req, { repo, pr }) => {
      const range = prRange(repo, pr);
      return dcPage(req, diffTrees(repo, range.from, range.to), (f) => dcChange(req, repo, f, range.to), 1000, 25);
    }),
  );

  api.get(
    `${PR}/commits`,
    onDcPullRequest(state, (req, { s, repo, pr }) => {
      const tips = prTips(repo, pr);
      return dcPage(req, log(repo, [tips.source], [tips.destination]), (c) => dcCommit(req, s, c));
    }),
  );
}
