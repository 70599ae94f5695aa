import { jiraError } from "../core/errors";
import { json, noContent, type Router } from "../core/http";
import { categoryOf, LINK_TYPES, RESOLUTIONS, STATUS_DONE, STATUS_TODO, statusById, TRANSITIONS, TYPE_SUBTASK } from "./catalog";
import { availableTransitions, presentHistory, presentIssue, selectFields } from "./issue-view";
import { applyWrite, issueTypeByRef, refOf } from "./issue-write";
import { canSeeIssue, canSeeProject } from "./access";
import { both, bodyObject, expandSet, issueNotFound, me, now, withIssue } from "./kit";
import type { HistoryItem, Issue, JiraState } from "./model";
import * as P from "./presenters";
import { findIssue, findProject, indexIssue, indexLink, removeIssue, removeLink, touch } from "./store";
import { isRecord, listParam, page } from "./util";

/** Issue CRUD, assignment, transitions, changelog and issue links. */

/** A changelog entry by the caller. */
export function recordHistory(v: P.View, issue: Issue, items: HistoryItem[], at: number): void {
  if (items.length) issue.histories.push({ id: String(v.state.next.history++), authorId: me(v), created: at, items });
}

/** A comment by the caller. */
export function addComment(v: P.View, issue: Issue, body: Issue["comments"][number]["body"], at: number) {
  const author = me(v);
  const c = { id: String(v.state.next.comment++), authorId: author, updateAuthorId: author, body, created: at, updated: at };
  issue.comments.push(c);
  touch(issue, at);
  return c;
}

/** What one create request came to: the new issue's reference, or Jira's error collection. */
type Created =
  { ok: true; ref: { id: string; key: string; self: string } } | { ok: false; errors: Record<string, string>; errorMessages: string[] };

/** Creates one issue from a create body (`{fields, update}`), as POST /issue and each item of POST /issue/bulk do. */
function createIssue(v: P.View, b: Record<string, unknown>): Created {
  const fields = isRecord(b.fields) ? b.fields : {};
  const update = isRecord(b.update) ? b.update : {};
  const errors: Record<string, string> = {};
  const named = isRecord(fields.project) ? findProject(v.state, String(fields.project.key ?? fields.project.id ?? "")) : undefined;
  // A project the caller may not browse is, to them, no project at all (as Jira answers).
  const project = named && canSeeProject(v, named) ? named : undefined;
  const type = issueTypeByRef(fields.issuetype);
  if (!project) errors.project = "Specify a valid project ID or key";
  if (!type) errors.issuetype = fields.issuetype === undefined ? "Specify an issue type" : "The issue type selected is invalid.";
  if (fields.summary === undefined) errors.summary = "You must specify a summary of the issue.";
  if (type?.subtask && fields.parent === undefined) errors.parent = "Issue type is a sub-task but parent issue key or id not specified.";
  if (!project || !type) return { ok: false, errors, errorMessages: [] };
  const at = now(v.state);
  const issue: Issue = {
    id: String(v.state.next.issue),
    key: `${project.key}-${project.nextIssueNumber}`,
    projectId: project.id,
    typeId: type.id,
    summary: "",
    description: null,
    statusId: STATUS_TODO,
    priorityId: "3",
    resolutionId: null,
    resolutionDate: null,
    statusCategoryChanged: at,
    labels: [],
    componentIds: [],
    fixVersionIds: [],
    assigneeId: null,
    reporterId: me(v),
    creatorId: me(v),
    created: at,
    updated: at,
    dueDate: null,
    parentId: null,
    storyPoints: null,
    originalEstimateSeconds: null,
    remainingEstimateSeconds: null,
    sprintIds: [],
    comments: [],
    worklogs: [],
    histories: [],
    watcherIds: [me(v)],
    remoteLinks: [],
  };
  const result = applyWrite(v.state, v, issue, fields, update, true);
  Object.assign(errors, result.errors);
  if (Object.keys(errors).length) return { ok: false, errors, errorMessages: [] };
  if (type.subtask && issue.parentId) issue.sprintIds = [...(v.state.issuesById.get(issue.parentId)?.sprintIds ?? [])];
  v.state.next.issue++;
  project.nextIssueNumber++;
  indexIssue(v.state, issue);
  for (const c of result.comments) addComment(v, issue, c, at);
  return { ok: true, ref: { id: issue.id, key: issue.key, self: `${v.base}/issue/${issue.id}` } };
}

