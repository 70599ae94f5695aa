import { canSeeIssue } from "./access";
import { isAdfDoc, wikiToAdf } from "./adf";
import { FIELD_EPIC_LINK, FIELD_SPRINT, FIELD_STORY_POINTS, ISSUE_TYPES, PRIORITIES, TYPE_EPIC, TYPE_SUBTASK } from "./catalog";
import { userByName } from "./dc-users";
import type { HistoryItem, Issue, JiraState, Project, RichText } from "./model";
import type { View } from "./presenters";
import { addChild, findIssue, removeChild } from "./store";
import { isRecord, parseDuration } from "./util";

/** Validation and application of `fields` and `update` on create and edit, with Jira's messages. */

export type FieldErrors = Record<string, string>;
const NOT_SETTABLE = (f: string) => `Field '${f}' cannot be set. It is not on the appropriate screen, or unknown.`;
const NOT_ADF = "Operation value must be an Atlassian Document (see the Atlassian Document Format)";

/**
 * A rich-text input in the view's format: ADF for v3, a wiki string for v2 (read into ADF, as the
 * cloud stores it; kept as written on Data Center, which stores wiki markup).
 */
export function readBody(v: View, value: unknown): RichText | null | undefined {
  if (value === null) return null;
  if (v.version === 3) return isAdfDoc(value) ? value : undefined;
  if (typeof value !== "string") return undefined;
  return value.trim() ? (v.dataCenter ? value : wikiToAdf(value)) : null;
}

const refOf = (x: unknown): { id?: string; name?: string; key?: string; accountId?: string } =>
  isRecord(x)
    ? {
        id: x.id === undefined ? undefined : String(x.id),
        name: typeof x.name === "string" ? x.name : undefined,
        key: typeof x.key === "string" ? x.key : undefined,
        accountId: typeof x.accountId === "string" ? x.accountId : undefined,
      }
    : {};

interface Apply {
  issue: Issue;
  project: Project;
  state: JiraState;
  view: View;
  errors: FieldErrors;
  history: HistoryItem[];
}

function change(
  a: Apply,
  field: string,
  from: string | null,
  fromString: string | null,
  to: string | null,
  toString: string | null,
  fieldId = field,
): void {
  if (from === to && fromString === toString) return;
  a.history.push({ field, fieldId, from, fromString, to, toString });
}

/**
 * A new parent (or none), recorded as Jira Cloud records it whichever field set it (`parent` or
 * Epic Link) and in either direction: one IssueParentAssociation item from the old parent to the new.
 */
function moveToParent(a: Apply, parent: Issue | null): void {
  const old = a.issue.parentId ? a.state.issuesById.get(a.issue.parentId) : undefined;
  change(a, "IssueParentAssociation", old?.id ?? null, old?.key ?? null, parent?.id ?? null, parent?.key ?? null, "parent");
  a.issue.parentId = parent?.id ?? null;
}

function refList<T extends { id: string; name: string }>(a: Apply, field: string, value: unknown, options: T[]): string[] | null {
  if (!Array.isArray(value)) {
    a.errors[field] = `data was not an array`;
    return null;
  }
  const ids: string[] = [];
  for (const item of value) {
    const r = refOf(item);
    const hit = options.find((o) => o.id === r.id || o.name === r.name);
    if (!hit) {
      a.errors[field] =
        field === "components"
          ? `Component name '${r.name ?? r.id ?? ""}' is not valid`
          : `Version name '${r.name ?? r.id ?? ""}' is not valid`;
      return null;
    }
    if (!ids.includes(hit.id)) ids.push(hit.id);
  }
  return ids;
}

type Setter = (a: Apply, value: unknown) => void;

/** An issue the writer may browse (any other is, to them, not found). */
const visibleIssue = (a: Apply, idOrKey: string): Issue | undefined => {
  const issue = findIssue(a.state, idOrKey);
  return issue && canSeeIssue(a.view, issue) ? issue : undefined;
};

