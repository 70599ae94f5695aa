import { adfToText } from "./adf";
import type { Issue, IssueLink, JiraState, Sprint } from "./model";

/** Index maintenance and lookups over the Jira state (all O(1) or O(children)). */

export function indexIssue(state: JiraState, issue: Issue): void {
  state.issues.push(issue);
  state.issuesById.set(issue.id, issue);
  state.issuesByKey.set(issue.key, issue);
  if (issue.parentId) addChild(state, issue.parentId, issue.id);
}

export function addChild(state: JiraState, parentId: string, childId: string): void {
  const list = state.children.get(parentId);
  if (list) list.push(childId);
  else state.children.set(parentId, [childId]);
}

export function removeChild(state: JiraState, parentId: string, childId: string): void {
  const list = state.children.get(parentId);
  if (list)
    state.children.set(
      parentId,
      list.filter((id) => id !== childId),
    );
}

export function indexLink(state: JiraState, link: IssueLink): void {
  state.links.push(link);
  for (const id of [link.outwardId, link.inwardId]) {
    const list = state.linksByIssue.get(id);
    if (list) list.push(link);
    else state.linksByIssue.set(id, [link]);
  }
}

export function removeLink(state: JiraState, link: IssueLink): void {
  state.links = state.links.filter((l) => l !== link);
  for (const id of [link.outwardId, link.inwardId])
    state.linksByIssue.set(
      id,
      (state.linksByIssue.get(id) ?? []).filter((l) => l !== link),
    );
}

export function removeIssue(state: JiraState, issue: Issue): void {
  state.issues = state.issues.filter((i) => i !== issue);
  state.issuesById.delete(issue.id);
  state.issuesByKey.delete(issue.key);
  if (issue.parentId) removeChild(state, issue.parentId, issue.id);
  for (const link of [...(state.linksByIssue.get(issue.id) ?? [])]) removeLink(state, link);
  state.linksByIssue.delete(issue.id);
  for (const childId of state.children.get(issue.id) ?? []) {
    const child = state.issuesById.get(childId);
    if (child) child.parentId = null;
  }
  state.children.delete(issue.id);
}

/** An issue by id or key (keys are matched case-insensitively, as Jira does). */
export function findIssue(state: JiraState, idOrKey: string): Issue | undefined {
  return state.issuesById.get(idOrKey) ?? state.issuesByKey.get(idOrKey.toUpperCase());
}

export function findProject(state: JiraState, idOrKey: string) {
  return state.projectsById.get(idOrKey) ?? state.projectsByKey.get(idOrKey.toUpperCase());
}

/** The sprint an issue is in now: its latest one, unless that sprint is closed. */
export function currentSprint(state: JiraState, issue: Issue): Sprint | undefined {
  const last = issue.sprintIds[issue.sprintIds.length - 1];
  const sprint = last === undefined ? undefined : state.sprintsById.get(last);
  return sprint && sprint.state !== "closed" ? sprint : undefined;
}

/** Lower-cased searchable text, cached until the next write (`touch`). */
export function issueText(issue: Issue): NonNullable<Issue["text"]> {
  if (!issue.text) {
    issue.text = {
      summary: issue.summary.toLowerCase(),
      description: adfToText(issue.description).toLowerCase(),
      comments: issue.comments
        .map((c) => adfToText(c.body))
        .join("\n")
        .toLowerCase(),
    };
  }
  return issue.text;
}

/** Marks an issue as changed: `updated` moves and cached text is dropped. */
export function touch(issue: Issue, at: number): void {
  issue.updated = at;
  issue.text = undefined;
}
