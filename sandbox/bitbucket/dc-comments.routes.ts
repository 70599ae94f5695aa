import { json, noContent, type Reply, type SandboxRequest } from "../core/http";
import {
  anchors,
  bumpComment,
  commentVersion,
  dcBody,
  dcError,
  dcPage,
  isReply,
  onDcPullRequest,
  sentVersion,
  type DcPullRequestAt,
  type DcRoutes,
} from "./dc-common";
import { dcActivities, dcComment, dcTask } from "./dc-present-comments";
import type { BitbucketState, Comment, Task } from "./model";

/**
 * Bitbucket DC pull request comments: general, on a file's line (`anchor`), replies (`parent`);
 * tasks as DC 7.2+ keeps them (comments of severity BLOCKER, OPEN or RESOLVED: `/blocker-comments`
 * lists them); thread resolution (`threadResolved`, DC 8+); each edit at the comment's `version`;
 * and the pull request's activities.
 */

const PR = "/projects/:projectKey/repos/:repositorySlug/pull-requests/:pullRequestId";
const LINE_TYPES = ["ADDED", "REMOVED", "CONTEXT"];
const FILE_TYPES = ["FROM", "TO"];

/** `anchor: {path, line, lineType, fileType}` as the model's inline position (a line of the new file for TO, the old for FROM). */
function anchorOf(raw: unknown): { inline: Comment["inline"]; lineType: string; fileType: string } | null | Reply {
  if (raw === undefined || raw === null) return null;
  const a = raw as { path?: unknown; line?: unknown; lineType?: unknown; fileType?: unknown };
  if (typeof a.path !== "string" || a.path === "")
    return dcError(400, "anchor.path: the path of the file is required.", { path: "required" });
  if (a.line !== undefined && (!Number.isInteger(a.line) || (a.line as number) < 1))
    return dcError(400, "anchor.line must be a line number.", { line: "invalid" });
  const lineType = a.lineType ?? "CONTEXT";
  const fileType = a.fileType ?? "TO";
  if (typeof lineType !== "string" || !LINE_TYPES.includes(lineType))
    return dcError(400, `${String(lineType)} is not a line type.`, { lineType: "invalid" });
  if (typeof fileType !== "string" || !FILE_TYPES.includes(fileType))
    return dcError(400, `${String(fileType)} is not a file type.`, { fileType: "invalid" });
  const line = (a.line as number | undefined) ?? null;
  return { inline: { path: a.path, from: fileType === "FROM" ? line : null, to: fileType === "TO" ? line : null }, lineType, fileType };
}

/** A comment or a task of the pull request by id (ids of both are unique in the state). */
function findComment(at: DcPullRequestAt, req: SandboxRequest): { comment: Comment } | { task: Task } | Reply {
  const id = Number(req.params.commentId);
  const comment = at.pr.commentsById.get(id);
  if (comment && !comment.deleted) return { comment };
  const task = at.pr.tasks.find((t) => t.id === id);
  return task ? { task } : dcError(404, `Comment ${req.params.commentId ?? ""} does not exist on pull request ${at.pr.id}.`);
}

const staleComment = (c: Comment | Task, expected: number): Reply => ({
  status: 409,
  body: {
    errors: [
      {
        context: null,
        message: "You are attempting to modify a comment based on out-of-date information.",
        exceptionName: "com.atlassian.bitbucket.comment.CommentOutOfDateException",
        currentVersion: commentVersion(c),
        expectedVersion: expected,
      },
    ],
  },
});

