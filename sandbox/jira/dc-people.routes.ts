import { jiraError } from "../core/errors";
import { json, noContent, type Handler, type SandboxRequest } from "../core/http";
import { canSeeIssue, canSeeProject } from "./access";
import { dcView, withoutParam, type Adapter } from "./dc-kit";
import { presentDataCenterUser, userByName, usernameOf } from "./dc-users";
import { applyWrite } from "./issue-write";
import { recordHistory } from "./issues.routes";
import { bodyObject, guard, issueNotFound, now, withIssue } from "./kit";
import type { JiraState, User } from "./model";
import { findIssue, findProject, touch } from "./store";
import { intParamSafe } from "./util";

/**
 * Data Center's people endpoints, by username (Jira Server/DC REST v2 reference; pycontribs/jira
 * sends `username=` and `{"name": …}` whenever the deployment is not Cloud):
 * - `GET /user?username=|key=`, `GET /user/search?username=` (matched against the username, the
 *   name and the email), `GET /user/assignable/search?username=&project=|issueKey=`;
 * - `PUT /issue/{key}/assignee` with `{"name": "fred"}` (null unassigns, "-1" is automatic);
 * - watchers: POST the username as a JSON string, DELETE with `?username=`.
 */

const noSuchUser = (name: string) => jiraError(404, `The user named '${name}' does not exist`);

/** Data Center's user search: a username or an email starting with the text, or a word of the name doing so. */
const matches = (u: User, q: string): boolean =>
  usernameOf(u).toLowerCase().startsWith(q) ||
  u.emailAddress.toLowerCase().startsWith(q) ||
  u.displayName
    .toLowerCase()
    .split(/\s+/)
    .some((w) => w.startsWith(q)) ||
  u.displayName.toLowerCase().startsWith(q);

function userPage(state: () => JiraState, req: SandboxRequest, q: string) {
  const v = dcView(state, req);
  const startAt = intParamSafe(req.query.get("startAt"), 0, 0);
  const max = Math.min(1000, intParamSafe(req.query.get("maxResults"), 50, 0));
  const active = req.query.get("includeActive") !== "false";
  const inactive = req.query.get("includeInactive") === "true";
  const found = v.state.users.filter((u) => (u.active ? active : inactive) && matches(u, q.toLowerCase()));
  return json(found.slice(startAt, startAt + max).map((u) => presentDataCenterUser(v, u)));
}

export function peopleAdapters(state: () => JiraState): Record<string, Adapter> {
  const user: Handler = (req) => {
    const v = dcView(state, req);
    const ref = { name: req.query.get("username") ?? undefined, key: req.query.get("key") ?? undefined };
    if (!ref.name && !ref.key) return jiraError(400, "The username or key query parameter must be given.");
    const u = userByName(v.state, ref);
    if (!u) return noSuchUser(ref.name ?? ref.key ?? "");
    return json({
      ...presentDataCenterUser(v, u),
      deleted: false,
      locale: "en_US",
      groups: { size: 1, items: [] },
      applicationRoles: { size: 1, items: [] },
      expand: "groups,applicationRoles",
    });
  };

  const search: Handler = (req) => {
    const q = req.query.get("username");
    if (!q) return jiraError(400, "The username query parameter was not provided.");
    return userPage(state, req, q);
  };

  /** Who may be assigned in a project or an issue the caller may browse (any active user, as the cloud imitation has it). */
  const assignable: Handler = (req) => {
    const v = dcView(state, req);
    const projectRef = req.query.get("project");
    const issueKey = req.query.get("issueKey");
    if (!projectRef && !issueKey) return jiraError(400, "Either the 'project' or the 'issueKey' query parameter must be given.");
    if (issueKey) {
      const issue = findIssue(v.state, issueKey);
      if (!issue || !canSeeIssue(v, issue)) return issueNotFound();
    } else {
      const project = findProject(v.state, projectRef!);
      if (!project || !canSeeProject(v, project)) return jiraError(404, `No project could be found with key '${projectRef}'.`);
    }
    return userPage(state, req, req.query.get("username") ?? "");
  };

  const assign = guard("put", state, (req) => {
    const v = dcView(state, req);
    return withIssue(req, v, (issue) => {
      const b = bodyObject(req);
      if (!("name" in b)) return jiraError(400, "", { assignee: "The assignee must be given by 'name' (a username), or null." });
      const name = b.name;
      if (name !== null && typeof name !== "string") return jiraError(400, "", { assignee: "The assignee's name must be a string." });
      const result = applyWrite(v.state, v, issue, { assignee: name === null || name === "-1" ? null : { name } }, {}, false);
      if (result.errors.assignee) return jiraError(400, "", { assignee: result.errors.assignee });
      const at = now(v.state);
      touch(issue, at);
      recordHistory(v, issue, result.history, at);
      return noContent();
    });
  });

  /** The cloud's watcher routes take account ids: Data Center's username becomes the user's account id before them. */
  const addWatcher: Adapter = (cloud) => (req) => {
    if (req.body === undefined || req.body === "") return cloud(req);
    if (typeof req.body !== "string") return jiraError(400, "The request body must be the username as a JSON string.");
    const u = userByName(state(), { name: req.body });
    return u ? cloud({ ...req, body: u.accountId }) : noSuchUser(req.body);
  };
  const removeWatcher: Adapter = (cloud) => (req) => {
    const name = req.query.get("username");
    if (!name) return jiraError(400, "The username query parameter must be given.");
    const u = userByName(state(), { name });
    if (!u) return noSuchUser(name);
    const query = new URLSearchParams(req.query);
    query.delete("username");
    query.set("accountId", u.accountId);
    return cloud({ ...req, query });
  };

  return {
    "GET /rest/api/2/user": () => user,
    "GET /rest/api/2/user/search": () => search,
    "GET /rest/api/2/user/assignable/search": () => assignable,
    "PUT /rest/api/2/issue/:issueIdOrKey/assignee": () => assign,
    "POST /rest/api/2/issue/:issueIdOrKey/watchers": addWatcher,
    "DELETE /rest/api/2/issue/:issueIdOrKey/watchers": removeWatcher,
    // Data Center's comment pages come oldest first: it has no `orderBy` (a client sorts itself).
    "GET /rest/api/2/issue/:issueIdOrKey/comment": (cloud) => (req) => cloud(withoutParam(req, "orderBy")),
  };
}
