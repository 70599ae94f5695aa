import type { ClientPolicy } from "../../../contract/policy";
import { isUpstreamError } from "../../upstream/errors";
import { collect } from "../../upstream/paginate";
import { emit, quote, sameTokens, splitQuery, tokenize, type QueryLanguage, type QueryToken } from "./query-lexer";
import { ToolError, type ToolContext } from "./tool";

/**
 * A client's allow-lists (contract/policy.ts) applied inside the tools: searches are constrained
 * (JQL and CQL wrapped in a clause the model cannot leave), objects outside the lists are
 * refused with a tool error that says what is allowed, and listings are filtered.
 */

/**
 * `<field> in (...) AND (<condition>) ORDER BY ...`: the model's query, inside the lists. The query
 * is read as Jira or Confluence reads it (query-lexer.ts), refused when any part's meaning is in
 * doubt, and what is sent is written from its tokens, then read again: the condition is proved to
 * sit inside the parentheses, so no quoting or escaping can reach past them.
 */
function constrain(query: string, language: QueryLanguage, field: string, keys: readonly string[] | null): string {
  if (keys === null) return query;
  const { where, orderBy } = splitQuery(query, language);
  const clause = `${field} in (${keys.map(quote).join(", ")})`;
  const sent = [where.length > 0 ? `${clause} AND (${emit(where)})` : clause, ...(orderBy.length > 0 ? [emit(orderBy)] : [])].join(" ");
  const op = (value: string): QueryToken => ({ kind: "op", value, spaced: false });
  const meant = [...tokenize(clause, language), ...(where.length > 0 ? [{ kind: "word", value: "AND", spaced: true } as const, op("("), ...where, op(")")] : []), ...orderBy];
  if (!sameTokens(tokenize(sent, language), meant)) throw new Error(`constrain: the ${language} written back does not read as it was parsed`);
  return sent;
}

export const constrainJql = (jql: string, policy: ClientPolicy): string => constrain(jql, "JQL", "project", policy.jiraProjects);
export const constrainCql = (cql: string, policy: ClientPolicy): string => constrain(cql, "CQL", "space", policy.confluenceSpaces);

/**
 * Runs a JQL search held to the client's projects (constrainJql). Jira refuses a whole query that
 * names a project it does not have ("The value 'OLD' does not exist for the field 'project'"), so
 * one listed project that was renamed, deleted or never existed would fail every search of the
 * client: on that refusal the search runs again within the listed projects Jira has, and with
 * none of them nothing matches (`none`). A project the model's own JQL names is refused as before.
 */
export async function searchInProjects<T extends { issues: readonly { key: string }[] }>(ctx: ToolContext, jql: string, search: (jql: string) => Promise<T>, none: T): Promise<T> {
  const allowed = ctx.policy.jiraProjects;
  const held = async (policy: ClientPolicy) => {
    const page = await search(constrainJql(jql, policy));
    assertIssuesHeld(ctx.policy, page.issues);
    return page;
  };
  try {
    return await held(ctx.policy);
  } catch (err) {
    const missing = isUpstreamError(err) && err.kind === "bad_request" ? /The value '([^']{1,100})' does not exist for the field 'project'/.exec(err.message)?.[1]?.toUpperCase() : undefined;
    if (allowed === null || missing === undefined || !allowed.includes(missing)) throw err;
    const known = new Set((await collect(ctx.clients.jira.projects())).map((p) => p.key.toUpperCase()));
    const existing = allowed.filter((key) => known.has(key));
    if (existing.length === 0) return none;
    return held({ ...ctx.policy, jiraProjects: existing });
  }
}

/**
 * The second line, behind the wrapper: a held search answering with anything outside the lists
 * means the service read the query otherwise than it was proved to read. The whole answer is
 * withheld rather than filtered: its count, its page token, and which items inside the lists
 * matched may all depend on what lies outside. Logged as a warning (ToolError.warning): it should
 * never happen.
 */
function withheld(service: "Jira" | "Confluence", what: string, strays: string[], allowed: readonly string[]): ToolError {
  const shown = strays.slice(0, 5).join(", ");
  return new ToolError(
    `${service} answered this search with ${what} outside those this client is limited to (${shown}; allowed: ${allowed.join(", ")}), so Bridgekeeper withheld the whole answer. Simplify the query (plain quoted strings, no escapes outside quotes) and try again; if it keeps happening, tell an administrator.`,
    { event: "a held search answered outside the client's allow-list; answer withheld", details: { service, outside: strays.slice(0, 20), allowed } },
  );
}

/** Every issue's project (its key's prefix) is in the client's list. */
export function assertIssuesHeld(policy: ClientPolicy, issues: readonly { key: string }[]): void {
  const allowed = policy.jiraProjects;
  if (allowed === null) return;
  const strays = [...new Set(issues.map((i) => projectOfKey(i.key) ?? i.key).filter((project) => !allowed.includes(project)))];
  if (strays.length > 0) throw withheld("Jira", "issues from projects", strays, allowed);
}

/**
 * The space of a CQL search result: content.space.key (asked for with expand=content.space), a
 * space result's own key, or the container's link (/spaces/KEY on Cloud, /display/KEY on Data Center).
 */
export function spaceOfResult(result: Record<string, unknown>): string | null {
  const content = result.content as { space?: { key?: unknown } } | undefined;
  const key = content?.space?.key ?? (result.space as { key?: unknown } | undefined)?.key;
  if (typeof key === "string") return key;
  const link = (result.resultGlobalContainer as { displayUrl?: unknown } | undefined)?.displayUrl;
  return (typeof link === "string" ? /^\/(?:spaces|display)\/([^/?#]+)/.exec(link)?.[1] : undefined) ?? null;
}

/** Every result's space is in the client's list; a result that cannot be placed counts as outside. */
export function assertResultsHeld(policy: ClientPolicy, results: readonly Record<string, unknown>[]): void {
  const allowed = policy.confluenceSpaces;
  if (allowed === null) return;
  const strays = [...new Set(results.map((r) => spaceOfResult(r) ?? "(no space)").filter((space) => !allowed.includes(space)))];
  if (strays.length > 0) throw withheld("Confluence", "results from spaces", strays, allowed);
}

const outside = (what: string, value: string, allowed: readonly string[]) =>
  new ToolError(`This client may not use ${what} ${value}: an administrator limited it to ${allowed.join(", ")}. Work within those, or ask an administrator.`);

/** The project of an issue key (BK-12 → BK). */
export const projectOfKey = (issueKey: string): string | null => /^([A-Za-z][A-Za-z0-9_]*)-\d+$/.exec(issueKey)?.[1]?.toUpperCase() ?? null;

/**
 * A field's value with every issue outside the client's projects reduced to its key (issue 24
 * item 5): an allowed issue's `parent`, `subtasks`, `issuelinks` or an issue picker embed other
 * issues with their summary and status, which a client limited to some projects must not read.
 */
export function withoutOutsideIssues(value: unknown, policy: ClientPolicy): unknown {
  const allowed = policy.jiraProjects;
  if (allowed === null || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => withoutOutsideIssues(item, policy));
  const record = value as Record<string, unknown>;
  const project = typeof record.key === "string" ? projectOfKey(record.key) : null;
  if (project !== null && !allowed.includes(project)) return { key: record.key };
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(record)) out[key] = withoutOutsideIssues(record[key], policy);
  return out;
}

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
