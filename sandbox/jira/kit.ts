import { jiraError } from "../core/errors";
import { canSeeIssue, me } from "./access";
import type { Handler, Reply, Router, SandboxRequest } from "../core/http";
import type { Issue, JiraState } from "./model";
import { makeView, type View } from "./presenters";
import { findIssue } from "./store";
import { clock, listParam } from "./util";

/** Shared route plumbing: one handler registered for /rest/api/2 and /rest/api/3. */

export type VersionedHandler = (req: SandboxRequest, v: View) => Reply | Promise<Reply>;

/** `readOnly` marks a POST that reads (a search), so it does not invalidate cached GETs. */
export function both(
  router: Router,
  state: () => JiraState,
  method: "get" | "post" | "put" | "delete",
  suffix: string,
  handler: VersionedHandler,
  readOnly = false,
): void {
  for (const version of [3, 2] as const) {
    const h: Handler = (req) => handler(req, makeView(state(), req.origin, version, req.caller));
    router[method](`/rest/api/${version}${suffix}`, readOnly && method !== "get" ? h : guard(method, state, h));
  }
}

const CACHE_TTL_MS = 1_000;
const CACHE_MAX_ENTRIES = 4_000;

/**
 * GETs are answered from a cache of serialised responses (a repeated GET costs a map lookup); any
 * write bumps the state's generation, which invalidates them all. Entries also expire after a
 * second, as relative JQL dates move with the clock.
 */
export function guard(method: string, state: () => JiraState, handler: Handler): Handler {
  if (method !== "get") {
    return (req) => {
      state().generation++;
      return handler(req);
    };
  }
  return async (req) => {
    const s = state();
    // A person's answers are their own (what they may browse, who "me" is): keyed apart from the service account's.
    const url = `${req.origin}${req.path}?${req.query.toString()}`;
    const key = req.caller.kind === "service" ? url : `${req.caller.person.accountId} ${url}`;
    const hit = s.responseCache.get(key);
    const at = Date.now();
    if (hit && hit.generation === s.generation && at - hit.at < CACHE_TTL_MS)
      return { status: 200, text: hit.text, contentType: JSON_TYPE };
    const reply = await handler(req);
    if (reply.status === 200 && reply.body !== undefined && reply.text === undefined) {
      const text = JSON.stringify(reply.body);
      if (s.responseCache.size >= CACHE_MAX_ENTRIES) s.responseCache.clear();
      s.responseCache.set(key, { generation: s.generation, at, text });
      return { ...reply, body: undefined, text, contentType: JSON_TYPE };
    }
    return reply;
  };
}
const JSON_TYPE = "application/json;charset=UTF-8";

export const ISSUE_NOT_FOUND = "Issue does not exist or you do not have permission to see it.";
export const issueNotFound = () => jiraError(404, ISSUE_NOT_FOUND);

/** Runs `fn` with the issue named by `:issueIdOrKey`, or answers Jira's 404. */
export function withIssue(req: SandboxRequest, v: View, fn: (issue: Issue) => Reply | Promise<Reply>): Reply | Promise<Reply> {
  const issue = findIssue(v.state, req.params.issueIdOrKey ?? "");
  return issue && canSeeIssue(v, issue) ? fn(issue) : issueNotFound();
}

export { me };
export const now = clock;

/** `expand` as a set, from the query string or a POST body (string or array). */
export function expandSet(req: SandboxRequest, fromBody?: unknown): Set<string> {
  const items = listParam(req.query, "expand");
  if (typeof fromBody === "string") items.push(...fromBody.split(","));
  else if (Array.isArray(fromBody)) items.push(...fromBody.filter((x): x is string => typeof x === "string"));
  return new Set(items.map((s) => s.trim()));
}

export const bodyObject = (req: SandboxRequest): Record<string, unknown> =>
  typeof req.body === "object" && req.body !== null && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};

/** Jira's accepted timestamp inputs (`2026-01-05T10:00:00.000+0000`, ISO-8601), or NaN. */
export const parseJiraTime = (s: unknown): number => (typeof s === "string" ? Date.parse(s.replace(/([+-]\d{2})(\d{2})$/, "$1:$2")) : NaN);
