import { jiraError } from "../core/errors";
import { json, type Router } from "../core/http";
import {
  FIELD_SPRINT,
  FIELD_STORY_POINTS,
  fieldById,
  FIELDS,
  ISSUE_TYPES,
  LINK_TYPES,
  PRIORITIES,
  RESOLUTIONS,
  STATUS_CATEGORIES,
  STATUSES,
  TYPE_EPIC,
  TYPE_SUBTASK,
  type IssueTypeDef,
} from "./catalog";
import { canSeeProject, visibleProjects } from "./access";
import { both, bodyObject, me, withIssue } from "./kit";
import type { JiraState, Project, User } from "./model";
import * as P from "./presenters";
import { findProject } from "./store";
import { clock, jiraTime, listParam, page } from "./util";

/** Who-am-I, server info, projects, users and the field/priority/status/type catalogues. */
export function metaRoutes(router: Router, state: () => JiraState): void {
  both(router, state, "get", "/myself", (_req, v) => {
    const u = v.state.usersById.get(me(v))!;
    return json({
      ...P.presentUser(v, u),
      locale: "en_US",
      groups: { size: 3, items: [] },
      applicationRoles: { size: 1, items: [] },
      expand: "groups,applicationRoles",
    });
  });

  both(router, state, "get", "/serverInfo", (req, v) =>
    json({
      baseUrl: req.origin,
      displayUrl: req.origin,
      version: "1001.0.0-SNAPSHOT",
      versionNumbers: [1001, 0, 0],
      deploymentType: "Cloud",
      buildNumber: 100_280,
      buildDate: "2026-01-05T00:00:00.000+0000",
      serverTime: jiraTime(clock(v.state)),
      scmInfo: "0e2c9a8d5f1b3c4a7e6d5c4b3a2f1e0d9c8b7a6f",
      serverTitle: "Bridgekeeper Sandbox",
      defaultLocale: { locale: "en_US" },
      serverTimeZone: "Etc/UTC",
    }),
  );

  both(router, state, "get", "/project", (_req, v) => json(visibleProjects(v, v.state.projects).map((p) => P.presentProject(v, p))));

  /** A project by id or key, if the caller may browse it. */
  const browsable = (v: P.View, ref: string) => {
    const p = findProject(v.state, ref);
    return p && canSeeProject(v, p) ? p : undefined;
  };

  both(router, state, "get", "/project/search", (req, v) => {
    const query = (req.query.get("query") ?? "").toLowerCase();
    const keys = new Set(listParam(req.query, "keys").map((k) => k.toUpperCase()));
    let items = visibleProjects(v, v.state.projects).filter(
      (p) =>
        (!query || p.key.toLowerCase().includes(query) || p.name.toLowerCase().includes(query)) && (keys.size === 0 || keys.has(p.key)),
    );
    const orderBy = req.query.get("orderBy") ?? "key";
    const desc = orderBy.startsWith("-");
    const by = orderBy.replace(/^[+-]/, "");
    items = [...items].sort((a, b) => (by === "name" ? a.name.localeCompare(b.name) : a.key.localeCompare(b.key)) * (desc ? -1 : 1));
    const out = page(items, req.query, (p) => P.presentProject(v, p), { defaultMax: 50, max: 100 });
    const next = (out.startAt as number) + (out.values as unknown[]).length;
    return json({
      self: `${v.base}/project/search?${req.query.toString()}`,
      ...(out.isLast ? {} : { nextPage: `${v.base}/project/search?startAt=${next}&maxResults=${out.maxResults as number}` }),
      ...out,
    });
  });

  const projectRoute = (suffix: string, fn: (p: NonNullable<ReturnType<typeof findProject>>, v: P.View) => unknown) =>
    both(router, state, "get", `/project/:projectIdOrKey${suffix}`, (req, v) => {
      const p = browsable(v, req.params.projectIdOrKey ?? "");
      if (!p) return jiraError(404, `No project could be found with key '${req.params.projectIdOrKey ?? ""}'.`);
      return json(fn(p, v));
    });
  projectRoute("", (p, v) => P.presentProject(v, p, true));
  projectRoute("/components", (p, v) => p.components.map((c) => P.presentComponent(v, c)));
  projectRoute("/versions", (p, v) => p.versions.map((x) => P.presentVersion(v, x, p.id)));
  projectRoute("/statuses", (_p, v) =>
    ISSUE_TYPES.map((t) => ({ ...P.presentIssueType(v, t), statuses: STATUSES.map((s) => P.presentStatus(v, s)) })),
  );

  both(router, state, "get", "/field", () =>
    json(
      FIELDS.map((f) => ({
        id: f.id,
        key: f.id,
        name: f.name,
        custom: f.custom,
        orderable: f.orderable,
        navigable: f.navigable,
        searchable: f.searchable,
        clauseNames: f.clauseNames,
        ...(f.schema ? { schema: f.schema } : {}),
        ...(f.custom ? { untranslatedName: f.name } : {}),
      })),
    ),
  );
  both(router, state, "get", "/priority", (_req, v) => json(PRIORITIES.map((p) => P.presentPriority(v, p.id, true))));
  both(router, state, "get", "/priority/:id", (req, v) =>
    PRIORITIES.some((p) => p.id === req.params.id)
      ? json(P.presentPriority(v, req.params.id!, true))
      : jiraError(404, `The priority with ID '${req.params.id ?? ""}' does not exist.`),
  );
  both(router, state, "get", "/status", (_req, v) => json(STATUSES.map((s) => P.presentStatus(v, s))));
  both(router, state, "get", "/statuscategory", (_req, v) => json(STATUS_CATEGORIES.map((c) => P.presentStatusCategory(v, c.id))));
  both(router, state, "get", "/issuetype", (_req, v) => json(ISSUE_TYPES.map((t) => P.presentIssueType(v, t))));
  both(router, state, "get", "/resolution", (_req, v) => json(RESOLUTIONS.map((r) => P.presentResolution(v, r.id))));
  both(router, state, "get", "/issueLinkType", (_req, v) => json({ issueLinkTypes: LINK_TYPES.map((t) => P.presentLinkType(v, t.id)) }));

  const matches = (u: User, q: string) =>
    !q || u.displayName.toLowerCase().includes(q) || u.emailAddress.toLowerCase().startsWith(q) || u.accountId === q;
  both(router, state, "get", "/user", (req, v) => {
    const u = v.state.usersById.get(req.query.get("accountId") ?? "");
    return u ? json(P.presentUser(v, u)) : jiraError(404, `Specified user does not exist or you do not have required permissions`);
  });
  const userSearch = (assignable: boolean) => (req: Parameters<Parameters<typeof both>[4]>[0], v: P.View) => {
    const q = (req.query.get("query") ?? req.query.get("username") ?? "").toLowerCase();
    const accountId = req.query.get("accountId");
    if (!assignable && !q && !accountId) return jiraError(400, "The query parameter 'query' or 'accountId' is required.");
    const startAt = Number(req.query.get("startAt") ?? 0) || 0;
    const max = Math.min(1000, Number(req.query.get("maxResults") ?? 50) || 50);
    const users = v.state.users.filter((u) => (accountId ? u.accountId === accountId : matches(u, q)));
    return json(users.slice(startAt, startAt + max).map((u) => P.presentUser(v, u)));
  };
  both(router, state, "get", "/user/search", userSearch(false));
  both(router, state, "get", "/user/assignable/search", userSearch(true));

  both(router, state, "get", "/issue/createmeta/:projectIdOrKey/issuetypes", (req, v) => {
    const p = browsable(v, req.params.projectIdOrKey ?? "");
    if (!p) return jiraError(404, `No project could be found with key '${req.params.projectIdOrKey ?? ""}'.`);
    const out = page(ISSUE_TYPES, req.query, (t) => P.presentIssueType(v, t), {
      defaultMax: 50,
      max: 200,
      name: "issueTypes",
      isLast: false,
    });
    return json(out);
  });
  both(router, state, "get", "/issue/createmeta/:projectIdOrKey/issuetypes/:issueTypeId", (req, v) => {
    const p = browsable(v, req.params.projectIdOrKey ?? "");
    const t = ISSUE_TYPES.find((x) => x.id === req.params.issueTypeId);
    if (!p || !t)
      return jiraError(
        404,
        p ? "The issue type is not valid for this project." : `No project could be found with key '${req.params.projectIdOrKey ?? ""}'.`,
      );
    const fields = fieldMetas(v, p, t).map((f) => ({ ...f, fieldId: f.key }));
    return json({ ...page(fields, req.query, (x) => x, { defaultMax: 50, max: 200, name: "fields", isLast: false }) });
  });

  /** The fields an issue's edit screen has, keyed by id (no project: an issue does not move that way). */
  both(router, state, "get", "/issue/:issueIdOrKey/editmeta", (req, v) =>
    withIssue(req, v, (issue) => {
      const p = v.state.projectsById.get(issue.projectId)!;
      const t = ISSUE_TYPES.find((x) => x.id === issue.typeId)!;
      const fields = fieldMetas(v, p, t, true).filter((f) => f.key !== "project");
      return json({
        fields: Object.fromEntries(
          fields.map((f) => {
            const { hasDefaultValue: _has, defaultValue: _value, ...meta } = f as Record<string, unknown>;
            return [f.key, meta];
          }),
        ),
      });
    }),
  );

  both(router, state, "post", "/version", (req, v) => {
    const b = bodyObject(req);
    const ref = b.projectId !== undefined ? String(b.projectId) : typeof b.project === "string" ? b.project : "";
    const p = ref ? browsable(v, ref) : undefined;
    const errors: Record<string, string> = {};
    if (!p) errors.project = ref ? `Project with key or id '${ref}' does not exist.` : "Project must be specified to create a version.";
    const name = typeof b.name === "string" ? b.name.trim() : "";
    if (!name) errors.name = "You must specify a valid version name";
    else if (name.length > 255) errors.name = "The version name must not exceed 255 characters.";
    else if (p?.versions.some((x) => x.name.toLowerCase() === name.toLowerCase()))
      errors.name = "A version with this name already exists in this project.";
    for (const key of ["releaseDate", "startDate"] as const) {
      const d = b[key];
      if (d !== undefined && d !== null && (typeof d !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(d) || Number.isNaN(Date.parse(d))))
        errors[key] = `The ${key === "releaseDate" ? "release" : "start"} date is invalid. Use the format yyyy-MM-dd.`;
    }
    if (b.description !== undefined && typeof b.description !== "string") errors.description = "The description must be a string.";
    if (Object.keys(errors).length || !p) return jiraError(400, "", errors);
    const id = String(Math.max(10_000, ...v.state.projects.flatMap((x) => x.versions.map((ver) => Number(ver.id)))) + 1);
    const version = {
      id,
      name,
      description: typeof b.description === "string" ? b.description : "",
      released: b.released === true,
      ...(typeof b.releaseDate === "string" ? { releaseDate: b.releaseDate } : {}),
    };
    p.versions.push(version);
    return json(P.presentVersion(v, version, p.id), 201);
  });
}

