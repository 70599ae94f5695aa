import type { ClientPolicy } from "../../../contract/policy";
import { isUpstreamError } from "../../upstream/errors";
import { collect } from "../../upstream/paginate";
import { emit, quote, sameTokens, splitQuery, tokenize, type QueryLanguage, type QueryToken } from "./query-lexer";
import { ToolError, type ToolContext } from "./tool";

/**
 * The rules of a client's allow-lists (contract/policy.ts): an object outside the lists is refused
 * with a tool error that says what is allowed (called for each tool's declared reaches by
 * governance.ts, before the tool runs); searches are constrained (JQL and CQL wrapped in a clause
 * the model cannot leave) and listings filtered, by the tools that declare a listing; and what an
 * answer shows of related objects outside the lists is reduced to their keys or ids.
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
  const meant = [
    ...tokenize(clause, language),
    ...(where.length > 0 ? [{ kind: "word", value: "AND", spaced: true } as const, op("("), ...where, op(")")] : []),
    ...orderBy,
  ];
  if (!sameTokens(tokenize(sent, language), meant))
    throw new Error(`constrain: the ${language} written back does not read as it was parsed`);
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
export async function searchInProjects<T extends { issues: readonly { key: string }[] }>(
  ctx: ToolContext,
  jql: string,
  search: (jql: string) => Promise<T>,
  none: T,
): Promise<T> {
  const allowed = ctx.policy.jiraProjects;
  const held = async (policy: ClientPolicy) => {
    const page = await search(constrainJql(jql, policy));
    assertIssuesHeld(ctx.policy, page.issues);
    return page;
  };
  try {
    return await held(ctx.policy);
  } catch (err) {
    const missing =
      isUpstreamError(err) && err.kind === "bad_request"
        ? /The value '([^']{1,100})' does not exist for the field 'project'/.exec(err.message)?.[1]?.toUpperCase()
        : undefined;
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
function withheld(
  service: "Jira" | "Confluence",
  what: "issues" | "results",
  where: "projects" | "spaces",
  strays: string[],
  allowed: readonly string[],
): ToolError {
  // The client is told which of its own it may use, never which others the answer held: those are for the log.
  return new ToolError(
    `${service} answered this search with ${what} outside the ${where} this client is limited to (${allowed.join(", ")}), so Bridgekeeper withheld the whole answer. Simplify the query (plain quoted strings, no escapes outside quotes) and try again; if it keeps happening, tell an administrator.`,
    {
      event: "a held search answered outside the client's allow-list; answer withheld",
      details: { service, outside: strays.slice(0, 20), allowed },
    },
  );
}

/** Every issue's project (its key's prefix) is in the client's list. */
export function assertIssuesHeld(policy: ClientPolicy, issues: readonly { key: string }[]): void {
  const allowed = policy.jiraProjects;
  if (allowed === null) return;
  const strays = [...new Set(issues.filter((i) => !issueInProjects(policy, i.key)).map((i) => projectOfKey(i.key) ?? i.key))];
  if (strays.length > 0) throw withheld("Jira", "issues", "projects", strays, allowed);
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
  if (strays.length > 0) throw withheld("Confluence", "results", "spaces", strays, allowed);
}

const outside = (what: string, value: string, allowed: readonly string[]) =>
  new ToolError(
    `This client may not use ${what} ${value}: an administrator limited it to ${allowed.join(", ")}. Work within those, or ask an administrator.`,
  );

/** A Jira project key as an issue key's prefix has it (BK, ops_2). */
export const isProjectKey = (text: string): boolean => /^[A-Za-z][A-Za-z0-9_]*$/.test(text);

/** The project of an issue key (BK-12 → BK). */
export function projectOfKey(issueKey: string): string | null {
  const prefix = /^(.+)-\d+$/.exec(issueKey)?.[1];
  return prefix !== undefined && isProjectKey(prefix) ? prefix.toUpperCase() : null;
}

/** Whether an issue (by key) is in the client's projects: always without a list; never when the key names no project. */
export function issueInProjects(policy: ClientPolicy, issueKey: string): boolean {
  return policy.jiraProjects === null || policy.jiraProjects.includes(projectOfKey(issueKey) ?? "");
}

/** Jira: how an issue outside the client's projects shows wherever an answer names it (a link, a parent, a picker's value): its key, marked, never its summary or status. */
export const outsideIssue = (key: string): { key: string; outside: true } => ({ key, outside: true });
/** The text after such an issue's key. */
export const OUTSIDE_ISSUE = "(outside this client's projects)";

/** The title a page outside the client's spaces shows in its stead. */
export const OUTSIDE_PAGE = "(a page outside this client's spaces)";
/** Confluence: how a page outside the client's spaces shows (a child, an ancestor): its id, marked, never its title nor its link (whose path carries the title). */
export const outsidePage = (id: string): { id: string; title: string; url: null; outside: true } => ({
  id,
  title: OUTSIDE_PAGE,
  url: null,
  outside: true,
});

/**
 * A field's value with every issue outside the client's projects reduced to its key (issue 24
 * item 5, outsideIssue): an allowed issue's `parent`, `subtasks`, `issuelinks` or an issue picker
 * embed other issues with their summary and status, which a client limited to some projects must not read.
 */
