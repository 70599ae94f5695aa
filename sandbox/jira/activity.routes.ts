import { jiraError } from "../core/errors";
import { json, noContent, type Reply, type Router } from "../core/http";
import { adfToHtml } from "./adf";
import { readBody } from "./issue-write";
import { addComment } from "./issues.routes";
import { both, bodyObject, me, now, parseJiraTime, withIssue } from "./kit";
import type { Issue, JiraState } from "./model";
import * as P from "./presenters";
import { touch } from "./store";
import { intParamSafe, parseDuration } from "./util";

/** Comments and worklogs: offset pages `{startAt, maxResults, total, comments|worklogs}`. */

const MAX_PAGE = 5000;
const EMPTY_COMMENT = "Comment body can not be empty!";

function pageOf<T>(items: T[], query: URLSearchParams, name: string, present: (x: T) => unknown): Reply {
  const startAt = intParamSafe(query.get("startAt"), 0, 0);
  const maxResults = Math.min(MAX_PAGE, intParamSafe(query.get("maxResults"), MAX_PAGE, 0));
  return json({ startAt, maxResults, total: items.length, [name]: items.slice(startAt, startAt + maxResults).map(present) });
}

const commentNotFound = (id: string) => jiraError(404, `Can not find a comment for the id: ${id}.`);
const worklogNotFound = (id: string) => jiraError(404, `Cannot find worklog with id: '${id}'.`);

