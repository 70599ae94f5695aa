import { actor } from "./access";
import { bitbucketError } from "../core/errors";
import { json, type Reply, type Router } from "../core/http";
import { bodyObject, field, onPullRequest, findRepo, isReply, listReply, required } from "./common";
import { log, mergeBase } from "./git";
import type { BitbucketState, Participant, PullRequest, PullRequestState, Repo, User } from "./model";
import { presentCommit } from "./presenters";
import { prTips, presentPullRequest } from "./presenters.pr";
import { diffReply, diffstatReply } from "./repos.routes";

/** Pull requests: list, create, get, update, diff, diffstat, commits. */

const R = "/2.0/repositories/:workspace/:repo_slug";
const STATES: PullRequestState[] = ["OPEN", "MERGED", "DECLINED", "SUPERSEDED"];

/** Reviewers given as `[{uuid}|{account_id}|{nickname}|{username}]`. */
export function parseReviewers(s: BitbucketState, raw: unknown, author: User): User[] | Reply {
  if (!Array.isArray(raw)) return bitbucketError(400, "reviewers: Malformed reviewers list", { reviewers: "Malformed reviewers list" });
  const out: User[] = [];
  for (const r of raw) {
    const key = ["uuid", "account_id", "nickname", "username"].map((k) => field(r, k)).find((v) => typeof v === "string");
    const user = typeof key === "string" ? s.usersByKey.get(key) : undefined;
    if (!user) return bitbucketError(400, `reviewers: Malformed reviewers list`, { reviewers: `Unknown reviewer ${JSON.stringify(r)}` });
    if (user === author) return bitbucketError(400, `reviewers: ${user.displayName} is the author and cannot be included as a reviewer.`);
    if (!out.includes(user)) out.push(user);
  }
  return out;
}

/** Replaces the reviewer set, keeping approvals of those who stay and demoting those who leave. */
export function setReviewers(pr: PullRequest, reviewers: User[]): void {
  for (const p of pr.participants.values()) {
    if (p.role === "REVIEWER" && !reviewers.includes(p.user)) {
      if (p.participatedOn === null) pr.participants.delete(p.user.nickname);
      else p.role = "PARTICIPANT";
    }
  }
  for (const user of reviewers) {
    const p = pr.participants.get(user.nickname);
    if (p) p.role = "REVIEWER";
    else
      pr.participants.set(user.nickname, {
        user,
        role: "REVIEWER",
        approved: false,
        state: null,
        participatedOn: null,
      } satisfies Participant);
  }
}

/** The diff range of a pull request: from the merge base to the source tip. */
export function prRange(repo: Repo, pr: PullRequest): { from: string; to: string } {
  const tips = prTips(repo, pr);
  return { from: mergeBase(repo, tips.source, tips.destination), to: tips.source };
}

