import { jiraError } from "../core/errors";
import { json, type Reply, type Router, type SandboxRequest } from "../core/http";
import { fieldById } from "./catalog";
import { selectFields, presentIssue } from "./issue-view";
import { compileJql, type JqlContext } from "./jql-eval";
import { JqlError } from "./jql";
import { canSeeIssue } from "./access";
import { both, bodyObject, expandSet, me } from "./kit";
import type { Issue, JiraState } from "./model";
import type { View } from "./presenters";
import { clock, hash, isRecord } from "./util";

/** Enhanced JQL search (token paging), approximate count, and the removed /search endpoints (410). */

const REMOVED =
  "The requested API has been removed. Please migrate to the /rest/api/3/search/jql API. A full migration guideline is available at https://developer.atlassian.com/changelog/#CHANGE-2046";
const UNBOUNDED = "Unbounded JQL queries are not allowed here. Please add a search restriction to your query.";
const BAD_TOKEN = "The provided next page token is invalid or expired.";

export const jqlContext = (v: View): JqlContext => ({ state: v.state, me: me(v), now: clock(v.state) });

/** Matches and sorts (among the issues the caller may browse), or answers Jira's 400 for bad JQL. */
export function searchIssues(v: View, jql: string, within?: Issue[], requireBound = false): Issue[] | Reply {
  try {
    const q = compileJql(jql, jqlContext(v));
    if (requireBound && !q.bounded) return jiraError(400, UNBOUNDED);
    const pool = within ?? v.state.issues;
    const found = v.caller.kind === "service" ? pool.filter(q.match) : pool.filter((i) => q.match(i) && canSeeIssue(v, i));
    return found.sort(q.compare);
  } catch (err) {
    if (err instanceof JqlError) return jiraError(400, err.message);
    throw err;
  }
}

const encodeToken = (offset: number, jql: string) => Buffer.from(JSON.stringify({ o: offset, h: hash(jql) })).toString("base64url");
function decodeToken(token: string, jql: string): number | null {
  try {
    const t = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as unknown;
    if (isRecord(t) && typeof t.o === "number" && Number.isInteger(t.o) && t.o >= 0 && t.h === hash(jql)) return t.o;
  } catch {
    // fall through
  }
  return null;
}

interface SearchInput {
  jql: string;
  nextPageToken: string | null;
  maxResults: number | null;
  fields: string[];
  expand: Set<string>;
}

function searchJql(v: View, input: SearchInput): Reply {
  const found = searchIssues(v, input.jql, undefined, true);
  if (!Array.isArray(found)) return found;
  let offset = 0;
  if (input.nextPageToken) {
    const o = decodeToken(input.nextPageToken, input.jql);
    if (o === null) return jiraError(400, BAD_TOKEN);
    offset = o;
  }
  const fields = selectFields(input.fields, "none");
  const onlyIds = [...fields].every((f) => f === "id" || f === "key");
  const cap = onlyIds ? 5000 : 100;
  const max = Math.max(1, Math.min(cap, input.maxResults ?? 50));
  const slice = found.slice(offset, offset + max);
  const isLast = offset + slice.length >= found.length;
  const issues = slice.map((i) => {
    const out = presentIssue(v, i, { fields, expand: input.expand });
    if (onlyIds) delete out.fields;
    return out;
  });
  const body: Record<string, unknown> = { issues };
  if (input.expand.has("names"))
    body.names = Object.fromEntries([...fields].flatMap((f) => (fieldById.has(f) ? [[f, fieldById.get(f)!.name]] : [])));
  if (!isLast) body.nextPageToken = encodeToken(offset + slice.length, input.jql);
  body.isLast = isLast;
  return json(body);
}

const numberOrNull = (x: unknown): number | null => {
  const n = typeof x === "number" ? x : typeof x === "string" && x !== "" ? Number.parseInt(x, 10) : NaN;
  return Number.isFinite(n) ? n : null;
};

export function searchRoutes(router: Router, state: () => JiraState): void {
  both(router, state, "get", "/search/jql", (req, v) =>
    searchJql(v, {
      jql: req.query.get("jql") ?? "",
      nextPageToken: req.query.get("nextPageToken"),
      maxResults: numberOrNull(req.query.get("maxResults")),
      fields: req.query.getAll("fields").flatMap((f) => f.split(",")),
      expand: expandSet(req),
    }),
  );
  both(
    router,
    state,
    "post",
    "/search/jql",
    (req: SandboxRequest, v) => {
      const b = bodyObject(req);
      if (b.jql !== undefined && typeof b.jql !== "string") return jiraError(400, "The JQL query must be a string.");
      return searchJql(v, {
        jql: (b.jql as string | undefined) ?? "",
        nextPageToken: typeof b.nextPageToken === "string" ? b.nextPageToken : null,
        maxResults: numberOrNull(b.maxResults),
        fields: Array.isArray(b.fields)
          ? b.fields.filter((f): f is string => typeof f === "string")
          : typeof b.fields === "string"
            ? b.fields.split(",")
            : [],
        expand: expandSet(req, b.expand),
      });
    },
    true,
  );
  both(
    router,
    state,
    "post",
    "/search/approximate-count",
    (req, v) => {
      const b = bodyObject(req);
      const found = searchIssues(v, typeof b.jql === "string" ? b.jql : "", undefined, true);
      return Array.isArray(found) ? json({ count: found.length }) : found;
    },
    true,
  );
  for (const method of ["get", "post"] as const) both(router, state, method, "/search", () => jiraError(410, REMOVED), true);
}
