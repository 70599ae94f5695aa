import { facts, htmlReply, notFoundPage, paragraphs } from "../core/html";
import type { Router } from "../core/http";
import { adfToText } from "./adf";
import { issueTypeById, priorityById, statusById } from "./catalog";
import type { JiraState } from "./model";
import { findIssue } from "./store";

/** Jira's issue page, `/browse/KEY` (the link Bridgekeeper cites for an issue), as plain public HTML. */
export function jiraPages(router: Router, state: () => JiraState): void {
  router.get("/browse/:key", (req) => {
    const s = state();
    const issue = s.issuesByKey.get((req.params.key ?? "").toUpperCase());
    if (!issue) return notFoundPage(`Issue ${req.params.key ?? ""} does not exist.`);
    const project = s.projectsById.get(issue.projectId);
    const parent = issue.parentId ? findIssue(s, issue.parentId) : undefined;
    const description = adfToText(issue.description).trim();
    return htmlReply(
      `${issue.key}: ${issue.summary}`,
      facts([
        ["Project", project ? `${project.name} (${project.key})` : null],
        ["Type", issueTypeById.get(issue.typeId)?.name],
        ["Status", statusById.get(issue.statusId)?.name],
        ["Priority", priorityById.get(issue.priorityId)?.name],
        ["Assignee", issue.assigneeId ? (s.usersById.get(issue.assigneeId)?.displayName ?? null) : "Unassigned"],
        ["Parent", parent ? `${parent.key}: ${parent.summary}` : null],
      ]) + (description ? paragraphs(description) : "<p><em>No description</em></p>"),
    );
  });
}