const SETTERS: Record<string, Setter> = {
  summary: (a, value) => {
    if (typeof value !== "string" || !value.trim()) a.errors.summary = "You must specify a summary of the issue.";
    else if (value.length > 255) a.errors.summary = "Summary must be less than 255 characters.";
    else {
      change(a, "summary", null, a.issue.summary, null, value);
      a.issue.summary = value;
    }
  },
  description: (a, value) => {
    const d = readBody(a.view, value);
    if (d === undefined) a.errors.description = a.view.version === 3 ? NOT_ADF : "Operation value must be a string";
    else {
      change(a, "description", null, "", null, "");
      a.issue.description = d;
    }
  },
  priority: (a, value) => {
    const r = refOf(value);
    const p = PRIORITIES.find((x) => x.id === r.id || x.name === r.name);
    if (!p) a.errors.priority = "Specify a valid priority";
    else {
      change(a, "priority", a.issue.priorityId, PRIORITIES.find((x) => x.id === a.issue.priorityId)?.name ?? null, p.id, p.name);
      a.issue.priorityId = p.id;
    }
  },
  assignee: (a, value) => setUser(a, "assignee", value),
  reporter: (a, value) => setUser(a, "reporter", value),
  labels: (a, value) => {
    if (!Array.isArray(value) || value.some((l) => typeof l !== "string")) a.errors.labels = "data was not an array";
    else if (value.some((l: string) => /\s/.test(l)))
      a.errors.labels = `The label '${(value as string[]).find((l) => /\s/.test(l)) ?? ""}' contains spaces which is invalid.`;
    else {
      const next = [...new Set(value as string[])];
      change(a, "labels", null, a.issue.labels.join(" "), null, next.join(" "));
      a.issue.labels = next;
    }
  },
  components: (a, value) => {
    const ids = refList(a, "components", value, a.project.components);
    if (ids) a.issue.componentIds = ids;
  },
  fixVersions: (a, value) => {
    const ids = refList(a, "fixVersions", value, a.project.versions);
    if (ids) a.issue.fixVersionIds = ids;
  },
  duedate: (a, value) => {
    if (value !== null && (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(value)))
      a.errors.duedate = "Error parsing date string: " + String(value);
    else a.issue.dueDate = value;
  },
  parent: (a, value) => {
    const r = refOf(value);
    setParent(a, "parent", r.key || r.id ? visibleIssue(a, (r.key ?? r.id)!) : undefined);
  },
  // An epic's key: the issue's parent epic, as `parent` sets it (null leaves it without one).
  [FIELD_EPIC_LINK]: (a, value) => {
    if (value === null) {
      const parent = a.issue.parentId ? a.state.issuesById.get(a.issue.parentId) : undefined;
      if (parent?.typeId !== TYPE_EPIC) return;
      return moveToParent(a, null);
    }
    const epic = typeof value === "string" ? visibleIssue(a, value) : undefined;
    if (epic && epic.typeId !== TYPE_EPIC) return void (a.errors[FIELD_EPIC_LINK] = `The issue ${epic.key} is not an epic.`);
    setParent(a, FIELD_EPIC_LINK, epic);
  },
  [FIELD_STORY_POINTS]: (a, value) => {
    if (value !== null && typeof value !== "number") a.errors[FIELD_STORY_POINTS] = "Operation value must be a number";
    else a.issue.storyPoints = value;
  },
  [FIELD_SPRINT]: (a, value) => {
    const id = typeof value === "number" ? value : isRecord(value) ? Number(value.id) : NaN;
    const sprint = a.state.sprintsById.get(id);
    if (value === null) a.issue.sprintIds = a.issue.sprintIds.filter((s) => a.state.sprintsById.get(s)?.state === "closed");
    else if (!sprint || sprint.state === "closed")
      a.errors[FIELD_SPRINT] = "Sprint with id " + String(value) + " does not exist or is closed.";
    else a.issue.sprintIds = [...a.issue.sprintIds.filter((s) => a.state.sprintsById.get(s)?.state === "closed"), sprint.id];
  },
  timetracking: (a, value) => {
    if (!isRecord(value)) return void (a.errors.timetracking = "Invalid time tracking input.");
    for (const [key, target] of [
      ["originalEstimate", "originalEstimateSeconds"],
      ["remainingEstimate", "remainingEstimateSeconds"],
    ] as const) {
      if (value[key] === undefined) continue;
      const seconds = typeof value[key] === "string" ? parseDuration(value[key]) : null;
      if (seconds === null) a.errors.timetracking = "Please specify valid time tracking values.";
      else a.issue[target] = seconds;
    }
    // As in Jira, a first original estimate also sets the remaining estimate.
    if (value.remainingEstimate === undefined && a.issue.remainingEstimateSeconds === null)
      a.issue.remainingEstimateSeconds = a.issue.originalEstimateSeconds;
  },
};

/** A parent (by `parent`, or an epic by Epic Link) within Jira's hierarchy: a sub-task under a standard issue, a standard issue under an epic. */
function setParent(a: Apply, field: string, parent: Issue | undefined): void {
  if (!parent || parent.id === a.issue.id) return void (a.errors[field] = "Could not find issue by id or key.");
  const isSub = a.issue.typeId === TYPE_SUBTASK;
  if (
    (isSub && (parent.typeId === TYPE_SUBTASK || parent.typeId === TYPE_EPIC)) ||
    (!isSub && parent.typeId !== TYPE_EPIC) ||
    a.issue.typeId === TYPE_EPIC
  ) {
    return void (a.errors[field] = "Given parent work item does not belong to appropriate hierarchy.");
  }
  moveToParent(a, parent);
}