export function dcCommentRoutes(api: DcRoutes, state: () => BitbucketState): void {
  /** Adds a comment, or a task when `severity` is BLOCKER (on a comment when it has a parent). */
  const add = (blocker: boolean) =>
    onDcPullRequest(state, (req, { s, repo, pr, me }) => {
      const body = dcBody(req);
      if (isReply(body)) return body;
      if (typeof body.text !== "string" || body.text.trim() === "")
        return dcError(400, "text: The comment text is required.", { text: "required" });
      const severity = blocker ? "BLOCKER" : (body.severity ?? "NORMAL");
      if (severity !== "NORMAL" && severity !== "BLOCKER")
        return dcError(400, `${String(severity)} is not a comment severity.`, { severity: "invalid" });
      const parentId = (body.parent as { id?: unknown } | undefined)?.id;
      const parent = parentId === undefined ? null : pr.commentsById.get(Number(parentId));
      if (parentId !== undefined && (!parent || parent.deleted))
        return dcError(404, `Comment ${String(parentId)} does not exist on pull request ${pr.id}.`);
      const anchor = anchorOf(body.anchor);
      if (isReply(anchor)) return anchor;
      const now = Date.now();
      if (severity === "BLOCKER") {
        const task: Task = {
          id: s.nextTaskId++,
          raw: body.text,
          state: "UNRESOLVED",
          creator: me,
          createdOn: now,
          updatedOn: now,
          resolvedBy: null,
          resolvedOn: null,
          commentId: parent?.id ?? null,
          pending: false,
        };
        pr.tasks.push(task);
        pr.updatedOn = now;
        return json(dcTask(req, s, task), 201);
      }
      const c: Comment = {
        id: ++s.nextCommentId,
        user: me,
        raw: body.text,
        createdOn: now,
        updatedOn: now,
        inline: anchor?.inline ?? (parent ? parent.inline : null),
        parentId: parent?.id ?? null,
        deleted: false,
        resolution: null,
      };
      if (anchor) anchors.set(c, { lineType: anchor.lineType, fileType: anchor.fileType });
      pr.comments.push(c);
      pr.commentsById.set(c.id, c);
      if (pr.author !== me && !pr.participants.has(me.nickname))
        pr.participants.set(me.nickname, { user: me, role: "PARTICIPANT", approved: false, state: null, participatedOn: now });
      pr.updatedOn = now;
      return json(dcComment(req, s, repo, pr, c), 201);
    });
  api.post(`${PR}/comments`, add(false));
  api.post(`${PR}/blocker-comments`, add(true));

  // Comments on one file (`path`), or every top-level comment without it.
  api.get(
    `${PR}/comments`,
    onDcPullRequest(state, (req, { s, repo, pr }) => {
      const path = req.query.get("path");
      const comments = pr.comments.filter((c) => !c.deleted && c.parentId === null && (!path || c.inline?.path === path));
      return dcPage(req, comments, (c) => dcComment(req, s, repo, pr, c));
    }),
  );

  api.get(
    `${PR}/blocker-comments`,
    onDcPullRequest(state, (req, { s, pr }) => {
      const wanted = req.query.get("state");
      const tasks = pr.tasks.filter((t) => !wanted || (wanted === "RESOLVED") === (t.state === "RESOLVED"));
      return dcPage(req, tasks, (t) => dcTask(req, s, t));
    }),
  );

  const commentOrTask = (handle: (req: SandboxRequest, at: DcPullRequestAt, found: { comment: Comment } | { task: Task }) => Reply) =>
    onDcPullRequest(state, (req, at) => {
      const found = findComment(at, req);
      return isReply(found) ? found : handle(req, at, found);
    });
  const present = (req: SandboxRequest, { s, repo, pr }: DcPullRequestAt, found: { comment: Comment } | { task: Task }) =>
    "task" in found ? dcTask(req, s, found.task) : dcComment(req, s, repo, pr, found.comment);

  api.get(
    `${PR}/comments/:commentId`,
    commentOrTask((req, at, found) => json(present(req, at, found))),
  );
  api.get(
    `${PR}/blocker-comments/:commentId`,
    commentOrTask((req, at, found) => json(present(req, at, found))),
  );

  /** `{version, text?, state?, threadResolved?}`: a task's state, a thread's resolution, or the text (the author's own). */
  const update = commentOrTask((req, at, found) => {
    const body = dcBody(req);
    if (isReply(body)) return body;
    const target = "task" in found ? found.task : found.comment;
    const version = sentVersion(req, body);
    if (isReply(version)) return version;
    if (version === null) return dcError(400, "version: the comment's current version is required.", { version: "required" });
    if (version !== commentVersion(target)) return staleComment(target, version);
    const now = Date.now();
    if ("task" in found) {
      const t = found.task;
      if (body.state !== undefined) {
        if (body.state !== "OPEN" && body.state !== "RESOLVED")
          return dcError(400, `${String(body.state)} is not a task state.`, { state: "invalid" });
        const resolved = body.state === "RESOLVED";
        t.state = resolved ? "RESOLVED" : "UNRESOLVED";
        t.resolvedBy = resolved ? at.me : null;
        t.resolvedOn = resolved ? now : null;
      }
      if (typeof body.text === "string" && body.text.trim() !== "") t.raw = body.text;
      t.updatedOn = now;
    } else {
      const c = found.comment;
      if (body.state !== undefined && body.state !== "OPEN")
        return dcError(400, "Only a BLOCKER comment (a task) has a state to change; resolve a thread with threadResolved.");
      if (body.threadResolved !== undefined) {
        if (c.parentId !== null) return dcError(400, "Only the first comment of a thread can resolve it.");
        c.resolution = body.threadResolved === true ? (c.resolution ?? { user: at.me, on: now }) : null;
      }
      if (typeof body.text === "string" && body.text !== c.raw) {
        if (c.user !== at.me) return dcError(403, "You can only edit your own comments.");
        c.raw = body.text;
      }
      c.updatedOn = now;
    }
    bumpComment(target);
    return json(present(req, at, found));
  });
  api.put(`${PR}/comments/:commentId`, update);
  api.put(`${PR}/blocker-comments/:commentId`, update);

  api.delete(
    `${PR}/comments/:commentId`,
    commentOrTask((req, at, found) => {
      const target = "task" in found ? found.task : found.comment;
      const version = sentVersion(req, {});
      if (isReply(version)) return version;
      if (version !== null && version !== commentVersion(target)) return staleComment(target, version);
      const author = "task" in found ? found.task.creator : found.comment.user;
      if (author !== at.me) return dcError(403, "You can only delete your own comments.");
      if ("task" in found) at.pr.tasks.splice(at.pr.tasks.indexOf(found.task), 1);
      else found.comment.deleted = true;
      return noContent();
    }),
  );

  api.get(
    `${PR}/activities`,
    onDcPullRequest(state, (req, { s, repo, pr }) => dcPage(req, dcActivities(req, s, repo, pr), (a) => a)),
  );
}
