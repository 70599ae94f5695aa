import type { Rng } from "../core/random";

/** The in-memory model behind the Bitbucket Cloud imitation. Dates are epoch milliseconds. */

export interface User {
  uuid: string;
  accountId: string;
  nickname: string;
  displayName: string;
  createdOn: number;
}

export interface Project {
  key: string;
  uuid: string;
  name: string;
  description: string;
  isPrivate: boolean;
  createdOn: number;
  updatedOn: number;
}

/**
 * A change a commit makes to one file. `insert` and `tweak` are applied to the parent's text when a
 * tree is materialised, so seeding never has to build file contents for every commit.
 */
export type FileOp =
  | { kind: "add"; path: string; content: string }
  | { kind: "delete"; path: string }
  /** Inserts `lines` after line `after` (clamped to the file). */
  | { kind: "insert"; path: string; after: number; lines: string[] }
  /** Changes the first number on line `line` (clamped), or annotates the line when it has none. */
  | { kind: "tweak"; path: string; line: number; delta: number };

export interface Commit {
  hash: string;
  message: string;
  author: User;
  date: number;
  parents: string[];
  ops: FileOp[];
}

export type PullRequestState = "OPEN" | "MERGED" | "DECLINED" | "SUPERSEDED";

export interface Participant {
  user: User;
  role: "REVIEWER" | "PARTICIPANT";
  approved: boolean;
  state: "approved" | "changes_requested" | null;
  participatedOn: number | null;
}

export interface Comment {
  id: number;
  user: User;
  raw: string;
  createdOn: number;
  updatedOn: number;
  inline: { path: string; from: number | null; to: number | null } | null;
  parentId: number | null;
  deleted: boolean;
  /** Set while the comment (a thread's top comment) is resolved. */
  resolution: { user: User; on: number } | null;
}

/** A pull request task: a to-do item, on the pull request or on one of its comments. */
export interface Task {
  id: number;
  raw: string;
  state: "UNRESOLVED" | "RESOLVED";
  creator: User;
  createdOn: number;
  updatedOn: number;
  resolvedBy: User | null;
  resolvedOn: number | null;
  commentId: number | null;
  pending: boolean;
}

/** An edit of an open pull request (its activity's `update` entries), with what changed. */
export interface PullRequestEdit {
  by: User;
  on: number;
  changes: Record<string, { old: string; new: string }>;
}

export interface PullRequest {
  id: number;
  title: string;
  description: string;
  state: PullRequestState;
  author: User;
  /** The source branch and its tip (kept after the branch is deleted). */
  source: { branch: string; hash: string };
  /** The destination branch and, once closed, its tip before the merge. */
  destination: { branch: string; hash: string };
  mergeCommit: string | null;
  closedBy: User | null;
  /** When it was merged, declined or superseded. */
  closedOn: number | null;
  reason: string;
  createdOn: number;
  updatedOn: number;
  closeSourceBranch: boolean;
  /** Participants by nickname; reviewers are those with role REVIEWER. */
  participants: Map<string, Participant>;
  comments: Comment[];
  commentsById: Map<number, Comment>;
  /** Merging fails with a conflict (seeded on a few open pull requests). */
  conflict: boolean;
  /** Its `task_count` is the number of unresolved ones. */
  tasks: Task[];
  edits: PullRequestEdit[];
}

export type Language = "typescript" | "javascript" | "python" | "go";

export interface Repo {
  slug: string;
  name: string;
  uuid: string;
  description: string;
  language: Language;
  isPrivate: boolean;
  projectKey: string;
  createdOn: number;
  updatedOn: number;
  size: number;
  hasIssues: boolean;
  hasWiki: boolean;
  mainbranch: string;
  /** Branch name → tip hash, in creation order. */
  branches: Map<string, string>;
  commits: Map<string, Commit>;
  pullRequests: Map<number, PullRequest>;
  nextPrId: number;
  /** Materialised trees (path → content) by commit hash, filled lazily. */
  trees: Map<string, Map<string, string>>;
  /** Computed diffs by "from..to", bounded. */
  diffs: Map<string, FileDiff[]>;
}

export interface FileDiff {
  status: "added" | "removed" | "modified";
  oldPath: string | null;
  newPath: string | null;
  linesAdded: number;
  linesRemoved: number;
  text: string;
}

export interface BitbucketState {
  workspace: { slug: string; name: string; uuid: string; createdOn: number };
  me: User;
  users: User[];
  /** By nickname, account id and uuid. */
  usersByKey: Map<string, User>;
  projects: Project[];
  projectsByKey: Map<string, Project>;
  repos: Repo[];
  reposBySlug: Map<string, Repo>;
  nextCommentId: number;
  nextTaskId: number;
  /** For ids and hashes created by writes, so a scripted run is reproducible. */
  rng: Rng;
}
