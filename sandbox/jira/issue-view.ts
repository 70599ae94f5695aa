import { canSeeIssue } from "./access";
import { adfToHtml } from "./adf";
import { attachmentsOf, presentAttachment } from "./attachments.routes";
import {
  ALL_FIELDS,
  categoryOf,
  FIELD_RANK,
  FIELD_SPRINT,
  FIELD_STORY_POINTS,
  fieldById,
  NAVIGABLE_FIELDS,
  TRANSITIONS,
  TYPE_EPIC,
  TYPE_SUBTASK,
} from "./catalog";
import type { Issue } from "./model";
import * as P from "./presenters";
import type { View } from "./presenters";
import { currentSprint } from "./store";
import { formatDuration, jiraTime } from "./util";

/** The issue representation: field selection (`fields=`), `expand=` and the Agile extras. */

const NAVIGABLE_EXTRA = [
  "progress",
  "aggregateprogress",
  "aggregatetimespent",
  "aggregatetimeoriginalestimate",
  "aggregatetimeestimate",
  "workratio",
  "lastViewed",
  "security",
];
const ISSUE_EXPAND = "renderedFields,names,schema,operations,editmeta,changelog,versionedRepresentations";
const FIELD_ALIASES: Record<string, string> = { sprint: FIELD_SPRINT, "story points": FIELD_STORY_POINTS, key: "key", id: "id" };

/** The set of field ids a `fields` list selects (`*all`, `*navigable`, names, `-name` to exclude). */
export function selectFields(list: string[], fallback: "*all" | "*navigable" | "none"): Set<string> {
  const out = new Set<string>();
  // Only exclusions (`-comment`) means "the default fields except those", as in Jira.
  const onlyExclusions = list.length > 0 && list.every((x) => x.trim().startsWith("-"));
  const items = list.length && !onlyExclusions ? list : fallback === "none" ? list : [fallback, ...list];
  for (const raw of items) {
    const item = raw.trim();
    if (item === "*all" || item === "*navigable") {
      (item === "*all" ? ALL_FIELDS : NAVIGABLE_FIELDS).forEach((f) => out.add(f));
      NAVIGABLE_EXTRA.forEach((f) => out.add(f));
    } else if (!item.startsWith("-") && item !== "*none") out.add(FIELD_ALIASES[item.toLowerCase()] ?? item);
  }
  for (const item of items) if (item.startsWith("-")) out.delete(item.slice(1));
  return out;
}

const shortIssue = (v: View, i: Issue) => ({
  id: i.id,
  key: i.key,
  self: `${v.base}/issue/${i.id}`,
  fields: {
    summary: i.summary,
    status: P.presentStatusById(v, i.statusId),
    priority: P.presentPriority(v, i.priorityId),
    issuetype: P.presentIssueTypeById(v, i.typeId),
  },
});

function timetracking(i: Issue) {
  const spent = i.worklogs.reduce((s, w) => s + w.timeSpentSeconds, 0);
  const out: Record<string, string | number> = {};
  if (i.originalEstimateSeconds !== null)
    Object.assign(out, { originalEstimate: formatDuration(i.originalEstimateSeconds), originalEstimateSeconds: i.originalEstimateSeconds });
  if (i.remainingEstimateSeconds !== null)
    Object.assign(out, {
      remainingEstimate: formatDuration(i.remainingEstimateSeconds),
      remainingEstimateSeconds: i.remainingEstimateSeconds,
    });
  if (spent > 0) Object.assign(out, { timeSpent: formatDuration(spent), timeSpentSeconds: spent });
  return { out, spent };
}

function progress(i: Issue, spent: number) {
  const total = spent + (i.remainingEstimateSeconds ?? 0);
  return total > 0 ? { progress: spent, total, percent: Math.round((spent / total) * 100) } : { progress: 0, total: 0 };
}

type Getter = (v: View, i: Issue) => unknown;

