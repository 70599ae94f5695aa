import { describe, expect, it } from "vitest";
import { filtersToApiQuery, filtersToUrlParams, hasActiveFilters, NO_FILTERS, parseFilters, SEARCH_MAX_LENGTH, withQuery } from "./filters";

describe("parseFilters (the address bar)", () => {
  it("reads search, status and method", () => {
    expect(parseFilters(new URLSearchParams("search=jira&status=error&method=POST"))).toEqual({ search: "jira", status: "error", method: "POST" });
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
    const params = filtersToUrlParams({ search: "tools/call", status: "success", method: "all" }, new URLSearchParams("method=GET&tab=x"));
    expect(params.toString()).toBe("tab=x&search=tools%2Fcall&status=success");
  });

  it("round-trips through parseFilters", () => {
    const filters = { search: "a b&c", status: "error", method: "PUT" } as const;
    expect(parseFilters(filtersToUrlParams(filters))).toEqual(filters);
    expect(filtersToUrlParams(NO_FILTERS).toString()).toBe("");
  });
});

describe("filtersToApiQuery (list, summary and export)", () => {
  it("is empty without filters", () => {
    expect(filtersToApiQuery(NO_FILTERS)).toBe("");
    expect(withQuery("/api/admin/logs/export", "")).toBe("/api/admin/logs/export");
  });

  it("sends status, method and the trimmed search, in a fixed order", () => {
    expect(filtersToApiQuery({ search: "  jira_search ", status: "error", method: "GET" })).toBe("status=error&method=GET&search=jira_search");
    expect(filtersToApiQuery({ search: "   ", status: "all", method: "DELETE" })).toBe("method=DELETE");
  });

  it("encodes what a search may hold", () => {
    const query = filtersToApiQuery({ search: "a&b=c d/é", status: "all", method: "all" });
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
  });
});
