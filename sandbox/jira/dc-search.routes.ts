import { jiraError } from "../core/errors";
import { json, type Handler, type Reply, type SandboxRequest } from "../core/http";
import { fieldById } from "./catalog";
import { dcView, replyJson, SEARCH_MAX_RESULTS, type Adapter } from "./dc-kit";
import { presentIssue, selectFields } from "./issue-view";
import { bodyObject, expandSet } from "./kit";
import type { JiraState } from "./model";
import { searchIssues } from "./search.routes";
import { clock, isRecord, jiraTime, listParam } from "./util";

/**
 * Data Center's search, server info and create metadata, where they differ from the cloud's.
 *
 * Search is REST v2's `/rest/api/2/search` (GET, or POST with `{jql, startAt, maxResults, fields,
 * expand}`): offset pages `{expand, startAt, maxResults, total, issues}` (Jira Server/DC REST
 * reference, "Search for issues using JQL"; pycontribs/jira `search_issues` on a non-cloud
 * instance). `maxResults` is capped by the instance's `jira.search.views.default.max` (1000 by
 * default) and the page says the cap it applied, so a client must step by the issues it got. The
 * cloud's enhanced search (`/search/jql`, `approximate-count`) does not exist there.
 */

const DEFAULT_PAGE = 50;

interface SearchInput {
  jql: string;
  startAt: number;
  maxResults: number;
  fields: string[];
  expand: Set<string>;
}

function search(state: () => JiraState, req: SandboxRequest, input: SearchInput): Reply {
  const v = dcView(state, req);
  const found = searchIssues(v, input.jql);
  if (!Array.isArray(found)) return found;
  const maxResults = Math.min(input.maxResults, v.state.dataCenter?.searchMaxResults ?? SEARCH_MAX_RESULTS);
  const fields = selectFields(input.fields, "*navigable");
  const issues = found.slice(input.startAt, input.startAt + maxResults).map((i) => presentIssue(v, i, { fields, expand: input.expand }));
  const body: Record<string, unknown> = { expand: "schema,names", startAt: input.startAt, maxResults, total: found.length, issues };
  if (input.expand.has("names"))
    body.names = Object.fromEntries([...fields].flatMap((f) => (fieldById.has(f) ? [[f, fieldById.get(f)!.name]] : [])));
  return json(body);
}

/** A whole number of a body (`"startAt": 100`) or query parameter, or the fallback; a negative one is refused as Jira does. */
function count(raw: unknown, fallback: number, name: string): number | Reply {
  if (raw === undefined || raw === null || raw === "") return fallback;
  const n = typeof raw === "number" ? raw : Number(raw);
  if (!Number.isInteger(n)) return jiraError(400, `The value '${String(raw)}' for '${name}' is not a valid number.`);
  return n < 0 ? jiraError(400, `'${name}' must not be negative.`) : n;
}

const searchFrom = (state: () => JiraState, req: SandboxRequest, raw: Record<string, unknown>, fields: string[]): Reply => {
  if (raw.jql !== undefined && raw.jql !== null && typeof raw.jql !== "string") return jiraError(400, "The JQL query must be a string.");
  const startAt = count(raw.startAt, 0, "startAt");
  const maxResults = count(raw.maxResults, DEFAULT_PAGE, "maxResults");
  if (typeof startAt !== "number") return startAt;
  if (typeof maxResults !== "number") return maxResults;
  return search(state, req, {
    jql: typeof raw.jql === "string" ? raw.jql : "",
    startAt,
    maxResults,
    fields,
    expand: expandSet(req, raw.expand),
  });
};

/** What Data Center's server info says (REST v2 `/serverInfo`; pycontribs/jira reads `deploymentType` to tell Server/DC from Cloud). */
const serverInfo =
  (state: () => JiraState): Handler =>
  (req) =>
    json({
      baseUrl: req.origin,
      version: "10.3.5",
      versionNumbers: [10, 3, 5],
      deploymentType: "DataCenter",
      buildNumber: 10_030_005,
      buildDate: "2025-04-08T00:00:00.000+0000",
      databaseBuildNumber: 10_030_005,
      serverTime: jiraTime(clock(state())),
      scmInfo: "3f6c1a2b9d8e7f60514233a1b2c3d4e5f6a7b8c9",
      serverTitle: "Jira",
    });

/**
 * Jira 8.4+'s paged create metadata (`/issue/createmeta/{project}/issuetypes[/{id}]`) answers
 * `{maxResults, startAt, total, isLast, values}` (jira.js's server API, `getCreateIssueMetaProjectIssueTypes`
 * and `getCreateIssueMetaFields`): the cloud's `issueTypes` and `fields` lists under `values`.
 */
const pagedValues =
  (list: "issueTypes" | "fields"): Adapter =>
  (cloud) =>
  async (req) => {
    const reply = await cloud(req);
    const body = replyJson(reply);
    if (reply.status !== 200 || !isRecord(body)) return reply;
    const { [list]: values, ...paging } = body as Record<string, unknown> & { startAt: number; total: number };
    const items = Array.isArray(values) ? values : [];
    return json({ ...paging, isLast: paging.startAt + items.length >= paging.total, values: items });
  };

export function searchAdapters(state: () => JiraState): Record<string, Adapter> {
  const bySearch: Handler = (req) => searchFrom(state, req, Object.fromEntries(req.query), listParam(req.query, "fields"));
  const byPost: Handler = (req) => {
    const b = bodyObject(req);
    const fields = Array.isArray(b.fields)
      ? b.fields.filter((f): f is string => typeof f === "string")
      : typeof b.fields === "string"
        ? b.fields.split(",")
        : [];
    return searchFrom(state, req, b, fields);
  };
  return {
    "GET /rest/api/2/search": () => bySearch,
    "POST /rest/api/2/search": () => byPost,
    "GET /rest/api/2/search/jql": () => null,
    "POST /rest/api/2/search/jql": () => null,
    "POST /rest/api/2/search/approximate-count": () => null,
    "GET /rest/api/2/serverInfo": () => serverInfo(state),
    "GET /rest/api/2/issue/createmeta/:projectIdOrKey/issuetypes": pagedValues("issueTypes"),
    "GET /rest/api/2/issue/createmeta/:projectIdOrKey/issuetypes/:issueTypeId": pagedValues("fields"),
    // The cloud's paged project search and changelog resource are not in Data Center's REST v2.
    "GET /rest/api/2/project/search": () => null,
    "GET /rest/api/2/issue/:issueIdOrKey/changelog": () => null,
  };
}
