import { describe, expect, it } from "vitest";
import { filtersToApiQuery, filtersToUrlParams, hasActiveFilters, NO_FILTERS, parseFilters, SEARCH_MAX_LENGTH, withQuery } from "./filters";

describe("parseFilters (the address bar)", () => {
  it("reads search, status and method", () => {
    expect(parseFilters(new URLSearchParams("search=jira&status=error&method=POST"))).toEqual({
      ...NO_FILTERS,
      search: "jira",
      status: "error",
      method: "POST",
    });
  });

  it("reads the MCP outcome and whether console calls are shown", () => {
    expect(parseFilters(new URLSearchParams("outcome=tool_error&console=1"))).toEqual({
      ...NO_FILTERS,
      outcome: "tool_error",
      console: true,
    });
    expect(parseFilters(new URLSearchParams("outcome=fine&console=yes"))).toEqual(NO_FILTERS);
  });

  it("falls back to All for anything it does not know", () => {
    expect(parseFilters(new URLSearchParams("status=teapot&method=BREW"))).toEqual(NO_FILTERS);
    // Methods the server knows but the screen does not offer are not half-applied.
    expect(parseFilters(new URLSearchParams("method=PATCH&status=SUCCESS"))).toEqual(NO_FILTERS);
    expect(parseFilters(new URLSearchParams(""))).toEqual(NO_FILTERS);
  });

  it("accepts a lower-case method", () => {
    expect(parseFilters(new URLSearchParams("method=delete")).method).toBe("DELETE");
  });

  it("cuts an over-long search to what the server accepts", () => {
    const parsed = parseFilters(new URLSearchParams({ search: "x".repeat(10_240) }));
    expect(parsed.search).toHaveLength(SEARCH_MAX_LENGTH);
  });
});

describe("filtersToUrlParams", () => {
  it("writes only what differs from All and keeps other parameters", () => {
    const params = filtersToUrlParams({ ...NO_FILTERS, search: "tools/call", status: "success" }, new URLSearchParams("method=GET&tab=x"));
    expect(params.toString()).toBe("tab=x&search=tools%2Fcall&status=success");
  });

  it("round-trips through parseFilters", () => {
    const filters = { search: "a b&c", status: "error", method: "PUT", outcome: "rpc_error", console: true } as const;
    expect(parseFilters(filtersToUrlParams(filters))).toEqual(filters);
    expect(filtersToUrlParams(NO_FILTERS).toString()).toBe("");
  });
});

describe("filtersToApiQuery (list, summary and export)", () => {
  it("asks for client traffic only, by default", () => {
    expect(filtersToApiQuery(NO_FILTERS)).toBe("source=traffic");
    expect(filtersToApiQuery({ ...NO_FILTERS, console: true })).toBe("");
    expect(withQuery("/api/admin/logs/export", "")).toBe("/api/admin/logs/export");
  });

  it("sends status, method, outcome, source and the trimmed search, in a fixed order", () => {
    expect(filtersToApiQuery({ search: "  jira_search ", status: "error", method: "GET", outcome: "tool_error", console: false })).toBe(
      "status=error&method=GET&outcome=tool_error&source=traffic&search=jira_search",
    );
    expect(filtersToApiQuery({ ...NO_FILTERS, search: "   ", method: "DELETE", console: true })).toBe("method=DELETE");
  });

  it("encodes what a search may hold", () => {
    const query = filtersToApiQuery({ ...NO_FILTERS, search: "a&b=c d/é" });
    expect(new URLSearchParams(query).get("search")).toBe("a&b=c d/é");
    expect(withQuery("/api/admin/logs/summary", query)).toBe(`/api/admin/logs/summary?${query}`);
  });
});

describe("hasActiveFilters", () => {
  it("is false for no filters or a blank search, true for any filter", () => {
    expect(hasActiveFilters(NO_FILTERS)).toBe(false);
    expect(hasActiveFilters({ ...NO_FILTERS, search: "  " })).toBe(false);
    expect(hasActiveFilters({ ...NO_FILTERS, search: "x" })).toBe(true);
    expect(hasActiveFilters({ ...NO_FILTERS, status: "success" })).toBe(true);
    expect(hasActiveFilters({ ...NO_FILTERS, method: "GET" })).toBe(true);
    expect(hasActiveFilters({ ...NO_FILTERS, outcome: "ok" })).toBe(true);
    // Showing the console's calls too narrows nothing.
    expect(hasActiveFilters({ ...NO_FILTERS, console: true })).toBe(false);
  });
});
