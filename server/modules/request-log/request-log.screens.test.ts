import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LogEntryDto, LogSummaryDto } from "../../../contract/logs";
import type { EndpointStatDto, StatsDto, TrafficMinuteDto } from "../../../contract/stats";
import { signedInAs } from "../../test/factories";
import type { TestClient } from "../../test/http-client";
import { startTestApp, type TestApp } from "../../test/test-app";
import type { RequestLogEntry } from "./request-log.service";

/**
 * What the Logs screen and the dashboard read (issue 12): the log paged by cursor with every
 * filter, the totals over the same filters (from the per-minute sums or the rows), the CSV
 * export, one entry, and the dashboard's stats, all moving as traffic happens.
 */
describe("request log for the console: pages, totals, CSV, stats", () => {
  let t: TestApp;
  let admin: TestClient;
  /** A client id no other row carries: filters on it see only this test's rows. */
  const client = `bk_${randomUUID()}`;
  /** Whole minutes in the past, away from the rows the test's own requests write. */
  const T0 = Date.parse("2026-03-02T10:00:00Z");
  const row = (over: Partial<RequestLogEntry> = {}): RequestLogEntry => ({
    at: new Date(T0),
    method: "GET",
    path: "/api/admin/logs",
    statusCode: 200,
    durationMs: 10,
    clientId: client,
    userId: null,
    ip: "10.0.0.1",
    userAgent: "tester",
    rpcMethod: null,
    toolName: null,
    ...over,
  });
  const record = async (rows: RequestLogEntry[]) => {
    for (const r of rows) t.container.services.requestLog.record(r);
    await t.container.services.requestLog.flush();
  };
  const get = async <T>(path: string) => {
    await t.container.services.requestLog.flush();
    return admin.get<T>(path);
  };

  beforeAll(async () => {
    t = await startTestApp();
    admin = (await signedInAs(t, ["admin"])).client;
    // 30 rows over three minutes: 20 successes of 10 ms and 10 errors of 40 ms; POST for the tools/call ones.
    const rows: RequestLogEntry[] = [];
    for (let i = 0; i < 30; i++) {
      const error = i % 3 === 0;
      rows.push(
        row({
          at: new Date(T0 + i * 6_000),
          statusCode: error ? 502 : 200,
          durationMs: error ? 40 : 10,
          method: i % 5 === 0 ? "POST" : "GET",
          path: i % 5 === 0 ? "/mcp" : `/api/atlassian/jira/rest/api/3/issue/BK-${i}`,
          toolName: i % 5 === 0 ? "jira_search" : null,
        }),
      );
    }
    await record(rows);
  });
  afterAll(() => t.close());

  it("pages newest first with a cursor in X-Next-Cursor and Link, every row once, and the same filters kept", async () => {
    const seen: LogEntryDto[] = [];
    let path = `/api/admin/logs?clientId=${client}&limit=7`;
    for (let pages = 0; pages < 10; pages++) {
      const res = await get<LogEntryDto[]>(path);
      expect(res.status).toBe(200);
      seen.push(...res.body);
      const next = res.headers.get("x-next-cursor");
      if (!next) {
        expect(res.headers.get("link")).toBeNull();
        break;
      }
      const link = res.headers.get("link")!;
      expect(link).toMatch(/^<\/api\/admin\/logs\?.+>; rel="next"$/);
      path = link.slice(1, link.indexOf(">"));
      expect(new URL(path, t.baseUrl).searchParams.get("clientId")).toBe(client);
    }
    expect(seen).toHaveLength(30);
    expect(new Set(seen.map((e) => e.id)).size).toBe(30);
    const times = seen.map((e) => Date.parse(e.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it("filters by status code, tool, search (tool names too) and a time range", async () => {
    expect((await get<LogEntryDto[]>(`/api/admin/logs?clientId=${client}&statusCode=502`)).body).toHaveLength(10);
    expect(
      (await get<LogEntryDto[]>(`/api/admin/logs?clientId=${client}&tool=jira_search`)).body.every(
        (e) => e.toolName === "jira_search" && e.endpoint === "/mcp",
      ),
    ).toBe(true);
    expect((await get<LogEntryDto[]>(`/api/admin/logs?clientId=${client}&search=JIRA_SEA`)).body).toHaveLength(6);
    const from = new Date(T0 + 60_000).toISOString();
    const to = new Date(T0 + 120_000).toISOString();
    const range = (await get<LogEntryDto[]>(`/api/admin/logs?clientId=${client}&from=${from}&to=${to}`)).body;
    expect(range).toHaveLength(10);
    expect(range.every((e) => e.createdAt >= from && e.createdAt < to)).toBe(true);
  });

  it("refuses a tampered cursor, another filter's cursor, a backwards range and a 10 KB search with field messages", async () => {
    const first = await get<LogEntryDto[]>(`/api/admin/logs?clientId=${client}&limit=5`);
    const cursor = first.headers.get("x-next-cursor")!;
    const [body, tag] = cursor.split(".");
    const flipped = `${body!.slice(0, -1)}${body!.endsWith("A") ? "B" : "A"}.${tag}`;
    for (const [query, field] of [
      [`?clientId=${client}&limit=5&cursor=${flipped}`, "cursor"],
      [`?clientId=${client}&limit=5&status=error&cursor=${cursor}`, "cursor"],
      ["?cursor=not-a-cursor", "cursor"],
      [`?from=2026-03-02T11:00:00Z&to=2026-03-02T10:00:00Z`, "from"],
      [`?search=${"x".repeat(10_000)}`, "search"],
      ["?statusCode=700", "statusCode"],
      ["?tool=DROP%20TABLE", "tool"],
    ] as const) {
      const res = await get<{ error: { fields: Record<string, string> } }>(`/api/admin/logs${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.fields[field], query).toBeTruthy();
    }
    expect((await get(`/api/admin/logs/summary?from=2026-03-02T11:00:00Z&to=2026-03-02T10:00:00Z`)).status).toBe(400);
    expect((await get(`/api/admin/logs/export?method=BREW`)).status).toBe(400);
  });

  it("totals over the filtered set agree with the rows, from the per-minute sums and from a scan alike", async () => {
    const from = new Date(T0).toISOString();
    const to = new Date(T0 + 180_000).toISOString();
    // Whole-minute range, no search: answered from the per-minute sums.
    const byMinute = (await get<LogSummaryDto>(`/api/admin/logs/summary?from=${from}&to=${to}`)).body;
    expect(byMinute).toEqual({ total: 30, successful: 20, errors: 10, averageResponseTime: 20 });
    // A client filter: answered from the rows; the same figures.
    expect((await get<LogSummaryDto>(`/api/admin/logs/summary?clientId=${client}`)).body).toEqual(byMinute);
    expect((await get<LogSummaryDto>(`/api/admin/logs/summary?from=${from}&to=${to}&status=error`)).body).toEqual({
      total: 10,
      successful: 0,
      errors: 10,
      averageResponseTime: 40,
    });
    expect((await get<LogSummaryDto>(`/api/admin/logs/summary?from=${from}&to=${to}&method=POST`)).body).toMatchObject({ total: 6 });
    expect((await get<LogSummaryDto>(`/api/admin/logs/summary?clientId=${client}&search=nothing-matches-this`)).body).toEqual({
      total: 0,
      successful: 0,
      errors: 0,
      averageResponseTime: null,
    });
  });

  it("exports every matching row as RFC 4180 CSV, quoting commas, quotes and line breaks, defusing formulas", async () => {
    const csvClient = `bk_${randomUUID()}`;
    const awkward = ['Mozilla/5.0 (X11, Linux) "quoted"', "line\nbreak\r\nagent", '=HYPERLINK("http://evil")', "plain"];
    const rows: RequestLogEntry[] = [];
    // More than one export page (1,000 rows), so the stream crosses pages.
    for (let i = 0; i < 1205; i++)
      rows.push(row({ at: new Date(T0 + 86_400_000 + i), clientId: csvClient, userAgent: awkward[i % awkward.length]! }));
    await record(rows);
    const res = await get(`/api/admin/logs/export?clientId=${csvClient}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="mcp-server-logs-\d{4}-\d{2}-\d{2}\.csv"$/);
    const text = res.text;
    expect(text.startsWith("Timestamp,Method,Endpoint,Status Code,Response Time,Client ID,IP Address,User Agent\r\n")).toBe(true);
    const records = parseCsv(text);
    expect(records).toHaveLength(1 + 1205);
    expect(records.slice(1).every((r) => r.length === 8 && r[5] === csvClient)).toBe(true);
    const agents = new Set(records.slice(1).map((r) => r[7]));
    expect(agents).toEqual(new Set(['Mozilla/5.0 (X11, Linux) "quoted"', "line\nbreak\r\nagent", '\'=HYPERLINK("http://evil")', "plain"]));
    expect(records[1]![0]).toBe(new Date(T0 + 86_400_000 + 1204).toISOString());
    // A filter applies to the export as to the list.
    expect(parseCsv((await get(`/api/admin/logs/export?clientId=${csvClient}&status=error`)).text)).toHaveLength(1);
  });

  it("search takes %, _ and \\ literally", async () => {
    const searchClient = `bk_${randomUUID()}`;
    const paths = [
      "/api/admin/x/50%off",
      "/api/admin/x/500off",
      "/api/admin/x/a_b",
      "/api/admin/x/axb",
      "/api/admin/x/back\\slash",
      "/api/admin/x/backslash",
    ];
    await record(paths.map((path, i) => row({ at: new Date(T0 + 2 * 86_400_000 + i), clientId: searchClient, path })));
    const found = async (search: string) =>
      (await get<LogEntryDto[]>(`/api/admin/logs?clientId=${searchClient}&search=${encodeURIComponent(search)}`)).body.map(
        (e) => e.endpoint,
      );
    expect(await found("50%")).toEqual(["/api/admin/x/50%off"]);
    expect(await found("a_b")).toEqual(["/api/admin/x/a_b"]);
    expect(await found("k\\s")).toEqual(["/api/admin/x/back\\slash"]);
    expect(await found("%")).toEqual(["/api/admin/x/50%off"]);
    expect(
      (await get<LogSummaryDto>(`/api/admin/logs/summary?clientId=${searchClient}&search=${encodeURIComponent("a_b")}`)).body.total,
    ).toBe(1);
  });

  it("defuses a formula in a CSV cell whose first character that is not a space starts one, fullwidth forms too", async () => {
    const csvClient = `bk_${randomUUID()}`;
    const agents = [" =1+1", "  @SUM(A1)", "\u00a0+cmd", " \t-2", "\uff1d1+1", "\uff0bx", "\uff0dx", "\uff20x", "\r=x", "plain -x", "a=b"];
    await record(agents.map((userAgent, i) => row({ at: new Date(T0 + 3 * 86_400_000 + i), clientId: csvClient, userAgent })));
    const records = parseCsv((await get(`/api/admin/logs/export?clientId=${csvClient}`)).text).slice(1);
    expect(records.map((r) => r[7]).reverse()).toEqual([...agents.slice(0, -2).map((a) => `'${a}`), "plain -x", "a=b"]);
  });

  it("reads one entry; an unknown or malformed id is 404", async () => {
    const [entry] = (await get<LogEntryDto[]>(`/api/admin/logs?clientId=${client}&limit=1`)).body;
    expect((await get<LogEntryDto>(`/api/admin/logs/${entry!.id}`)).body).toEqual({
      ...entry,
      requestId: null,
      headers: {},
      toolCall: null,
    });
    expect((await get(`/api/admin/logs/${randomUUID()}`)).status).toBe(404);
    expect((await get(`/api/admin/logs/not-an-id`)).status).toBe(404);
  });

  it("the dashboard's stats are measured: N requests more, N more per hour; 429s counted; clients and streams counted", async () => {
    const before = (await get<StatsDto>("/api/stats")).body;
    expect(before).toMatchObject({ serverStatus: "Running", activeSSEConnections: 0, activeOAuthSessions: 0 });
    expect(before.uptime).toBeGreaterThanOrEqual(0);
    const now = Date.now();
    await record([
      row({ at: new Date(now), statusCode: 429 }),
      row({ at: new Date(now), statusCode: 429 }),
      row({ at: new Date(now - 30 * 60_000) }),
      row({ at: new Date(now - 2 * 3_600_000) }),
    ]);
    const created = await admin.post("/api/admin/oauth-clients", {
      name: "stats-client",
      redirectUris: ["https://example.test/cb"],
      scopes: ["read"],
      isActive: true,
    });
    expect(created.status).toBe(201);
    // /api/stats is not a logged path; the 3 rows of the last hour and the client creation are (the 2-hour-old row is not).
    await expect.poll(async () => (await get<StatsDto>("/api/stats")).body.apiRequestsPerHour! - before.apiRequestsPerHour!).toBe(3 + 1);
    const after = (await get<StatsDto>("/api/stats")).body;
    expect(after.rateLimitHits! - before.rateLimitHits!).toBe(2);
    expect(after.totalOAuthClients! - before.totalOAuthClients!).toBe(1);
  });

  it("the API Endpoints screen's medians are measured over the last hour, per endpoint (exact paths and proxy prefixes); a dash where none was seen", async () => {
    const now = Date.now();
    await record([
      ...[10, 20, 30].map((ms) => row({ at: new Date(now), method: "POST", path: "/mcp", durationMs: ms })),
      row({ at: new Date(now - 2 * 3_600_000), method: "POST", path: "/mcp", durationMs: 5000 }),
      ...[5, 7].map((ms) => row({ at: new Date(now), path: "/api/atlassian/jira/rest/api/3/issue/BK-1", durationMs: ms })),
      row({ at: new Date(now), path: "/api/atlassian/confluencex/not-the-proxy", durationMs: 1 }),
    ]);
    const stats = (await get<EndpointStatDto[]>("/api/admin/endpoint-stats")).body;
    const of = (method: string, path: string) => stats.find((e) => e.method === method && e.path === path)!;
    expect(stats.map((e) => `${e.method} ${e.path}`)).toContain("GET /api/bitbucket/*");
    expect(of("POST", "/mcp")).toEqual({ method: "POST", path: "/mcp", requests: 3, medianMs: 20 });
    expect(of("GET", "/api/atlassian/jira/*")).toEqual({ method: "GET", path: "/api/atlassian/jira/*", requests: 2, medianMs: 6 });
    expect(of("GET", "/api/atlassian/confluence/*")).toMatchObject({ requests: 0, medianMs: null });
    expect(of("GET", "/oauth/authorize")).toMatchObject({ requests: 0, medianMs: null });
    expect(of("SSE", "/api/sse/stream").medianMs).toBeNull();
    expect(of("GET", "/api/admin/logs").requests).toBeGreaterThan(0);
  });

  it("the dashboard's traffic: 60 consecutive minutes, requests and errors moving as traffic happens", async () => {
    const sum = (list: TrafficMinuteDto[], pick: (m: TrafficMinuteDto) => number) => list.reduce((a, m) => a + pick(m), 0);
    const before = (await get<TrafficMinuteDto[]>("/api/admin/stats/traffic")).body;
    expect(before).toHaveLength(60);
    const minutes = before.map((m) => Date.parse(m.minute));
    expect(minutes.every((m, i) => i === 0 || m - minutes[i - 1]! === 60_000)).toBe(true);
    expect(before.every((m) => m.upstream.jira === 0 && m.upstream.confluence === 0 && m.upstream.bitbucket === 0)).toBe(true);
    await record([
      row({ at: new Date() }),
      row({ at: new Date() }),
      row({ at: new Date() }),
      row({ at: new Date(), statusCode: 500 }),
      row({ at: new Date(), statusCode: 404 }),
    ]);
    const after = (await get<TrafficMinuteDto[]>("/api/admin/stats/traffic")).body;
    // Our 5 rows, and the first traffic request itself (logged once answered).
    expect(sum(after, (m) => m.requests) - sum(before, (m) => m.requests)).toBe(5 + 1);
    expect(sum(after, (m) => m.errors) - sum(before, (m) => m.errors)).toBe(2);
  });

  it("stats need stats.read: a viewer may, a user without it may not, anonymous is 401", async () => {
    expect((await (await signedInAs(t, ["viewer"])).client.get("/api/stats")).status).toBe(200);
    expect((await (await signedInAs(t, [])).client.get("/api/admin/stats")).status).toBe(403);
    expect((await t.client().get("/api/stats")).status).toBe(401);
    expect((await (await signedInAs(t, [])).client.get("/api/admin/logs/summary")).status).toBe(403);
    expect((await t.client().get("/api/admin/logs/export")).status).toBe(401);
    expect((await (await signedInAs(t, [])).client.get("/api/admin/endpoint-stats")).status).toBe(403);
    expect((await t.client().get("/api/admin/stats/traffic")).status).toBe(401);
  });
});

/** A strict RFC 4180 reader (CRLF records, quoted fields with doubled quotes and line breaks inside). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = "";
  let fields: string[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (text[i] === '"' && text[i + 1] === '"') {
          field += '"';
          i += 2;
        } else if (text[i] === '"') {
          i++;
          break;
        } else field += text[i++];
      }
    } else if (text[i] === ",") {
      fields.push(field);
      field = "";
      i++;
    } else if (text.startsWith("\r\n", i)) {
      fields.push(field);
      records.push(fields);
      fields = [];
      field = "";
      i += 2;
    } else field += text[i++];
  }
  return records;
}