export function pullRequestRoutes(router: Router, state: () => BitbucketState): void {
  router.get(`${R}/pullrequests`, (req) => {
    const s = state();
    const repo = findRepo(s, req);
    if (isReply(repo)) return repo;
    const wanted = req.query.getAll("state").map((x) => x.toUpperCase());
    for (const w of wanted) if (!STATES.includes(w as PullRequestState)) return bitbucketError(400, `Invalid state: ${w}`);
    const q = req.query.get("q") ?? "";
    const states = wanted.length > 0 ? wanted : /\bstate\b/.test(q) ? STATES : ["OPEN"];
    const prs = [...repo.pullRequests.values()].filter((p) => states.includes(p.state)).reverse();
    return listReply(req, prs, (p) => presentPullRequest(req.origin, s, repo, p), { maxPagelen: 50 });
  });

  router.post(`${R}/pullrequests`, (req) => {
    const s = state();
    const repo = findRepo(s, req);
    if (isReply(repo)) return repo;
    const body = bodyObject(req);
    if (isReply(body)) return body;
    const title = body.title;
    if (typeof title !== "string" || title.trim() === "") return required("title");
    const source = field(body, "source.branch.name");
    if (typeof source !== "string" || source === "") return required("source");
    const destination = field(body, "destination.branch.name") ?? repo.mainbranch;
    if (typeof destination !== "string") return bitbucketError(400, "destination: Malformed destination");
    const sourceTip = repo.branches.get(source);
    if (!sourceTip) return bitbucketError(400, `source: Branch not found: ${source}`, { source: `Branch not found: ${source}` });
    const destTip = repo.branches.get(destination);
    if (!destTip)
      return bitbucketError(400, `destination: Branch not found: ${destination}`, { destination: `Branch not found: ${destination}` });
    if (source === destination)
      return bitbucketError(400, "source and destination branches must be different", { source: "Same as destination" });
    if (log(repo, [sourceTip], [destTip]).length === 0) return bitbucketError(400, "There are no changes to be pulled");
    const existing = [...repo.pullRequests.values()].find(
      (p) => p.state === "OPEN" && p.source.branch === source && p.destination.branch === destination,
    );
    if (existing) return bitbucketError(400, `A pull request already exists for ${source} → ${destination}: #${existing.id}`);
    const me = actor(s, req);
    const reviewers = body.reviewers === undefined ? [] : parseReviewers(s, body.reviewers, me);
    if (isReply(reviewers)) return reviewers;
    const description = typeof body.description === "string" ? body.description : "";
    const now = Date.now();
    const pr: PullRequest = {
      id: repo.nextPrId++,
      title: title.trim(),
      description,
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
      closeSourceBranch: body.close_source_branch === true,
      participants: new Map(),
      comments: [],
      commentsById: new Map(),
      conflict: false,
      tasks: [],
      edits: [],
    };
    setReviewers(pr, reviewers);
    repo.pullRequests.set(pr.id, pr);
    repo.updatedOn = now;
    const presented = presentPullRequest(req.origin, s, repo, pr);
    return json(presented, 201, { location: presented.links.self.href });
  });

  router.get(
    `${R}/pullrequests/:pull_request_id`,
    onPullRequest(state, (req, { s, repo, pr }) => json(presentPullRequest(req.origin, s, repo, pr))),
  );

  router.put(
    `${R}/pullrequests/:pull_request_id`,
    onPullRequest(state, (req, { s, repo, pr, me }) => {
      const body = bodyObject(req);
      if (isReply(body)) return body;
      if (pr.state !== "OPEN") return bitbucketError(400, `You can't edit a pull request that is ${pr.state.toLowerCase()}.`);
      if (body.title !== undefined && (typeof body.title !== "string" || body.title.trim() === "")) return required("title");
      if (body.description !== undefined && typeof body.description !== "string")
        return bitbucketError(400, "description: Expected a string");
      const destination = field(body, "destination.branch.name");
      if (destination !== undefined && (typeof destination !== "string" || !repo.branches.has(destination))) {
        return bitbucketError(400, `destination: Branch not found: ${String(destination)}`);
      }
      const reviewers = body.reviewers === undefined ? null : parseReviewers(s, body.reviewers, pr.author);
      if (isReply(reviewers)) return reviewers;
      // What changed, for the activity's update entry.
      const changes: Record<string, { old: string; new: string }> = {};
      const change = (name: string, before: string, after: string) => {
        if (before !== after) changes[name] = { old: before, new: after };
      };
      if (typeof body.title === "string") change("title", pr.title, body.title.trim());
      if (typeof body.description === "string") change("description", pr.description, body.description);
      if (typeof destination === "string") change("destination", pr.destination.branch, destination);
      if (typeof body.title === "string") pr.title = body.title.trim();
      if (typeof body.description === "string") pr.description = body.description;
      if (typeof destination === "string") pr.destination = { branch: destination, hash: repo.branches.get(destination)! };
      if (reviewers) setReviewers(pr, reviewers);
      if (typeof body.close_source_branch === "boolean") pr.closeSourceBranch = body.close_source_branch;
      pr.updatedOn = Date.now();
      if (Object.keys(changes).length > 0) pr.edits.push({ by: me, on: pr.updatedOn, changes });
      return json(presentPullRequest(req.origin, s, repo, pr));
    }),
  );

  router.get(
    `${R}/pullrequests/:pull_request_id/diff`,
    onPullRequest(state, (req, { repo, pr }) => {
      const range = prRange(repo, pr);
      return diffReply(req, repo, range.from, range.to);
    }),
  );

  router.get(
    `${R}/pullrequests/:pull_request_id/diffstat`,
    onPullRequest(state, (req, { s, repo, pr }) => {
      const range = prRange(repo, pr);
      return diffstatReply(req, s, repo, range.from, range.to);
    }),
  );

  router.get(
    `${R}/pullrequests/:pull_request_id/patch`,
    onPullRequest(state, (req, { repo, pr }) => {
      const range = prRange(repo, pr);
      return diffReply(req, repo, range.from, range.to);
    }),
  );

  router.get(
    `${R}/pullrequests/:pull_request_id/commits`,
    onPullRequest(state, (req, { s, repo, pr }) => {
      const tips = prTips(repo, pr);
      const commits = log(repo, [tips.source], [tips.destination]);
      return listReply(req, commits, (c) => presentCommit(req.origin, s, repo, c), { withSize: false });
    }),
  );
}