export function issueRoutes(router: Router, state: () => JiraState): void {
  both(router, state, "get", "/issue/:issueIdOrKey", (req, v) =>
    withIssue(req, v, (issue) =>
      json(presentIssue(v, issue, { fields: selectFields(listParam(req.query, "fields"), "*all"), expand: expandSet(req) })),
    ),
  );

  both(router, state, "post", "/issue", (req, v) => {
    const created = createIssue(v, bodyObject(req));
    return created.ok ? json(created.ref, 201) : jiraError(400, "", created.errors);
  });

  /** Up to 50 creates; each fails or succeeds alone. 201 when any was created, 400 (same body) when none was. */
  both(router, state, "post", "/issue/bulk", (req, v) => {
    const updates = bodyObject(req).issueUpdates;
    if (!Array.isArray(updates) || updates.length === 0) return jiraError(400, "", { issueUpdates: "Issue updates must not be empty." });
    if (updates.length > 50) return jiraError(400, `The number of issues to create (${updates.length}) exceeds the maximum of 50.`);
    const issues: { id: string; key: string; self: string }[] = [];
    const errors: {
      status: number;
      elementErrors: { errorMessages: string[]; errors: Record<string, string> };
      failedElementNumber: number;
    }[] = [];
    updates.forEach((item, n) => {
      const created = createIssue(v, isRecord(item) ? item : {});
      if (created.ok) issues.push(created.ref);
      else
        errors.push({
          status: 400,
          elementErrors: { errorMessages: created.errorMessages, errors: created.errors },
          failedElementNumber: n,
        });
    });
    return json({ issues, errors }, issues.length ? 201 : 400);
  });

  both(router, state, "put", "/issue/:issueIdOrKey", (req, v) =>
    withIssue(req, v, (issue) => {
      const b = bodyObject(req);
      const result = applyWrite(v.state, v, issue, isRecord(b.fields) ? b.fields : {}, isRecord(b.update) ? b.update : {}, false);
      if (Object.keys(result.errors).length) return jiraError(400, "", result.errors);
      const at = now(v.state);
      touch(issue, at);
      recordHistory(v, issue, result.history, at);
      for (const c of result.comments) addComment(v, issue, c, at);
      if (req.query.get("returnIssue") === "true")
        return json(presentIssue(v, issue, { fields: selectFields([], "*all"), expand: expandSet(req) }));
      return noContent();
    }),
  );

  both(router, state, "delete", "/issue/:issueIdOrKey", (req, v) =>
    withIssue(req, v, (issue) => {
      const subtasks = (v.state.children.get(issue.id) ?? [])
        .map((id) => v.state.issuesById.get(id))
        .filter((c): c is Issue => c?.typeId === TYPE_SUBTASK);
      if (subtasks.length && req.query.get("deleteSubtasks") !== "true")
        return jiraError(400, "The issue has subtasks, so you must specify the 'deleteSubtasks' parameter to delete this issue.");
      for (const s of subtasks) removeIssue(v.state, s);
      removeIssue(v.state, issue);
      return noContent();
    }),
  );

  both(router, state, "put", "/issue/:issueIdOrKey/assignee", (req, v) =>
    withIssue(req, v, (issue) => {
      const b = bodyObject(req);
      const result = applyWrite(
        v.state,
        v,
        issue,
        { assignee: b.accountId === null || b.accountId === "-1" ? null : { accountId: b.accountId } },
        {},
        false,
      );
      if (Object.keys(result.errors).length) return jiraError(400, "", { assignee: result.errors.assignee ?? "" });
      touch(issue, now(v.state));
      recordHistory(v, issue, result.history, now(v.state));
      return noContent();
    }),
  );

  both(router, state, "get", "/issue/:issueIdOrKey/transitions", (req, v) =>
    withIssue(req, v, (issue) => {
      const only = req.query.get("transitionId");
      const transitions = availableTransitions(v, issue, (req.query.get("expand") ?? "").includes("transitions.fields")).filter(
        (t) => !only || t.id === only,
      );
      return json({ expand: "transitions", transitions });
    }),
  );

  both(router, state, "post", "/issue/:issueIdOrKey/transitions", (req, v) =>
    withIssue(req, v, (issue) => {
      const b = bodyObject(req);
      const id = isRecord(b.transition) ? String(b.transition.id ?? "") : "";
      if (!id) return jiraError(400, "Missing 'transition' identifier");
      const t = TRANSITIONS.find((x) => x.id === id);
      if (!t || !t.from.includes(issue.statusId)) return jiraError(400, `Transition id '${id}' is not valid for this issue.`);
      const fields = isRecord(b.fields) ? { ...b.fields } : {};
      const resolutionRef = fields.resolution;
      delete fields.resolution;
      const resolution =
        resolutionRef === undefined
          ? RESOLUTIONS[0]!
          : RESOLUTIONS.find((r) => r.id === refOf(resolutionRef).id || r.name === refOf(resolutionRef).name);
      if (!resolution) return jiraError(400, "", { resolution: "The resolution selected is invalid." });
      const result = applyWrite(v.state, v, issue, fields, isRecord(b.update) ? b.update : {}, false);
      if (Object.keys(result.errors).length) return jiraError(400, "", result.errors);
      const at = now(v.state);
      const from = statusById.get(issue.statusId)!;
      const to = statusById.get(t.to)!;
      const items: HistoryItem[] = [
        ...result.history,
        { field: "status", fieldId: "status", from: from.id, fromString: from.name, to: to.id, toString: to.name },
      ];
      if (categoryOf(from.id).id !== categoryOf(to.id).id) issue.statusCategoryChanged = at;
      issue.statusId = to.id;
      if (to.id === STATUS_DONE) {
        items.push({
          field: "resolution",
          fieldId: "resolution",
          from: issue.resolutionId,
          fromString: null,
          to: resolution.id,
          toString: resolution.name,
        });
        issue.resolutionId = resolution.id;
        issue.resolutionDate = at;
      } else if (issue.resolutionId) {
        items.push({ field: "resolution", fieldId: "resolution", from: issue.resolutionId, fromString: null, to: null, toString: null });
        issue.resolutionId = null;
        issue.resolutionDate = null;
      }
      touch(issue, at);
      recordHistory(v, issue, items, at);
      for (const c of result.comments) addComment(v, issue, c, at);
      return noContent();
    }),
  );

  both(router, state, "get", "/issue/:issueIdOrKey/changelog", (req, v) =>
    withIssue(req, v, (issue) => json(page(issue.histories, req.query, (h) => presentHistory(v, h), { defaultMax: 100, max: 100 }))),
  );

  both(router, state, "post", "/issueLink", (req, v) => {
    const b = bodyObject(req);
    const typeRef = refOf(b.type);
    const type = LINK_TYPES.find((t) => t.id === typeRef.id || t.name.toLowerCase() === typeRef.name?.toLowerCase());
    if (!type) return jiraError(404, `No issue link type with name '${typeRef.name ?? typeRef.id ?? ""}' found.`);
    const ref = (x: unknown) => {
      const r = refOf(x);
      const issue = r.key || r.id ? findIssue(v.state, (r.key ?? r.id)!) : undefined;
      return issue && canSeeIssue(v, issue) ? issue : undefined;
    };
    const inward = ref(b.inwardIssue);
    const outward = ref(b.outwardIssue);
    if (!inward || !outward) return issueNotFound();
    if (inward.id === outward.id) return jiraError(400, "You cannot link an issue to itself.");
    indexLink(v.state, { id: String(v.state.next.link++), typeId: type.id, outwardId: outward.id, inwardId: inward.id });
    const at = now(v.state);
    touch(inward, at);
    touch(outward, at);
    return { status: 201 };
  });
  /** A link the caller may see: both of its issues browsable. */
  const findLink = (v: P.View, id: string | undefined) => {
    const link = v.state.links.find((l) => l.id === id);
    const visible = (issueId: string) => {
      const issue = v.state.issuesById.get(issueId);
      return issue !== undefined && canSeeIssue(v, issue);
    };
    return link && visible(link.inwardId) && visible(link.outwardId) ? link : undefined;
  };
  both(router, state, "get", "/issueLink/:linkId", (req, v) => {
    const link = findLink(v, req.params.linkId);
    if (!link) return jiraError(404, "No issue link with id '" + (req.params.linkId ?? "") + "' exists.");
    const short = (id: string) => {
      const i = v.state.issuesById.get(id)!;
      return {
        id: i.id,
        key: i.key,
        self: `${v.base}/issue/${i.id}`,
        fields: {
          summary: i.summary,
          status: P.presentStatusById(v, i.statusId),
          priority: P.presentPriority(v, i.priorityId),
          issuetype: P.presentIssueTypeById(v, i.typeId),
        },
      };
    };
    return json({
      id: link.id,
      self: `${v.base}/issueLink/${link.id}`,
      type: P.presentLinkType(v, link.typeId),
      inwardIssue: short(link.inwardId),
      outwardIssue: short(link.outwardId),
    });
  });
  both(router, state, "delete", "/issueLink/:linkId", (req, v) => {
    const link = findLink(v, req.params.linkId);
    if (!link) return jiraError(404, "No issue link with id '" + (req.params.linkId ?? "") + "' exists.");
    removeLink(v.state, link);
    return noContent();
  });
}