function setUser(a: Apply, field: "assignee" | "reporter", value: unknown): void {
  if (value === null && field === "assignee") {
    change(a, field, a.issue.assigneeId, null, null, null);
    a.issue.assigneeId = null;
    return;
  }
  const r = refOf(value);
  // Data Center names a user by username or key (`{"name": "fred"}`), the cloud by account id.
  if (a.view.dataCenter) {
    const user = userByName(a.state, r);
    if (!user) return void (a.errors[field] = `User '${r.name ?? r.key ?? ""}' does not exist.`);
    return assignUser(a, field, user);
  }
  const user = r.accountId ? a.state.usersById.get(r.accountId) : undefined;
  if (!user) {
    a.errors[field] = r.accountId
      ? "Specified user does not exist or you do not have required permissions"
      : `Specify a user by accountId for field '${field}'.`;
    return;
  }
  assignUser(a, field, user);
}

function assignUser(a: Apply, field: "assignee" | "reporter", user: { accountId: string; displayName: string }): void {
  const key = field === "assignee" ? "assigneeId" : "reporterId";
  change(a, field, a.issue[key], null, user.accountId, user.displayName);
  a.issue[key] = user.accountId;
}

/** Array ops of `update`: the field's current value in request form, then add/remove/set applied. */
function currentRequestValue(a: Apply, field: string): unknown[] {
  if (field === "labels") return [...a.issue.labels];
  if (field === "components") return a.issue.componentIds.map((id) => ({ id }));
  if (field === "fixVersions") return a.issue.fixVersionIds.map((id) => ({ id }));
  return [];
}

function sameItem(a: Apply, field: string, x: unknown, y: unknown): boolean {
  if (typeof x === "string" || typeof y === "string") return x === y;
  const rx = refOf(x);
  const ry = refOf(y);
  const options: { id: string; name: string }[] = field === "components" ? a.project.components : a.project.versions;
  const idOf = (r: ReturnType<typeof refOf>) => r.id ?? options.find((o) => o.name === r.name)?.id;
  return idOf(rx) !== undefined && idOf(rx) === idOf(ry);
}

export interface WriteResult {
  errors: FieldErrors;
  history: HistoryItem[];
  /** Comment bodies added through `update.comment`. */
  comments: RichText[];
}

/**
 * Applies `fields` and `update` to an issue. Setters work on a shallow draft (they replace arrays,
 * never mutate them), which is committed only when there are no errors.
 */
export function applyWrite(
  state: JiraState,
  view: View,
  issue: Issue,
  fields: Record<string, unknown>,
  update: Record<string, unknown>,
  creating: boolean,
): WriteResult {
  const project = state.projectsById.get(issue.projectId)!;
  const draft: Issue = { ...issue };
  const a: Apply = { issue: draft, project, state, view, errors: {}, history: [] };
  const comments: RichText[] = [];
  for (const [field, value] of Object.entries(fields)) {
    if (creating && (field === "project" || field === "issuetype")) continue;
    const setter = SETTERS[field];
    if (!setter) a.errors[field] = NOT_SETTABLE(field);
    else setter(a, value);
  }
  for (const [field, ops] of Object.entries(update)) {
    if (!Array.isArray(ops)) {
      a.errors[field] = "Operation value must be an array of operations.";
      continue;
    }
    if (field === "comment") {
      for (const op of ops) {
        const b = isRecord(op) && isRecord(op.add) ? readBody(view, op.add.body) : undefined;
        if (!b) a.errors.comment = "Comment body can not be empty!";
        else comments.push(b);
      }
      continue;
    }
    const setter = SETTERS[field];
    if (!setter) {
      a.errors[field] = NOT_SETTABLE(field);
      continue;
    }
    let value: unknown = undefined;
    let list: unknown[] | null = null;
    for (const op of ops) {
      if (!isRecord(op)) continue;
      if ("set" in op) value = op.set;
      else if ("edit" in op) value = op.edit;
      else if ("add" in op || "remove" in op) {
        list ??= currentRequestValue(a, field);
        if ("add" in op && !list.some((x) => sameItem(a, field, x, op.add))) list.push(op.add);
        if ("remove" in op) list = list.filter((x) => !sameItem(a, field, x, op.remove));
        value = list;
      }
    }
    if (value !== undefined) setter(a, value);
  }
  if (Object.keys(a.errors).length === 0) {
    if (!creating && draft.parentId !== issue.parentId) {
      if (issue.parentId) removeChild(state, issue.parentId, issue.id);
      if (draft.parentId) addChild(state, draft.parentId, issue.id);
    }
    Object.assign(issue, draft);
  }
  return { errors: a.errors, history: a.history, comments };
}

export const issueTypeByRef = (x: unknown) => {
  const r = refOf(x);
  return ISSUE_TYPES.find((t) => t.id === r.id || t.name.toLowerCase() === r.name?.toLowerCase());
};
export { refOf };
