import { describe, expect, it } from "vitest";
import type { LogEntryDto } from "@contract/logs";
import { flattenPages, mergeNewestPage, type LogPage, type LogPages } from "./pages";

const entry = (id: string): LogEntryDto => ({
  id,
  method: "GET",
  endpoint: "/api/mcp/health",
  statusCode: 200,
  responseTime: 3,
  clientId: null,
  ipAddress: "127.0.0.1",
  userAgent: null,
  createdAt: "2026-11-25T12:00:00.000Z",
  userId: null,
  rpcMethod: null,
  toolName: null,
  clientName: null,
  userName: null,
  outcome: null,
  error: null,
});
const page = (ids: string[], nextCursor: string | null): LogPage => ({ entries: ids.map(entry), nextCursor });
const ids = (data: LogPages) => flattenPages(data.pages).map((e) => e.id);

describe("mergeNewestPage (a poll asks for the first page only)", () => {
  const loaded: LogPages = { pages: [page(["r1", "r2", "r3"], "c3"), page(["r4", "r5", "r6"], "c6")], pageParams: [undefined, "c3"] };

  it("puts new rows in front and keeps the older pages and their cursor", () => {
    const merged = mergeNewestPage(loaded, page(["n1", "r1", "r2"], "c2"));
    expect(ids(merged)).toEqual(["n1", "r1", "r2", "r3", "r4", "r5", "r6"]);
    expect(merged.pages.at(-1)?.nextCursor).toBe("c6");
    expect(merged.pageParams).toEqual([undefined, undefined, "c3"]);
  });

  it("drops the old first page once the new one holds all its rows", () => {
    const merged = mergeNewestPage(loaded, page(["r1", "r2", "r3"], "c3"));
    expect(merged.pages).toHaveLength(2);
    expect(ids(merged)).toEqual(["r1", "r2", "r3", "r4", "r5", "r6"]);
    expect(merged.pageParams).toEqual([undefined, "c3"]);
  });

  it("starts again from the new page when more new rows came than a page holds", () => {
    const merged = mergeNewestPage(loaded, page(["n1", "n2", "n3"], "cn3"));
    expect(ids(merged)).toEqual(["n1", "n2", "n3"]);
    expect(merged.pages[0]?.nextCursor).toBe("cn3");
  });

  it("replaces a single loaded page, and takes a page that is the whole log as it is", () => {
    expect(ids(mergeNewestPage({ pages: [page(["r1", "r2"], "c2")], pageParams: [undefined] }, page(["n1", "r1"], "c1")))).toEqual([
      "n1",
      "r1",
    ]);
    expect(ids(mergeNewestPage(loaded, page(["n1", "r1"], null)))).toEqual(["n1", "r1"]);
    expect(ids(mergeNewestPage(undefined, page(["n1"], null)))).toEqual(["n1"]);
  });
});

describe("flattenPages", () => {
  it("lists each row once, in page order", () => {
    expect(flattenPages([page(["a", "b"], "c"), page(["b", "c"], null)]).map((e) => e.id)).toEqual(["a", "b", "c"]);
    expect(flattenPages([])).toEqual([]);
  });
});