const GETTERS: Record<string, Getter> = {
  summary: (_v, i) => i.summary,
  description: (v, i) => P.body(v, i.description),
  environment: () => null,
  issuetype: (v, i) => P.presentIssueTypeById(v, i.typeId),
  project: (v, i) => P.presentProjectRef(v, v.state.projectsById.get(i.projectId)!),
  status: (v, i) => P.presentStatusById(v, i.statusId),
  statusCategory: (v, i) => P.presentStatusCategory(v, categoryOf(i.statusId).id),
  priority: (v, i) => P.presentPriority(v, i.priorityId),
  resolution: (v, i) => P.presentResolution(v, i.resolutionId),
  resolutiondate: (_v, i) => (i.resolutionDate === null ? null : jiraTime(i.resolutionDate)),
  labels: (_v, i) => i.labels,
  components: (v, i) => {
    const p = v.state.projectsById.get(i.projectId)!;
    return i.componentIds
      .map((id) => p.components.find((c) => c.id === id))
      .filter((c) => c !== undefined)
      .map((c) => P.presentComponent(v, c));
  },
  fixVersions: (v, i) => {
    const p = v.state.projectsById.get(i.projectId)!;
    return i.fixVersionIds
      .map((id) => p.versions.find((x) => x.id === id))
      .filter((x) => x !== undefined)
      .map((x) => P.presentVersion(v, x, p.id));
  },
  versions: () => [],
  assignee: (v, i) => P.userById(v, i.assigneeId),
  reporter: (v, i) => P.userById(v, i.reporterId),
  creator: (v, i) => P.userById(v, i.creatorId),
  created: (_v, i) => jiraTime(i.created),
  updated: (_v, i) => jiraTime(i.updated),
  duedate: (_v, i) => i.dueDate,
  statuscategorychangedate: (_v, i) => jiraTime(i.statusCategoryChanged),
  parent: (v, i) => {
    const p = i.parentId ? v.state.issuesById.get(i.parentId) : undefined;
    return p ? shortIssue(v, p) : undefined;
  },
  subtasks: (v, i) =>
    (v.state.children.get(i.id) ?? [])
      .map((id) => v.state.issuesById.get(id))
      .filter((c): c is Issue => c?.typeId === TYPE_SUBTASK)
      .map((c) => shortIssue(v, c)),
  issuelinks: (v, i) =>
    (v.state.linksByIssue.get(i.id) ?? []).flatMap((l) => {
      const outward = l.outwardId === i.id;
      const other = v.state.issuesById.get(outward ? l.inwardId : l.outwardId)!;
      // A link to an issue the caller may not browse is left out, as Jira does.
      if (!canSeeIssue(v, other)) return [];
      return {
        id: l.id,
        self: `${v.base}/issueLink/${l.id}`,
        type: P.presentLinkType(v, l.typeId),
        [outward ? "outwardIssue" : "inwardIssue"]: shortIssue(v, other),
      };
    }),
  comment: (v, i) => ({
    comments: i.comments.map((c) => P.presentComment(v, i.id, c)),
    self: `${v.base}/issue/${i.id}/comment`,
    maxResults: i.comments.length,
    total: i.comments.length,
    startAt: 0,
  }),
  worklog: (v, i) => ({
    startAt: 0,
    maxResults: 20,
    total: i.worklogs.length,
    worklogs: i.worklogs.slice(0, 20).map((w) => P.presentWorklog(v, i.id, w)),
  }),
  timetracking: (_v, i) => timetracking(i).out,
  timespent: (_v, i) => timetracking(i).spent || null,
  timeoriginalestimate: (_v, i) => i.originalEstimateSeconds,
  timeestimate: (_v, i) => i.remainingEstimateSeconds,
  aggregatetimespent: (_v, i) => timetracking(i).spent || null,
  aggregatetimeoriginalestimate: (_v, i) => i.originalEstimateSeconds,
  aggregatetimeestimate: (_v, i) => i.remainingEstimateSeconds,
  progress: (_v, i) => progress(i, timetracking(i).spent),
  aggregateprogress: (_v, i) => progress(i, timetracking(i).spent),
  watches: (v, i) => ({
    self: `${v.base}/issue/${i.key}/watchers`,
    watchCount: i.watcherIds.length,
    isWatching: i.watcherIds.includes(v.state.users[0]!.accountId),
  }),
  votes: (v, i) => ({ self: `${v.base}/issue/${i.key}/votes`, votes: 0, hasVoted: false }),
  attachment: (v, i) => attachmentsOf(v.state, i).map((a) => presentAttachment(v, a)),
  security: () => null,
  lastViewed: () => null,
  workratio: (_v, i) => (i.originalEstimateSeconds ? Math.round((timetracking(i).spent / i.originalEstimateSeconds) * 100) : -1),
  [FIELD_SPRINT]: (v, i) => (i.sprintIds.length ? i.sprintIds.map((id) => P.sprintField(v.state.sprintsById.get(id)!)) : null),
  [FIELD_STORY_POINTS]: (_v, i) => i.storyPoints,
  [FIELD_RANK]: (_v, i) => `0|i${Number(i.id).toString(36).padStart(5, "0")}:`,
};

