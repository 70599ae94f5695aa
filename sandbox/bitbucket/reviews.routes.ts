import { bitbucketError } from "../core/errors";
import { json, noContent, type Reply, type Router, type SandboxRequest } from "../core/http";
import { bodyObject, field, isReply, listReply, onPullRequest, required } from "./common";
import type { BitbucketState, PullRequest, Task, User } from "./model";
import { presentResolution, presentTask, pullRequestActivity } from "./presenters.pr";

/** Review work on a pull request: its activity log, tasks, and resolving comment threads. */

const PR = "/2.0/repositories/:workspace/:repo_slug/pullrequests/:pull_request_id";
const TASK_STATES = ["RESOLVED", "UNRESOLVED"];

function findTask(pr: PullRequest, req: SandboxRequest): Task | Reply {
  const id = Number(req.params.task_id);
  return pr.tasks.find((t) => t.id === id) ?? bitbucketError(404, `Task ${req.params.task_id ?? ""} not found`);
}

/** Sets a task's state, keeping who resolved it and when. */
function setTaskState(me: User, t: Task, state: "RESOLVED" | "UNRESOLVED", now: number): void {
  if (t.state === state) return;
  t.state = state;
  t.resolvedBy = state === "RESOLVED" ? me : null;
  t.resolvedOn = state === "RESOLVED" ? now : null;
}

export function reviewRoutes(router: Router, state: () => BitbucketState): void {
  router.get(
    `${PR}/activity`,
    onPullRequest(state, (req, { s, repo, pr }) =>
      listReply(req, pullRequestActivity(req.origin, s, repo, pr), (e) => e, { defaultPagelen: 25, maxPagelen: 50, withSize: false }),
    ),
  );

  router.get(
    `${PR}/tasks`,
    onPullRequest(state, (req, { s, repo, pr }) =>
      listReply(req, pr.tasks, (t) => presentTask(req.origin, s, repo, pr, t), { defaultPagelen: 10, maxPagelen: 100 }),
    ),
  );

  router.post(
    `${PR}/tasks`,
    onPullRequest(state, (req, { s, repo, pr, me }) => {
      const body = bodyObject(req);
      if (isReply(body)) return body;
      const raw = field(body, "content.raw");
      if (typeof raw !== "string" || raw.trim() === "") return required("content");
      const commentId = field(body, "comment.id");
      if (
        commentId !== undefined &&
        (typeof commentId !== "number" || !pr.commentsById.has(commentId) || pr.commentsById.get(commentId)!.deleted)
      ) {
        return bitbucketError(400, `comment: Comment not found: ${String(commentId)}`, { comment: "Comment not found" });
      }
      const now = Date.now();
      const t: Task = {
        id: s.nextTaskId++,
        raw,
        state: "UNRESOLVED",
        creator: me,
        createdOn: now,
        updatedOn: now,
        resolvedBy: null,
        resolvedOn: null,
        commentId: typeof commentId === "number" ? commentId : null,
        pending: body.pending === true,
      };
      pr.tasks.push(t);
      pr.updatedOn = now;
      const presented = presentTask(req.origin, s, repo, pr, t);
      return json(presented, 201, { location: presented.links.self.href });
    }),
  );

  router.get(
    `${PR}/tasks/:task_id`,
    onPullRequest(state, (req, { s, repo, pr }) => {
      const t = findTask(pr, req);
      return isReply(t) ? t : json(presentTask(req.origin, s, repo, pr, t));
    }),
  );

  router.put(
    `${PR}/tasks/:task_id`,
    onPullRequest(state, (req, { s, repo, pr, me }) => {
      const t = findTask(pr, req);
      if (isReply(t)) return t;
      const body = bodyObject(req);
      if (isReply(body)) return body;
      const raw = field(body, "content.raw");
      if (raw !== undefined && (typeof raw !== "string" || raw.trim() === "")) return required("content");
      if (body.state !== undefined && (typeof body.state !== "string" || !TASK_STATES.includes(body.state))) {
        return bitbucketError(400, `state: "${String(body.state)}" is not a valid task state.`, {
          state: `Expected one of ${TASK_STATES.join(", ")}`,
        });
      }
      const now = Date.now();
      if (typeof raw === "string") t.raw = raw;
      if (typeof body.state === "string") setTaskState(me, t, body.state as Task["state"], now);
      t.updatedOn = now;
      return json(presentTask(req.origin, s, repo, pr, t));
    }),
  );

  router.delete(
    `${PR}/tasks/:task_id`,
    onPullRequest(state, (req, { pr, me }) => {
      const t = findTask(pr, req);
      if (isReply(t)) return t;
      if (t.creator !== me) return bitbucketError(403, "You can only delete your own tasks.");
      pr.tasks.splice(pr.tasks.indexOf(t), 1);
      return noContent();
    }),
  );

  // A thread is resolved through its top comment; a reply belongs to its parent's thread.
  router.post(
    `${PR}/comments/:comment_id/resolve`,
    onPullRequest(state, (req, { pr, me }) => {
      const c = pr.commentsById.get(Number(req.params.comment_id));
      if (!c || c.deleted) return bitbucketError(404, `Comment ${req.params.comment_id ?? ""} not found`);
      if (c.parentId !== null)
        return bitbucketError(400, "Only a top-level comment can be resolved: resolve the comment this one replies to.");
      if (c.resolution) return bitbucketError(409, `Comment ${c.id} is already resolved.`);
      c.resolution = { user: me, on: Date.now() };
      return json(presentResolution(req.origin, c.resolution));
    }),
  );

  router.delete(
    `${PR}/comments/:comment_id/resolve`,
    onPullRequest(state, (req, { pr }) => {
      const c = pr.commentsById.get(Number(req.params.comment_id));
      if (!c || c.deleted) return bitbucketError(404, `Comment ${req.params.comment_id ?? ""} not found`);
      if (!c.resolution) return bitbucketError(409, `Comment ${c.id} is not resolved.`);
      c.resolution = null;
      return noContent();
    }),
  );
}
