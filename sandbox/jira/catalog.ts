/** Jira's fixed catalogues: status categories, workflow, priorities, issue types, link types, fields. */

export interface StatusCategory {
  id: number;
  key: "new" | "indeterminate" | "done";
  colorName: string;
  name: string;
}

export const STATUS_CATEGORIES: StatusCategory[] = [
  { id: 2, key: "new", colorName: "blue-gray", name: "To Do" },
  { id: 4, key: "indeterminate", colorName: "yellow", name: "In Progress" },
  { id: 3, key: "done", colorName: "green", name: "Done" },
];

export interface StatusDef {
  id: string;
  name: string;
  description: string;
  categoryId: number;
}

export const STATUSES: StatusDef[] = [
  { id: "10000", name: "To Do", description: "Work that has not been started.", categoryId: 2 },
  { id: "3", name: "In Progress", description: "This work item is being actively worked on at the moment by the assignee.", categoryId: 4 },
  { id: "10001", name: "In Review", description: "Work that is waiting for a review.", categoryId: 4 },
  { id: "10002", name: "Done", description: "Work that is complete.", categoryId: 3 },
];
export const STATUS_TODO = "10000";
export const STATUS_IN_PROGRESS = "3";
export const STATUS_IN_REVIEW = "10001";
export const STATUS_DONE = "10002";

export const statusById = new Map(STATUSES.map((s) => [s.id, s]));
export const categoryById = new Map(STATUS_CATEGORIES.map((c) => [c.id, c]));
export const categoryOf = (statusId: string): StatusCategory => categoryById.get(statusById.get(statusId)?.categoryId ?? 2)!;

export interface TransitionDef {
  id: string;
  name: string;
  to: string;
  from: string[];
}

/** The project workflow: which transitions are available from which status. */
export const TRANSITIONS: TransitionDef[] = [
  { id: "11", name: "To Do", to: STATUS_TODO, from: [STATUS_IN_PROGRESS, STATUS_IN_REVIEW, STATUS_DONE] },
  { id: "21", name: "In Progress", to: STATUS_IN_PROGRESS, from: [STATUS_TODO, STATUS_IN_REVIEW] },
  { id: "31", name: "In Review", to: STATUS_IN_REVIEW, from: [STATUS_IN_PROGRESS] },
  { id: "41", name: "Done", to: STATUS_DONE, from: [STATUS_IN_PROGRESS, STATUS_IN_REVIEW] },
];

export interface PriorityDef {
  id: string;
  name: string;
  color: string;
  icon: string;
  description: string;
}

export const PRIORITIES: PriorityDef[] = [
  { id: "1", name: "Highest", color: "#d04437", icon: "highest", description: "This problem will block progress." },
  { id: "2", name: "High", color: "#f15C75", icon: "high", description: "Serious problem that could block progress." },
  { id: "3", name: "Medium", color: "#f79232", icon: "medium", description: "Has the potential to affect progress." },
  { id: "4", name: "Low", color: "#707070", icon: "low", description: "Minor problem or easily worked around." },
  { id: "5", name: "Lowest", color: "#999999", icon: "lowest", description: "Trivial problem with little or no impact on progress." },
];
export const priorityById = new Map(PRIORITIES.map((p) => [p.id, p]));

export const RESOLUTIONS = [
  { id: "10000", name: "Done", description: "Work has been completed on this issue." },
  { id: "10001", name: "Won't Do", description: "This issue won't be actioned." },
  { id: "10002", name: "Duplicate", description: "The problem is a duplicate of an existing issue." },
];
export const resolutionById = new Map(RESOLUTIONS.map((r) => [r.id, r]));

export interface IssueTypeDef {
  id: string;
  name: string;
  description: string;
  subtask: boolean;
  hierarchyLevel: number;
  avatarId: number;
}

export const ISSUE_TYPES: IssueTypeDef[] = [
  {
    id: "10000",
    name: "Epic",
    description: "A big user story that needs to be broken down.",
    subtask: false,
    hierarchyLevel: 1,
    avatarId: 10307,
  },
  {
    id: "10001",
    name: "Story",
    description: "Functionality or a feature expressed as a user goal.",
    subtask: false,
    hierarchyLevel: 0,
    avatarId: 10315,
  },
  { id: "10002", name: "Task", description: "A small, distinct piece of work.", subtask: false, hierarchyLevel: 0, avatarId: 10318 },
  { id: "10003", name: "Bug", description: "A problem or error.", subtask: false, hierarchyLevel: 0, avatarId: 10303 },
  {
    id: "10004",
    name: "Subtask",
    description: "A small piece of work that's part of a larger task.",
    subtask: true,
    hierarchyLevel: -1,
    avatarId: 10316,
  },
];
export const TYPE_EPIC = "10000";
export const TYPE_STORY = "10001";
export const TYPE_TASK = "10002";
export const TYPE_BUG = "10003";
export const TYPE_SUBTASK = "10004";
export const issueTypeById = new Map(ISSUE_TYPES.map((t) => [t.id, t]));

export const LINK_TYPES = [
  { id: "10000", name: "Blocks", inward: "is blocked by", outward: "blocks" },
  { id: "10001", name: "Cloners", inward: "is cloned by", outward: "clones" },
  { id: "10002", name: "Duplicate", inward: "is duplicated by", outward: "duplicates" },
  { id: "10003", name: "Relates", inward: "relates to", outward: "relates to" },
];
export const linkTypeById = new Map(LINK_TYPES.map((t) => [t.id, t]));

