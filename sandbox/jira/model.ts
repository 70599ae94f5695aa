/** The Jira imitation's in-memory model: plain records plus O(1) indexes, presented per request. */

export type Adf = { type: "doc"; version: 1; content: AdfNode[] };
export interface AdfNode {
  type: string;
  text?: string;
  attrs?: Record<string, unknown>;
  marks?: { type: string; attrs?: Record<string, unknown> }[];
  content?: AdfNode[];
}

/**
 * A rich-text body: ADF, as seeded and as the cloud stores it, or Jira Data Center's wiki markup,
 * as the Data Center flavour stores what its clients write (REST v2 has no ADF there).
 */
export type RichText = Adf | string;

export interface User {
  accountId: string;
  displayName: string;
  emailAddress: string;
  timeZone: string;
  active: boolean;
  /** The username and user key Jira Data Center knows the user by (dc-users.ts); the cloud shows neither. */
  name?: string;
  key?: string;
}

export interface Version {
  id: string;
  name: string;
  description: string;
  released: boolean;
  releaseDate?: string;
}

export interface Component {
  id: string;
  name: string;
  description: string;
}

export interface Project {
  id: string;
  key: string;
  name: string;
  description: string;
  leadAccountId: string;
  components: Component[];
  versions: Version[];
  nextIssueNumber: number;
}

export interface Comment {
  id: string;
  authorId: string;
  updateAuthorId: string;
  body: RichText;
  created: number;
  updated: number;
}

export interface Worklog {
  id: string;
  authorId: string;
  comment: RichText | null;
  started: number;
  created: number;
  updated: number;
  timeSpentSeconds: number;
}

export interface HistoryItem {
  field: string;
  fieldId: string;
  from: string | null;
  fromString: string | null;
  to: string | null;
  toString: string | null;
}

export interface History {
  id: string;
  authorId: string;
  created: number;
  items: HistoryItem[];
}

/** A link from an issue to something outside Jira (a web page, a document), as Jira's remote issue links. */
export interface RemoteLink {
  id: number;
  globalId: string | null;
  relationship: string | null;
  application: Record<string, unknown>;
  object: { url: string; title: string; summary?: string; icon?: Record<string, unknown>; status?: Record<string, unknown> };
}

/** A file attached to an issue; its bytes are kept as uploaded. */
export interface Attachment {
  id: string;
  issueId: string;
  filename: string;
  authorId: string;
  created: number;
  mimeType: string;
  data: Buffer;
}

export interface Issue {
  id: string;
  key: string;
  projectId: string;
  typeId: string;
  summary: string;
  description: RichText | null;
  statusId: string;
  priorityId: string;
  resolutionId: string | null;
  resolutionDate: number | null;
  statusCategoryChanged: number;
  labels: string[];
  componentIds: string[];
  fixVersionIds: string[];
  assigneeId: string | null;
  reporterId: string;
  creatorId: string;
  created: number;
  updated: number;
  dueDate: string | null;
  parentId: string | null;
  storyPoints: number | null;
  originalEstimateSeconds: number | null;
  remainingEstimateSeconds: number | null;
  /** Every sprint the issue has been in, oldest first; the last one is current unless it is closed. */
  sprintIds: number[];
  comments: Comment[];
  worklogs: Worklog[];
  histories: History[];
  /** Account ids of the users watching the issue, in the order they started. */
  watcherIds: string[];
  remoteLinks: RemoteLink[];
  /** Lower-cased text for `~` searches, rebuilt lazily after a write. */
  text?: { summary: string; description: string; comments: string };
}

export interface IssueLink {
  id: string;
  typeId: string;
  /** The issue the outward description applies to ("A blocks B": A is outward). */
  outwardId: string;
  inwardId: string;
}

export interface Sprint {
  id: number;
  name: string;
  state: "closed" | "active" | "future";
  boardId: number;
  goal: string;
  startDate?: number;
  endDate?: number;
  completeDate?: number;
  createdDate: number;
}

export interface Board {
  id: number;
  name: string;
  type: "scrum" | "kanban";
  projectId: string;
  filterId: number;
}

export interface JiraState {
  users: User[];
  usersById: Map<string, User>;
  projects: Project[];
  projectsByKey: Map<string, Project>;
  projectsById: Map<string, Project>;
  issues: Issue[];
  issuesById: Map<string, Issue>;
  issuesByKey: Map<string, Issue>;
  /** Child issue ids (subtasks and epic children) by parent id. */
  children: Map<string, string[]>;
  links: IssueLink[];
  linksByIssue: Map<string, IssueLink[]>;
  boards: Board[];
  sprints: Sprint[];
  sprintsById: Map<number, Sprint>;
  /** Counters for new ids. */
  next: {
    issue: number;
    comment: number;
    worklog: number;
    link: number;
    sprint: number;
    history: number;
    remoteLink: number;
    attachment: number;
  };
  /** Every issue's attachments, by id. */
  attachments: Map<string, Attachment>;
  /** Wall-clock instant the state was seeded: the sandbox clock runs from SEED_EPOCH at that instant. */
  startedAt: number;
  /** Bumped by every write; cached GET responses of an older generation are stale. */
  generation: number;
  /** Serialised GET responses by method, origin and URL (see kit.ts). */
  responseCache: Map<string, { generation: number; at: number; text: string }>;
  /**
   * Set on the Data Center flavour's state only (dc-kit.ts): its presenters then show users by
   * username and key and keep written rich text as wiki markup. Its one setting is the instance's
   * `jira.search.views.default.max`, the most issues a search page holds (1000 unless a test lowers it).
   */
  dataCenter?: { searchMaxResults: number };
}