export interface IssueOptions {
  fields: Set<string>;
  expand?: Set<string>;
  /** Agile 1.0 adds sprint, closedSprints, epic and flagged. */
  agile?: boolean;
}

export function presentIssue(v: View, i: Issue, opts: IssueOptions) {
  const fields: Record<string, unknown> = {};
  for (const id of opts.fields) {
    const get = GETTERS[id];
    if (!get) continue;
    const value = get(v, i);
    if (value !== undefined) fields[id] = value;
  }
  if (opts.agile) {
    const sprint = currentSprint(v.state, i);
    fields.sprint = sprint ? agileSprint(v, sprint) : null;
    const closed = i.sprintIds.map((id) => v.state.sprintsById.get(id)!).filter((s) => s.state === "closed");
    if (closed.length) fields.closedSprints = closed.map((s) => agileSprint(v, s));
    const epic = i.parentId ? v.state.issuesById.get(i.parentId) : undefined;
    fields.epic = epic?.typeId === TYPE_EPIC ? presentEpic(v, epic) : null;
    fields.flagged = false;
  }
  const out: Record<string, unknown> = {
    expand: ISSUE_EXPAND,
    id: i.id,
    self: opts.agile ? `${v.origin}/rest/agile/1.0/issue/${i.id}` : `${v.base}/issue/${i.id}`,
    key: i.key,
  };
  if (opts.fields.size > 0 || opts.agile) out.fields = fields;
  const expand = opts.expand;
  if (expand?.has("renderedFields")) {
    out.renderedFields = {
      description: adfToHtml(i.description) ?? "",
      environment: "",
      comment: {
        comments: i.comments.map((c) => ({ ...P.presentComment(v, i.id, c), body: adfToHtml(c.body) ?? "" })),
        maxResults: i.comments.length,
        total: i.comments.length,
        startAt: 0,
      },
    };
  }
  if (expand?.has("names")) out.names = Object.fromEntries(Object.keys(fields).map((id) => [id, fieldById.get(id)?.name ?? id]));
  if (expand?.has("schema"))
    out.schema = Object.fromEntries(
      Object.keys(fields).flatMap((id) => (fieldById.get(id)?.schema ? [[id, fieldById.get(id)!.schema]] : [])),
    );
  if (expand?.has("transitions")) out.transitions = availableTransitions(v, i);
  if (expand?.has("changelog"))
    out.changelog = {
      startAt: 0,
      maxResults: i.histories.length,
      total: i.histories.length,
      histories: i.histories.map((h) => presentHistory(v, h)),
    };
  return out;
}

export const presentHistory = (v: View, h: Issue["histories"][number]) => ({
  id: h.id,
  author: P.userById(v, h.authorId),
  created: jiraTime(h.created),
  items: h.items.map((it) => ({
    field: it.field,
    fieldtype: "jira",
    fieldId: it.fieldId,
    from: it.from,
    fromString: it.fromString,
    to: it.to,
    toString: it.toString,
  })),
});

export function availableTransitions(v: View, i: Issue, withFields = false) {
  return TRANSITIONS.filter((t) => t.from.includes(i.statusId)).map((t) => ({
    id: t.id,
    name: t.name,
    to: P.presentStatusById(v, t.to),
    hasScreen: false,
    isGlobal: false,
    isInitial: false,
    isAvailable: true,
    isConditional: false,
    isLooped: false,
    ...(withFields
      ? {
          fields:
            t.name === "Done"
              ? {
                  resolution: {
                    required: false,
                    schema: { type: "resolution", system: "resolution" },
                    name: "Resolution",
                    key: "resolution",
                    operations: ["set"],
                    allowedValues: ["10000", "10001", "10002"].map((id) => P.presentResolution(v, id)),
                  },
                }
              : {},
        }
      : {}),
  }));
}

export function agileSprint(v: View, s: Parameters<typeof P.sprintField>[0]) {
  const { boardId, ...rest } = P.sprintField(s);
  return { ...rest, self: `${v.origin}/rest/agile/1.0/sprint/${s.id}`, originBoardId: boardId, createdDate: P.jiraIso(s.createdDate) };
}

export function presentEpic(v: View, epic: Issue) {
  return {
    id: Number(epic.id),
    key: epic.key,
    self: `${v.origin}/rest/agile/1.0/epic/${epic.id}`,
    name: epic.summary,
    summary: epic.summary,
    color: { key: `color_${(Number(epic.id) % 14) + 1}` },
    done: categoryOf(epic.statusId).key === "done",
  };
}