export function withoutOutsideIssues(value: unknown, policy: ClientPolicy): unknown {
  if (policy.jiraProjects === null || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => withoutOutsideIssues(item, policy));
  const record = value as Record<string, unknown>;
  // An object with an issue key is an issue; other keys (a project's, a status category's) are not.
  if (typeof record.key === "string" && projectOfKey(record.key) !== null && !issueInProjects(policy, record.key))
    return outsideIssue(record.key);
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
  if (!project)
    throw new ToolError(
      `This client is limited to some Jira projects: name the issue by its key (such as ${ctx.policy.jiraProjects[0] ?? "BK"}-12), not by id.`,
    );
  assertProjectAllowed(ctx, project);
}

/** An issue named by numeric id is read to be placed (Jira answers with its key, its project field only); outside the list, or unknown to Jira, it is refused without naming a project. */
export async function assertIssueIdAllowed(ctx: ToolContext, id: string): Promise<void> {
  const issue = await ctx.clients.jira.getIssue(id, { fields: ["project"] }).catch(notFoundAs(() => outsideById(ctx, "issue", id)));
  if (!issueInProjects(ctx.policy, issue.key)) throw outsideById(ctx, "issue", id);
}

/**
 * An issue or project named by numeric id, read to be placed, and outside the client's projects:
 * refused without naming its project, and an id Jira does not have alike, so that a limited
 * client learns neither where an id lives nor whether it exists.
 */
export function outsideById(ctx: ToolContext, what: "issue" | "project" | "board" | "sprint", id: string): ToolError {
  return new ToolError(
    `Jira ${what} ${id} is outside this client's projects (${(ctx.policy.jiraProjects ?? []).join(", ")}) or does not exist. Work within those projects, or ask an administrator.`,
  );
}

/** Jira's 404 for a read that places an object named by id, as the refusal (any other failure as it was). */
export const notFoundAs =
  (refusal: () => ToolError) =>
  (err: unknown): never => {
    throw isUpstreamError(err) && err.kind === "not_found" ? refusal() : err;
  };

/** The project of a board (one read), null when it has none; a board Jira does not have is refused as `what` `id`. */
async function boardProject(ctx: ToolContext, boardId: number, what: "board" | "sprint", id: number): Promise<string | null> {
  const board = await ctx.clients.jira.board(boardId).catch(notFoundAs(() => outsideById(ctx, what, String(id))));
  return board.location?.projectKey?.toUpperCase() ?? null;
}

/**
 * Under a Jira allow-list, a board's project must be in it (one read); without one, nothing is
 * read. Like an issue named by id, a board outside is refused without naming its project.
 */
export async function assertBoardAllowed(ctx: ToolContext, id: number): Promise<void> {
  const allowed = ctx.policy.jiraProjects;
  if (allowed === null) return;
  const project = await boardProject(ctx, id, "board", id);
  if (project === null || !allowed.includes(project)) throw outsideById(ctx, "board", String(id));
}

/** A sprint is placed by its board: under a Jira allow-list the sprint and its board are read first. */
export async function assertSprintAllowed(ctx: ToolContext, id: number): Promise<void> {
  const allowed = ctx.policy.jiraProjects;
  if (allowed === null) return;
  const sprint = await ctx.clients.jira.sprint(id).catch(notFoundAs(() => outsideById(ctx, "sprint", String(id))));
  const project = sprint.originBoardId === undefined ? null : await boardProject(ctx, sprint.originBoardId, "sprint", id);
  if (project === null || !allowed.includes(project)) throw outsideById(ctx, "sprint", String(id));
}

export function assertSpaceAllowed(ctx: ToolContext, spaceKey: string | null): void {
  const allowed = ctx.policy.confluenceSpaces;
  if (allowed !== null && (spaceKey === null || !allowed.includes(spaceKey)))
    throw outside("the Confluence space", spaceKey ?? "(unknown)", allowed);
}

/**
 * The repository slugs (lower case) the client may use in `workspace`: `repo` entries hold in any
 * workspace, `workspace/repo` entries only there; null without a list, or when `workspace/*`
 * allows every repository of this workspace (a Data Center project, issue 28).
 */
export function allowedSlugs(policy: ClientPolicy, workspace: string): string[] | null {
  const allowed = policy.bitbucketRepositories;
  if (allowed === null) return null;
  const here = workspace.toLowerCase();
  if (allowed.some((entry) => entry.toLowerCase() === `${here}/*`)) return null;
  return [
    ...new Set(
      allowed.flatMap((entry) => {
        const [a, b] = entry.toLowerCase().split("/") as [string, string | undefined];
        return b === undefined ? [a] : a === here ? [b] : [];
      }),
    ),
  ];
}

export function repositoryAllowed(policy: ClientPolicy, workspace: string, repository: string): boolean {
  const slugs = allowedSlugs(policy, workspace);
  return slugs === null || slugs.includes(repository.toLowerCase());
}

export function assertRepositoryAllowed(ctx: ToolContext, workspace: string, repository: string): void {
  if (!repositoryAllowed(ctx.policy, workspace, repository))
    throw outside("the Bitbucket repository", `${workspace}/${repository}`, ctx.policy.bitbucketRepositories ?? []);
}
