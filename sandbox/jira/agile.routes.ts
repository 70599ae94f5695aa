import { jiraError } from "../core/errors";
import { json, noContent, type Reply, type Router, type SandboxRequest } from "../core/http";
import { categoryOf, STATUSES, TYPE_EPIC, TYPE_SUBTASK } from "./catalog";
import { canSeeIssue, canSeeProject, visibleIssues } from "./access";
import { agileSprint, presentEpic, presentIssue, selectFields } from "./issue-view";
import { bodyObject, expandSet, guard, issueNotFound, now, parseJiraTime } from "./kit";
import type { Board, Issue, JiraState, Sprint } from "./model";
import { makeView, type View } from "./presenters";
import { searchIssues } from "./search.routes";
import { currentSprint, findIssue, findProject, touch } from "./store";
import { intParamSafe, listParam, page } from "./util";

/** Jira Software Agile REST 1.0: boards, sprints, backlog, epics and issue moves. */

const A = "/rest/agile/1.0";
const BOARD_404 = "Board does not exist or you do not have permission to see it.";
const SPRINT_404 = (id: string) => `Sprint with id ${id} does not exist or you do not have permission to see it.`;

type AgileHandler = (req: SandboxRequest, v: View) => Reply;

function presentBoard(v: View, b: Board) {
  const p = v.state.projectsById.get(b.projectId)!;
  return {
    id: b.id,
    self: `${v.origin}${A}/board/${b.id}`,
    name: b.name,
    type: b.type,
    location: {
      projectId: Number(p.id),
      displayName: `${p.name} (${p.key})`,
      projectName: p.name,
      projectKey: p.key,
      projectTypeKey: "software",
      avatarURI: `/secure/projectavatar?size=small&pid=${p.id}`,
      name: `${p.name} (${p.key})`,
    },
    isPrivate: false,
  };
}

/** A page of issues as the Agile API lists them, filtered by `jql` and sorted by rank unless ordered. */
function issuePage(req: SandboxRequest, v: View, base: Issue[]): Reply {
  const jql = req.query.get("jql") ?? "";
  const found = jql.trim() ? searchIssues(v, jql, base) : [...visibleIssues(v, base)].sort((a, b) => Number(a.id) - Number(b.id));
  if (!Array.isArray(found)) return found;
  const fields = selectFields(listParam(req.query, "fields"), "*navigable");
  const expand = expandSet(req);
  const startAt = intParamSafe(req.query.get("startAt"), 0, 0);
  const maxResults = Math.min(100, intParamSafe(req.query.get("maxResults"), 50, 0));
  const issues = found.slice(startAt, startAt + maxResults).map((i) => presentIssue(v, i, { fields, expand, agile: true }));
  return json({ expand: "schema,names", startAt, maxResults, total: found.length, issues });
}

const boardIssues = (s: JiraState, b: Board) => s.issues.filter((i) => i.projectId === b.projectId);

/** A board is visible to whoever may browse its project. */
const boardVisible = (v: View, b: Board): boolean => {
  const p = v.state.projectsById.get(b.projectId);
  return p !== undefined && canSeeProject(v, p);
};

