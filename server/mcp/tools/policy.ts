import type { ClientPolicy } from "../../../contract/policy";
import { isUpstreamError } from "../../upstream/errors";
import { collect } from "../../upstream/paginate";
import { ToolError, type ToolContext } from "./tool";

/**
 * A client's allow-lists (contract/policy.ts) applied inside the tools: searches are constrained
 * (JQL and CQL wrapped in a clause the model cannot leave), objects outside the lists are
 * refused with a tool error that says what is allowed, and listings are filtered.
 */

/**
 * Splits a JQL or CQL query at its top-level ORDER BY (outside quotes and parentheses).
 * `balanced` is false when a parenthesis closes one never opened, or quotes or parentheses are
 * left open: such a query could close the clause it is wrapped in (`x) OR (project = SECRET`).
 */
export function splitOrderBy(query: string): { where: string; orderBy: string; balanced: boolean } {
  let quote: string | null = null;
  let depth = 0;
  let balanced = true;
  let cut = -1;
  for (let i = 0; i < query.length; i++) {
    const c = query[i]!;
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === "(") depth++;
    else if (c === ")") {
      if (depth === 0) balanced = false;
      depth = Math.max(0, depth - 1);
    } else if (cut < 0 && depth === 0 && (c === "o" || c === "O") && (i === 0 || /[\s)]/.test(query[i - 1]!)) && /^order\s+by\b/i.test(query.slice(i, i + 20))) {
      cut = i;
    }
  }
  if (quote !== null || depth !== 0) balanced = false;
  if (cut < 0) return { where: query.trim(), orderBy: "", balanced };
  return { where: query.slice(0, cut).trim(), orderBy: query.slice(cut).trim(), balanced };
}

const quoted = (keys: readonly string[]) => keys.map((k) => `"${k.replace(/["\\]/g, "")}"`).join(", ");

/** `<field> in (...) AND (<query>) ORDER BY ...`: the model's query, inside the lists. */
function constrain(query: string, field: string, keys: readonly string[] | null): string {
  if (keys === null) return query;
  const { where, orderBy, balanced } = splitOrderBy(query);
  if (!balanced) throw new ToolError("The query's quotes or parentheses do not balance (a closing parenthesis without its opening one, or one left open). Fix the query and try again.");
  const clause = `${field} in (${quoted(keys)})`;
  return [where ? `${clause} AND (${where})` : clause, orderBy].filter(Boolean).join(" ");
}

export const constrainJql = (jql: string, policy: ClientPolicy): string => constrain(jql, "project", policy.jiraProjects);
export const constrainCql = (cql: string, policy: ClientPolicy): string => constrain(cql, "space", policy.confluenceSpaces);

/**
 * Runs a JQL search held to the client's projects (constrainJql). Jira refuses a whole query that
 * names a project it does not have ("The value 'OLD' does not exist for the field 'project'"), so
 * one listed project that was renamed, deleted or never existed would fail every search of the
 * client: on that refusal the search runs again within the listed projects Jira has, and with
 * none of them nothing matches (`none`). A project the model's own JQL names is refused as before.
 */
export async function searchInProjects<T>(ctx: ToolContext, jql: string, search: (jql: string) => Promise<T>, none: T): Promise<T> {
  const allowed = ctx.policy.jiraProjects;
  try {
    return await search(constrainJql(jql, ctx.policy));
  } catch (err) {
    const missing = isUpstreamError(err) && err.kind === "bad_request" ? /The value '([^']{1,100})' does not exist for the field 'project'/.exec(err.message)?.[1]?.toUpperCase() : undefined;
    if (allowed === null || missing === undefined || !allowed.includes(missing)) throw err;
    const known = new Set((await collect(ctx.clients.jira.projects())).map((p) => p.key.toUpperCase()));
    const existing = allowed.filter((key) => known.has(key));
    if (existing.length === 0) return none;
    return search(constrainJql(jql, { ...ctx.policy, jiraProjects: existing }));
  }
}

const outside = (what: string, value: string, allowed: readonly string[]) =>
  new ToolError(`This client may not use ${what} ${value}: an administrator limited it to ${allowed.join(", ")}. Work within those, or ask an administrator.`);

/** The project of an issue key (BK-12 → BK). */
export const projectOfKey = (issueKey: string): string | null => /^([A-Za-z][A-Za-z0-9_]*)-\d+$/.exec(issueKey)?.[1]?.toUpperCase() ?? null;

export function assertProjectAllowed(ctx: ToolContext, projectKey: string): void {
  const allowed = ctx.policy.jiraProjects;
  if (allowed !== null && !allowed.includes(projectKey.toUpperCase())) throw outside("the Jira project", projectKey.toUpperCase(), allowed);
}

/** An issue named by key is checked by its project; a numeric id cannot be placed without a read, so it is refused under a list. */
export function assertIssueAllowed(ctx: ToolContext, issueKeyOrId: string): void {
  if (ctx.policy.jiraProjects === null) return;
  const project = projectOfKey(issueKeyOrId);
  if (!project) throw new ToolError(`This client is limited to some Jira projects: name the issue by its key (such as ${ctx.policy.jiraProjects[0] ?? "BK"}-12), not by id.`);
  assertProjectAllowed(ctx, project);
}

export function assertSpaceAllowed(ctx: ToolContext, spaceKey: string | null): void {
  const allowed = ctx.policy.confluenceSpaces;
  if (allowed !== null && (spaceKey === null || !allowed.includes(spaceKey))) throw outside("the Confluence space", spaceKey ?? "(unknown)", allowed);
}

/** `repo` entries allow that slug in any workspace; `workspace/repo` entries only there. */
export function repositoryAllowed(policy: ClientPolicy, workspace: string, repository: string): boolean {
  const allowed = policy.bitbucketRepositories;
  if (allowed === null) return true;
  const slug = repository.toLowerCase();
  return allowed.some((entry) => {
    const [a, b] = entry.toLowerCase().split("/");
    return b === undefined ? a === slug : a === workspace.toLowerCase() && b === slug;
  });
}

export function assertRepositoryAllowed(ctx: ToolContext, workspace: string, repository: string): void {
  if (!repositoryAllowed(ctx.policy, workspace, repository)) throw outside("the Bitbucket repository", `${workspace}/${repository}`, ctx.policy.bitbucketRepositories ?? []);
}
