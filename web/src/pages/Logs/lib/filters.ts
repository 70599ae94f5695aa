/**
 * The Logs screen's filters (spec section 2: search, status, method; issue 25: the MCP outcome, and
 * whether the console's own API calls are shown) and the two places they are written: the address
 * bar (a filtered view can be shared and reloaded) and the query string of the list, summary and
 * export calls (the server filters every matching row, docs/decisions.md#csv-export).
 */

/** The server's limit on `search` (contract/logs.ts LogFilterSchema); the input enforces it too. */
export const SEARCH_MAX_LENGTH = 200;

export const STATUS_OPTIONS = [
  { value: "all", label: "All Status" },
  { value: "success", label: "Success (2xx-3xx)" },
  { value: "error", label: "Errors (4xx-5xx)" },
] as const;
export type StatusFilter = (typeof STATUS_OPTIONS)[number]["value"];

export const METHOD_OPTIONS = [
  { value: "all", label: "All Methods" },
  { value: "GET", label: "GET" },
  { value: "POST", label: "POST" },
  { value: "PUT", label: "PUT" },
  { value: "DELETE", label: "DELETE" },
] as const;
export type MethodFilter = (typeof METHOD_OPTIONS)[number]["value"];

export const OUTCOME_OPTIONS = [
  { value: "all", label: "All Outcomes" },
  { value: "ok", label: "MCP: OK" },
  { value: "tool_error", label: "MCP: Tool errors" },
  { value: "rpc_error", label: "MCP: JSON-RPC errors" },
] as const;
export type OutcomeFilter = (typeof OUTCOME_OPTIONS)[number]["value"];

export interface LogFilters {
  search: string;
  status: StatusFilter;
  method: MethodFilter;
  outcome: OutcomeFilter;
  /** The console's own API calls (/api/admin/…) shown too; by default only MCP, OAuth and proxy traffic. */
  console: boolean;
}

export const NO_FILTERS: LogFilters = { search: "", status: "all", method: "all", outcome: "all", console: false };

const isStatus = (value: string | null): value is StatusFilter => STATUS_OPTIONS.some((o) => o.value === value);
const isMethod = (value: string | null): value is MethodFilter => METHOD_OPTIONS.some((o) => o.value === value);
const isOutcome = (value: string | null): value is OutcomeFilter => OUTCOME_OPTIONS.some((o) => o.value === value);

/**
 * Reads the filters from the address bar. Anything unknown falls back to "All" rather than
 * failing (a shared link from another version, a typo); an over-long search is cut to what the
 * server accepts, so a pasted 10 KB address still shows a screen.
 */
export function parseFilters(params: URLSearchParams): LogFilters {
  const status = params.get("status");
  const method = params.get("method")?.toUpperCase() ?? null;
  const outcome = params.get("outcome");
  return {
    search: (params.get("search") ?? "").slice(0, SEARCH_MAX_LENGTH),
    status: isStatus(status) ? status : "all",
    method: isMethod(method) ? method : "all",
    outcome: isOutcome(outcome) ? outcome : "all",
    console: params.get("console") === "1",
  };
}

/** The address bar's query string for these filters; other parameters already there are kept. */
export function filtersToUrlParams(filters: LogFilters, current: URLSearchParams = new URLSearchParams()): URLSearchParams {
  const next = new URLSearchParams(current);
  const put = (name: string, value: string, isDefault: boolean) => (isDefault ? next.delete(name) : next.set(name, value));
  put("search", filters.search, filters.search === "");
  put("status", filters.status, filters.status === "all");
  put("method", filters.method, filters.method === "all");
  put("outcome", filters.outcome, filters.outcome === "all");
  put("console", "1", !filters.console);
  return next;
}

/** Whether anything narrows the list beyond the default view (the empty state then says so). */
export const hasActiveFilters = (filters: LogFilters): boolean =>
  filters.search.trim() !== "" || filters.status !== "all" || filters.method !== "all" || filters.outcome !== "all";

/**
 * The API's query string for these filters (`GET /api/admin/logs`, `/summary`, `/export`), in a
 * fixed order so it can key the cache: `status=error&method=GET&outcome=tool_error&source=traffic&search=jira`.
 * Without the console's calls the source is `traffic`. An empty or blank search is left out; the
 * search is sent trimmed.
 */
export function filtersToApiQuery(filters: LogFilters): string {
  const params = new URLSearchParams();
  if (filters.status !== "all") params.set("status", filters.status);
  if (filters.method !== "all") params.set("method", filters.method);
  if (filters.outcome !== "all") params.set("outcome", filters.outcome);
  if (!filters.console) params.set("source", "traffic");
  const search = filters.search.trim();
  if (search !== "") params.set("search", search);
  return params.toString();
}

/** `/api/admin/logs/export?…` and friends: the path with the query, or the bare path. */
export const withQuery = (path: string, query: string): string => (query ? `${path}?${query}` : path);