/** The fields of the create (and edit) screen of a project's issue type, with Jira's metadata. */
function fieldMetas(v: P.View, p: Project, t: IssueTypeDef, edit = false) {
  const field = (key: string, name: string, required: boolean, schema: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    required,
    schema,
    name,
    key,
    hasDefaultValue: false as boolean,
    operations: ["set"],
    ...extra,
  });
  const standard = !t.subtask && t.id !== TYPE_EPIC;
  return [
    field("summary", "Summary", true, { type: "string", system: "summary" }),
    field(
      "issuetype",
      "Issue Type",
      true,
      { type: "issuetype", system: "issuetype" },
      { allowedValues: (edit ? ISSUE_TYPES.filter((x) => x.subtask === t.subtask) : [t]).map((x) => P.presentIssueType(v, x)) },
    ),
    field("project", "Project", true, { type: "project", system: "project" }, { allowedValues: [P.presentProjectRef(v, p)] }),
    field("description", "Description", false, { type: "string", system: "description" }),
    field(
      "priority",
      "Priority",
      false,
      { type: "priority", system: "priority" },
      { allowedValues: PRIORITIES.map((x) => P.presentPriority(v, x.id)), hasDefaultValue: true, defaultValue: P.presentPriority(v, "3") },
    ),
    field(
      "labels",
      "Labels",
      false,
      { type: "array", items: "string", system: "labels" },
      { operations: ["add", "set", "remove"], autoCompleteUrl: `${v.base}/label/suggest?query=` },
    ),
    field(
      "components",
      "Components",
      false,
      { type: "array", items: "component", system: "components" },
      { allowedValues: p.components.map((c) => P.presentComponent(v, c)), operations: ["add", "set", "remove"] },
    ),
    field(
      "fixVersions",
      "Fix versions",
      false,
      { type: "array", items: "version", system: "fixVersions" },
      { allowedValues: p.versions.map((x) => P.presentVersion(v, x, p.id)), operations: ["set", "add", "remove"] },
    ),
    field(
      "assignee",
      "Assignee",
      false,
      { type: "user", system: "assignee" },
      { autoCompleteUrl: `${v.base}/user/assignable/search?project=${p.key}&query=` },
    ),
    field("reporter", "Reporter", false, { type: "user", system: "reporter" }),
    field("duedate", "Due date", false, { type: "date", system: "duedate" }),
    field("parent", "Parent", t.id === TYPE_SUBTASK, { type: "issuelink", system: "parent" }),
    ...(standard
      ? [
          field(FIELD_STORY_POINTS, "Story point estimate", false, fieldById.get(FIELD_STORY_POINTS)!.schema!),
          field(FIELD_SPRINT, "Sprint", false, fieldById.get(FIELD_SPRINT)!.schema!),
        ]
      : []),
    ...(edit
      ? [field("comment", "Comment", false, { type: "comments-page", system: "comment" }, { operations: ["add", "edit", "remove"] })]
      : []),
  ];
}