export const FIELD_SPRINT = "customfield_10020";
export const FIELD_STORY_POINTS = "customfield_10016";
export const FIELD_RANK = "customfield_10019";
/** Jira Software's Epic Link (company-managed projects): an epic's key, which sets the issue's parent epic. */
export const FIELD_EPIC_LINK = "customfield_10014";

export interface FieldDef {
  id: string;
  name: string;
  custom: boolean;
  navigable: boolean;
  orderable: boolean;
  searchable: boolean;
  clauseNames: string[];
  schema?: Record<string, unknown>;
}

const f = (id: string, name: string, schema: Record<string, unknown> | undefined, clauseNames: string[], navigable = true): FieldDef => ({
  id,
  name,
  custom: id.startsWith("customfield_"),
  navigable,
  orderable: navigable,
  searchable: clauseNames.length > 0,
  clauseNames,
  schema,
});

/** The fields of GET /field, and which ones `*navigable` selects. */
export const FIELDS: FieldDef[] = [
  f("summary", "Summary", { type: "string", system: "summary" }, ["summary"]),
  f("description", "Description", { type: "string", system: "description" }, ["description"]),
  f("issuetype", "Issue Type", { type: "issuetype", system: "issuetype" }, ["issuetype", "type"]),
  f("project", "Project", { type: "project", system: "project" }, ["project"]),
  f("status", "Status", { type: "status", system: "status" }, ["status"]),
  f("statusCategory", "Status Category", undefined, ["statusCategory"]),
  f("priority", "Priority", { type: "priority", system: "priority" }, ["priority"]),
  f("resolution", "Resolution", { type: "resolution", system: "resolution" }, ["resolution"]),
  f("resolutiondate", "Resolved", { type: "datetime", system: "resolutiondate" }, ["resolutiondate", "resolved"]),
  f("labels", "Labels", { type: "array", items: "string", system: "labels" }, ["labels"]),
  f("components", "Components", { type: "array", items: "component", system: "components" }, ["component"]),
  f("fixVersions", "Fix versions", { type: "array", items: "version", system: "fixVersions" }, ["fixVersion"]),
  f("versions", "Affects versions", { type: "array", items: "version", system: "versions" }, ["affectedVersion"]),
  f("assignee", "Assignee", { type: "user", system: "assignee" }, ["assignee"]),
  f("reporter", "Reporter", { type: "user", system: "reporter" }, ["reporter"]),
  f("creator", "Creator", { type: "user", system: "creator" }, ["creator"]),
  f("created", "Created", { type: "datetime", system: "created" }, ["created", "createdDate"]),
  f("updated", "Updated", { type: "datetime", system: "updated" }, ["updated", "updatedDate"]),
  f("duedate", "Due date", { type: "date", system: "duedate" }, ["due", "duedate"]),
  f("statuscategorychangedate", "Status Category Changed", { type: "datetime", system: "statuscategorychangedate" }, [
    "statusCategoryChangedDate",
  ]),
  f("parent", "Parent", undefined, ["parent"]),
  f("subtasks", "Sub-tasks", { type: "array", items: "issuelinks", system: "subtasks" }, ["subtasks"]),
  f("issuelinks", "Linked Issues", { type: "array", items: "issuelinks", system: "issuelinks" }, ["issueLink"]),
  f("comment", "Comment", { type: "comments-page", system: "comment" }, ["comment"], false),
  f("worklog", "Log Work", { type: "array", items: "worklog", system: "worklog" }, ["worklogComment", "worklogDate"], false),
  f("timetracking", "Time tracking", { type: "timetracking", system: "timetracking" }, [], false),
  f("timespent", "Time Spent", { type: "number", system: "timespent" }, ["timespent"]),
  f("timeoriginalestimate", "Original estimate", { type: "number", system: "timeoriginalestimate" }, ["originalEstimate"]),
  f("timeestimate", "Remaining Estimate", { type: "number", system: "timeestimate" }, ["remainingEstimate"]),
  f("watches", "Watchers", { type: "watches", system: "watches" }, ["watchers"]),
  f("votes", "Votes", { type: "votes", system: "votes" }, ["votes"]),
  f("attachment", "Attachment", { type: "array", items: "attachment", system: "attachment" }, ["attachments"], false),
  f("environment", "Environment", { type: "string", system: "environment" }, ["environment"]),
  f(FIELD_SPRINT, "Sprint", { type: "array", items: "json", custom: "com.pyxis.greenhopper.jira:gh-sprint", customId: 10020 }, [
    "cf[10020]",
    "sprint",
  ]),
  f(
    FIELD_STORY_POINTS,
    "Story point estimate",
    { type: "number", custom: "com.pyxis.greenhopper.jira:jsw-story-points", customId: 10016 },
    ["cf[10016]", "Story point estimate"],
  ),
  f(FIELD_EPIC_LINK, "Epic Link", { type: "any", custom: "com.pyxis.greenhopper.jira:gh-epic-link", customId: 10014 }, [
    "cf[10014]",
    "Epic Link",
  ]),
  f(FIELD_RANK, "Rank", { type: "any", custom: "com.pyxis.greenhopper.jira:gh-lexo-rank", customId: 10019 }, ["cf[10019]", "rank"]),
];
export const fieldById = new Map(FIELDS.map((x) => [x.id, x]));
export const NAVIGABLE_FIELDS = FIELDS.filter((x) => x.navigable).map((x) => x.id);
export const ALL_FIELDS = FIELDS.map((x) => x.id);