export function agileRoutes(router: Router, state: () => JiraState): void {
  // The Agile API renders rich text as the v2 API does (wiki markup strings).
  const view = (req: SandboxRequest) => makeView(state(), req.origin, 2, req.caller);
  const get = (path: string, h: AgileHandler) =>
    router.get(
      `${A}${path}`,
      guard("get", state, (req) => h(req, view(req))),
    );
  const post = (path: string, h: AgileHandler) =>
    router.post(
      `${A}${path}`,
      guard("post", state, (req) => h(req, view(req))),
    );
  const withBoard =
    (h: (req: SandboxRequest, v: View, b: Board) => Reply): AgileHandler =>
    (req, v) => {
      const b = v.state.boards.find((x) => String(x.id) === req.params.boardId);
      return b && boardVisible(v, b) ? h(req, v, b) : jiraError(404, BOARD_404);
    };
  const withSprint =
    (h: (req: SandboxRequest, v: View, s: Sprint) => Reply): AgileHandler =>
    (req, v) => {
      const s = v.state.sprintsById.get(Number(req.params.sprintId));
      const board = s && v.state.boards.find((b) => b.id === s.boardId);
      return s && (!board || boardVisible(v, board)) ? h(req, v, s) : jiraError(404, SPRINT_404(req.params.sprintId ?? ""));
    };

  get("/board", (req, v) => {
    const type = req.query.get("type");
    const name = (req.query.get("name") ?? "").toLowerCase();
    const projectRef = req.query.get("projectKeyOrId");
    const named = projectRef ? findProject(v.state, projectRef) : undefined;
    const project = named && canSeeProject(v, named) ? named : undefined;
    if (projectRef && !project) return jiraError(400, `No project could be found with key or id '${projectRef}'.`);
    const boards = v.state.boards.filter(
      (b) =>
        boardVisible(v, b) &&
        (!type || type.split(",").includes(b.type)) &&
        (!name || b.name.toLowerCase().includes(name)) &&
        (!project || b.projectId === project.id),
    );
    return json(page(boards, req.query, (b) => presentBoard(v, b), { defaultMax: 50, max: 50 }));
  });
  get(
    "/board/:boardId",
    withBoard((_req, v, b) => json(presentBoard(v, b))),
  );
  get(
    "/board/:boardId/configuration",
    withBoard((_req, v, b) => {
      const p = v.state.projectsById.get(b.projectId)!;
      const columns = STATUSES.map((s) => ({ name: s.name, statuses: [{ id: s.id, self: `${v.origin}/rest/api/2/status/${s.id}` }] }));
      return json({
        id: b.id,
        name: b.name,
        type: b.type,
        self: `${v.origin}${A}/board/${b.id}/configuration`,
        location: { type: "project", key: p.key, id: p.id, self: `${v.origin}/rest/api/2/project/${p.id}`, name: p.name },
        filter: { id: String(b.filterId), self: `${v.origin}/rest/api/2/filter/${b.filterId}` },
        columnConfig: { columns, constraintType: "issueCount" },
        estimation: { type: "field", field: { fieldId: "customfield_10016", displayName: "Story point estimate" } },
        ranking: { rankCustomFieldId: 10019 },
      });
    }),
  );
  get(
    "/board/:boardId/sprint",
    withBoard((req, v, b) => {
      const states = listParam(req.query, "state");
      const sprints = v.state.sprints.filter((s) => s.boardId === b.id && (states.length === 0 || states.includes(s.state)));
      return json(page(sprints, req.query, (s) => agileSprint(v, s), { defaultMax: 50, max: 50 }));
    }),
  );
  get(
    "/board/:boardId/issue",
    withBoard((req, v, b) => issuePage(req, v, boardIssues(v.state, b))),
  );
  get(
    "/board/:boardId/backlog",
    withBoard((req, v, b) =>
      issuePage(
        req,
        v,
        boardIssues(v.state, b).filter(
          (i) => i.typeId !== TYPE_EPIC && !currentSprint(v.state, i) && categoryOf(i.statusId).key !== "done",
        ),
      ),
    ),
  );
  get(
    "/board/:boardId/epic",
    withBoard((req, v, b) => {
      const done = req.query.get("done");
      const epics = boardIssues(v.state, b).filter(
        (i) => i.typeId === TYPE_EPIC && (done === null || String(categoryOf(i.statusId).key === "done") === done),
      );
      return json(page(epics, req.query, (e) => presentEpic(v, e), { defaultMax: 50, max: 50 }));
    }),
  );
  get(
    "/board/:boardId/sprint/:sprintId/issue",
    withBoard((req, v) =>
      withSprint((r, vv, s) =>
        issuePage(
          r,
          vv,
          v.state.issues.filter((i) => i.sprintIds.includes(s.id)),
        ),
      )(req, v),
    ),
  );

  get(
    "/sprint/:sprintId",
    withSprint((_req, v, s) => json(agileSprint(v, s))),
  );
  get(
    "/sprint/:sprintId/issue",
    withSprint((req, v, s) =>
      issuePage(
        req,
        v,
        v.state.issues.filter((i) => i.sprintIds.includes(s.id)),
      ),
    ),
  );
  get("/issue/:issueIdOrKey", (req, v) => {
    const issue = findIssue(v.state, req.params.issueIdOrKey ?? "");
    return issue && canSeeIssue(v, issue)
      ? json(presentIssue(v, issue, { fields: selectFields(listParam(req.query, "fields"), "*all"), expand: expandSet(req), agile: true }))
      : issueNotFound();
  });
  get("/epic/:epicIdOrKey/issue", (req, v) => {
    const epic = findIssue(v.state, req.params.epicIdOrKey ?? "");
    if (!epic || epic.typeId !== TYPE_EPIC || !canSeeIssue(v, epic))
      return jiraError(404, "Epic does not exist or you do not have permission to see it.");
    return issuePage(
      req,
      v,
      v.state.issues.filter((i) => i.parentId === epic.id),
    );
  });

  post("/sprint", (req, v) => {
    const b = bodyObject(req);
    const errors: Record<string, string> = {};
    const board = v.state.boards.find((x) => x.id === Number(b.originBoardId) && boardVisible(v, x));
    if (typeof b.name !== "string" || !b.name.trim()) errors.name = "The sprint name cannot be empty.";
    else if (b.name.length > 30) errors.name = "The sprint name is too long (maximum is 30 characters).";
    if (!board) errors.originBoardId = b.originBoardId === undefined ? "The board id is required." : BOARD_404;
    const start = b.startDate === undefined ? undefined : parseJiraTime(b.startDate);
    const end = b.endDate === undefined ? undefined : parseJiraTime(b.endDate);
    if (Number.isNaN(start)) errors.startDate = "Invalid start date.";
    if (Number.isNaN(end)) errors.endDate = "Invalid end date.";
    if (Object.keys(errors).length || !board) return jiraError(400, "", errors);
    const sprint: Sprint = {
      id: v.state.next.sprint++,
      name: b.name as string,
      state: "future",
      boardId: board.id,
      goal: typeof b.goal === "string" ? b.goal : "",
      createdDate: now(v.state),
      ...(start !== undefined ? { startDate: start } : {}),
      ...(end !== undefined ? { endDate: end } : {}),
    };
    v.state.sprints.push(sprint);
    v.state.sprintsById.set(sprint.id, sprint);
    return json(agileSprint(v, sprint), 201);
  });

  const update = withSprint((req, v, s) => {
    const b = bodyObject(req);
    const draft: Sprint = { ...s };
    if (typeof b.name === "string") {
      if (!b.name.trim()) return jiraError(400, "", { name: "The sprint name cannot be empty." });
      if (b.name.length > 30) return jiraError(400, "", { name: "The sprint name is too long (maximum is 30 characters)." });
      draft.name = b.name;
    }
    if (typeof b.goal === "string") draft.goal = b.goal;
    for (const key of ["startDate", "endDate"] as const) {
      if (b[key] === undefined) continue;
      const t = parseJiraTime(b[key]);
      if (Number.isNaN(t)) return jiraError(400, "", { [key]: `Invalid ${key === "startDate" ? "start" : "end"} date.` });
      draft[key] = t;
    }
    const target = b.state;
    if (target !== undefined && target !== s.state) {
      if (target === "active") {
        if (s.state !== "future") return jiraError(400, "A closed sprint cannot be reopened.");
        if (draft.startDate === undefined || draft.endDate === undefined)
          return jiraError(400, "The sprint cannot be started without a start date and an end date.");
        if (v.state.sprints.some((x) => x.boardId === s.boardId && x.state === "active"))
          return jiraError(400, "This board already has an active sprint. Complete it before starting another one.");
        draft.state = "active";
      } else if (target === "closed") {
        if (s.state !== "active") return jiraError(400, "Only an active sprint can be completed.");
        draft.state = "closed";
        draft.completeDate = now(v.state);
      } else return jiraError(400, "", { state: `The sprint state '${String(target)}' is not valid: use future, active or closed.` });
    }
    if (draft.endDate !== undefined && draft.startDate !== undefined && draft.endDate < draft.startDate)
      return jiraError(400, "", { endDate: "The end date must be after the start date." });
    Object.assign(s, draft);
    return json(agileSprint(v, s));
  });
  post("/sprint/:sprintId", update);
  router.put(
    `${A}/sprint/:sprintId`,
    guard("put", state, (req) => update(req, view(req))),
  );
  router.delete(
    `${A}/sprint/:sprintId`,
    guard("delete", state, (req) =>
      withSprint((_r, v, s) => {
        if (s.state === "active") return jiraError(400, "An active sprint cannot be deleted.");
        v.state.sprints = v.state.sprints.filter((x) => x !== s);
        v.state.sprintsById.delete(s.id);
        for (const i of v.state.issues) if (i.sprintIds.includes(s.id)) i.sprintIds = i.sprintIds.filter((id) => id !== s.id);
        return noContent();
      })(req, view(req)),
    ),
  );

  /** Moves issues (and their subtasks) into a sprint or, with `null`, to the backlog. */
  const move = (v: View, refs: unknown, sprint: Sprint | null): Reply => {
    if (!Array.isArray(refs) || refs.length === 0) return jiraError(400, "", { issues: "The issues list cannot be empty." });
    if (refs.length > 50) return jiraError(400, "", { issues: "You can move at most 50 issues at once." });
    const issues: Issue[] = [];
    for (const ref of refs) {
      const issue = findIssue(v.state, String(ref));
      if (!issue || !canSeeIssue(v, issue))
        return jiraError(400, `Issue '${String(ref)}' does not exist or you do not have permission to see it.`);
      if (issue.typeId === TYPE_SUBTASK) return jiraError(400, `Issue '${issue.key}' is a sub-task: move its parent instead.`);
      issues.push(
        issue,
        ...(v.state.children.get(issue.id) ?? []).map((id) => v.state.issuesById.get(id)!).filter((c) => c.typeId === TYPE_SUBTASK),
      );
    }
    const at = now(v.state);
    for (const issue of issues) {
      const kept = issue.sprintIds.filter((id) => v.state.sprintsById.get(id)?.state === "closed");
      issue.sprintIds = sprint ? [...kept, sprint.id] : kept;
      touch(issue, at);
    }
    return noContent();
  };
  post(
    "/sprint/:sprintId/issue",
    withSprint((req, v, s) =>
      s.state === "closed" ? jiraError(400, "Issues cannot be moved to a closed sprint.") : move(v, bodyObject(req).issues, s),
    ),
  );
  post("/backlog/issue", (req, v) => move(v, bodyObject(req).issues, null));
}