export function activityRoutes(router: Router, state: () => JiraState): void {
  both(router, state, "get", "/issue/:issueIdOrKey/comment", (req, v) =>
    withIssue(req, v, (issue) => {
      const order = req.query.get("orderBy") ?? "created";
      const sorted = order.startsWith("-") ? [...issue.comments].reverse() : issue.comments;
      const rendered = (req.query.get("expand") ?? "").includes("renderedBody");
      return pageOf(sorted, req.query, "comments", (c) => ({
        ...P.presentComment(v, issue.id, c),
        ...(rendered ? { renderedBody: adfToHtml(c.body) ?? "" } : {}),
      }));
    }),
  );

  both(router, state, "post", "/issue/:issueIdOrKey/comment", (req, v) =>
    withIssue(req, v, (issue) => {
      const b = bodyObject(req);
      if (b.body === undefined || b.body === "" || b.body === null) return jiraError(400, "", { comment: EMPTY_COMMENT });
      const parsed = readBody(v, b.body);
      if (!parsed)
        return jiraError(400, "", {
          comment: v.version === 3 ? "Comment body is not valid: it must be an Atlassian Document." : EMPTY_COMMENT,
        });
      const c = addComment(v, issue, parsed, now(v.state));
      return json(P.presentComment(v, issue.id, c), 201);
    }),
  );

  const withComment = (fn: (issue: Issue, c: Issue["comments"][number], v: P.View, body: Record<string, unknown>) => Reply) =>
    ((req, v) =>
      withIssue(req, v, (issue) => {
        const c = issue.comments.find((x) => x.id === req.params.id);
        return c ? fn(issue, c, v, bodyObject(req)) : commentNotFound(req.params.id ?? "");
      })) satisfies Parameters<typeof both>[4];

  both(
    router,
    state,
    "get",
    "/issue/:issueIdOrKey/comment/:id",
    withComment((issue, c, v) => json(P.presentComment(v, issue.id, c))),
  );
  both(
    router,
    state,
    "put",
    "/issue/:issueIdOrKey/comment/:id",
    withComment((issue, c, v, b) => {
      const parsed = readBody(v, b.body);
      if (!parsed) return jiraError(400, "", { comment: EMPTY_COMMENT });
      const at = now(v.state);
      Object.assign(c, { body: parsed, updated: at, updateAuthorId: me(v) });
      touch(issue, at);
      return json(P.presentComment(v, issue.id, c));
    }),
  );
  both(
    router,
    state,
    "delete",
    "/issue/:issueIdOrKey/comment/:id",
    withComment((issue, c, v) => {
      issue.comments = issue.comments.filter((x) => x !== c);
      touch(issue, now(v.state));
      return noContent();
    }),
  );

  both(router, state, "get", "/issue/:issueIdOrKey/worklog", (req, v) =>
    withIssue(req, v, (issue) => {
      const after = intParamSafe(req.query.get("startedAfter"), Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY);
      const before = intParamSafe(req.query.get("startedBefore"), Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY);
      const items = issue.worklogs.filter((w) => w.started >= after && w.started < before);
      return pageOf(items, req.query, "worklogs", (w) => P.presentWorklog(v, issue.id, w));
    }),
  );

  both(router, state, "post", "/issue/:issueIdOrKey/worklog", (req, v) =>
    withIssue(req, v, (issue) => {
      const b = bodyObject(req);
      let seconds: number | null = null;
      if (typeof b.timeSpentSeconds === "number") seconds = b.timeSpentSeconds > 0 ? Math.round(b.timeSpentSeconds) : null;
      else if (typeof b.timeSpent === "string") {
        seconds = parseDuration(b.timeSpent);
        if (seconds === null) return jiraError(400, "", { timeLogged: "Invalid time duration entered." });
      }
      if (seconds === null) return jiraError(400, "", { timeLogged: "You must indicate the time spent working." });
      const at = now(v.state);
      const started = b.started === undefined ? at : parseJiraTime(b.started);
      if (Number.isNaN(started))
        return jiraError(400, "", { started: "Could not parse the started date. Use the format yyyy-MM-dd'T'HH:mm:ss.SSSZ." });
      let comment = null;
      if (b.comment !== undefined) {
        comment = readBody(v, b.comment) ?? null;
        if (comment === null && b.comment !== null && b.comment !== "")
          return jiraError(400, "", { comment: "Comment body is not valid." });
      }
      const adjust = req.query.get("adjustEstimate") ?? "auto";
      if (adjust === "new") {
        const n = parseDuration(req.query.get("newEstimate") ?? "");
        if (n === null) return jiraError(400, "", { newEstimate: "You must supply a valid new estimate." });
        issue.remainingEstimateSeconds = n;
      } else if (adjust === "manual") {
        const r = parseDuration(req.query.get("reduceBy") ?? "");
        if (r === null) return jiraError(400, "", { reduceBy: "You must supply a valid amount of time to adjust the estimate by." });
        issue.remainingEstimateSeconds = Math.max(0, (issue.remainingEstimateSeconds ?? 0) - r);
      } else if (adjust === "auto" && issue.remainingEstimateSeconds !== null) {
        issue.remainingEstimateSeconds = Math.max(0, issue.remainingEstimateSeconds - seconds);
      }
      const w = {
        id: String(v.state.next.worklog++),
        authorId: me(v),
        comment,
        started,
        created: at,
        updated: at,
        timeSpentSeconds: seconds,
      };
      issue.worklogs.push(w);
      touch(issue, at);
      return json(P.presentWorklog(v, issue.id, w), 201);
    }),
  );

  both(router, state, "get", "/issue/:issueIdOrKey/worklog/:id", (req, v) =>
    withIssue(req, v, (issue) => {
      const w = issue.worklogs.find((x) => x.id === req.params.id);
      return w ? json(P.presentWorklog(v, issue.id, w)) : worklogNotFound(req.params.id ?? "");
    }),
  );
  both(router, state, "delete", "/issue/:issueIdOrKey/worklog/:id", (req, v) =>
    withIssue(req, v, (issue) => {
      const w = issue.worklogs.find((x) => x.id === req.params.id);
      if (!w) return worklogNotFound(req.params.id ?? "");
      issue.worklogs = issue.worklogs.filter((x) => x !== w);
      if (issue.remainingEstimateSeconds !== null && (req.query.get("adjustEstimate") ?? "auto") === "auto")
        issue.remainingEstimateSeconds += w.timeSpentSeconds;
      touch(issue, now(v.state));
      return noContent();
    }),
  );
}
