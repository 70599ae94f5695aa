import { callerAccountId, canBrowseProject } from "../identity/caller";
import type { Issue, Project } from "./model";
import type { View } from "./presenters";

/**
 * What the view's caller may browse (identity/caller.ts): the service account everything, a person
 * the projects they may browse. An issue of another project is, to them, one that does not exist.
 */

export const canSeeProject = (v: View, p: Project): boolean => canBrowseProject(v.caller, p.key);

export const canSeeIssue = (v: View, issue: Issue): boolean =>
  v.caller.kind === "service" || canBrowseProject(v.caller, v.state.projectsById.get(issue.projectId)?.key ?? "");

/** The items the caller may see: the same array for the service account (no copy). */
export const visibleIssues = (v: View, issues: Issue[]): Issue[] =>
  v.caller.kind === "service" ? issues : issues.filter((i) => canSeeIssue(v, i));

export const visibleProjects = (v: View, projects: Project[]): Project[] =>
  v.caller.kind === "service" ? projects : projects.filter((p) => canSeeProject(v, p));

/** The account the caller's writes are by (the service account is the state's first user). */
export const me = (v: View): string => callerAccountId(v.caller, v.state.users[0]!.accountId);
