import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LogEntryDto } from "../../../contract/logs";
import { createLogger } from "../../lib/logger";
import { createMetrics } from "../../lib/metrics";
import { signedInAs } from "../../test/factories";
import { createFakeClock } from "../../test/fake-clock";
import type { TestClient } from "../../test/http-client";
import { startTestApp, type TestApp } from "../../test/test-app";
import { openTestDatabase } from "../../test/test-database";
import { createRequestLogRepo } from "./request-log.repo";
import { createCursors } from "../../lib/cursor";
import { createSecretBox } from "../../lib/secret-box";
import { createRequestLogService } from "./request-log.service";

/** docs/decisions.md#request-log: the request log, its batching, the admin API over it, and retention. */
describe("request log", () => {
  let t: TestApp;
  let admin: TestClient;
  const logs = async (query = "") => {
    await t.container.services.requestLog.flush();
    return admin.get<LogEntryDto[]>(`/api/admin/logs${query}`);
  };

  beforeAll(async () => {
    t = await startTestApp();
    admin = (await signedInAs(t, ["admin"])).client;
  });
  afterAll(() => t.close());

  it("stores every field as recorded, whatever characters the text holds (one INSERT of unnested columns)", async () => {
    const database = await openTestDatabase();
    const repo = createRequestLogRepo(database.db);
    try {
      const userId = randomUUID();
      const awkward = `/mcp/{a,b}"quoted" \\back\\slash NULL 'single' é✓`;
      const at = new Date("2026-11-24T10:00:00.123Z");
      await repo.insertMany([
        {
          at,
          method: "POST",
          path: awkward,
          statusCode: 201,
          durationMs: 12.5,
          clientId: "bk_client,1",
          userId,
          ip: "::1",
          userAgent: "NULL",
          rpcMethod: "tools/call",
          toolName: "jira_search",
        },
        {
          at,
          method: "GET",
          path: "/oauth/token",
          statusCode: 400,
          durationMs: 0.25,
          clientId: null,
          userId: null,
          ip: null,
          userAgent: null,
          rpcMethod: null,
          toolName: null,
        },
      ]);
      const rows = await repo.list({ limit: 10 });
      const byPath = new Map(rows.map((r) => [r.path, r]));
      expect(byPath.get(awkward)).toMatchObject({
        at,
        method: "POST",
        statusCode: 201,
        durationMs: 12.5,
        clientId: "bk_client,1",
        userId,
        ip: "::1",
        userAgent: "NULL",
        rpcMethod: "tools/call",
        toolName: "jira_search",
      });
      expect(byPath.get("/oauth/token")).toMatchObject({
        method: "GET",
        statusCode: 400,
        durationMs: 0.25,
        clientId: null,
        userId: null,
        ip: null,
        userAgent: null,
        rpcMethod: null,
        toolName: null,
      });
    } finally {
      await database.close();
    }
  });

  it("records admin, OAuth and discovery requests with who, where and how long; never the query", async () => {
    await admin.get("/api/admin/oauth-clients?secret=hunter2", { "user-agent": "log-test/1.0" });
    await fetch(`${t.baseUrl}/.well-known/oauth-authorization-server`);
    await fetch(`${t.baseUrl}/oauth/token`, { method: "POST" });
    const res = await logs();
    expect(res.status).toBe(200);
    const clients = res.body.find((e) => e.endpoint === "/api/admin/oauth-clients");
    expect(clients).toMatchObject({
      method: "GET",
      statusCode: 200,
      userAgent: "log-test/1.0",
      ipAddress: expect.stringMatching(/127\.0\.0\.1/),
      userId: expect.any(String),
      clientId: null,
    });
    expect(clients!.responseTime).toBeGreaterThan(0);
    expect(JSON.stringify(res.body)).not.toContain("hunter2");
    expect(res.body.some((e) => e.endpoint === "/.well-known/oauth-authorization-server" && e.statusCode === 200)).toBe(true);
    expect(res.body.some((e) => e.endpoint === "/oauth/token" && e.method === "POST" && e.statusCode >= 400)).toBe(true);
  });

  it("does not record the console's own reads or its pages", async () => {
    const marker = randomUUID();
    await admin.get(`/api/session?m=${marker}`);
    await fetch(`${t.baseUrl}/users`);
    const res = await logs("?limit=5000");
    expect(res.body.some((e) => e.endpoint === "/api/session" || e.endpoint === "/users")).toBe(false);
  });

  it("lists newest first, filtered by status, method and search, bounded by limit and before", async () => {
    await admin.get("/api/admin/nope-such-route");
    const all = (await logs("?limit=5000")).body;
    const times = all.map((e) => Date.parse(e.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const errors = (await logs("?status=error")).body;
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((e) => e.statusCode >= 400)).toBe(true);
    expect((await logs("?status=success")).body.every((e) => e.statusCode < 400)).toBe(true);
    expect((await logs("?method=post")).body.every((e) => e.method === "POST")).toBe(true);
    expect((await logs("?search=NOPE-SUCH")).body.map((e) => e.endpoint)).toEqual(["/api/admin/nope-such-route"]);
    expect((await logs("?search=%25")).body).toEqual([]); // a LIKE wildcard is taken literally
    expect((await logs("?limit=1")).body).toHaveLength(1);
    const before = all[Math.floor(all.length / 2)]!.createdAt;
    expect((await logs(`?before=${encodeURIComponent(before)}`)).body.every((e) => Date.parse(e.createdAt) < Date.parse(before))).toBe(
      true,
    );
  });

  it("refuses bad filters with field messages", async () => {
    for (const [query, field] of [
      ["?limit=0", "limit"],
      ["?limit=abc", "limit"],
      ["?status=maybe", "status"],
      ["?method=BREW", "method"],
      ["?before=yesterday", "before"],
      [`?search=${"x".repeat(201)}`, "search"],
    ] as const) {
      const res = await admin.get(`/api/admin/logs${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.fields[field], query).toBeTruthy();
    }
  });

  it("a viewer may read the log; a user without logs.read may not; anonymous is 401", async () => {
    expect((await (await signedInAs(t, ["viewer"])).client.get("/api/admin/logs")).status).toBe(200);
    expect((await (await signedInAs(t, [])).client.get("/api/admin/logs")).status).toBe(403);
    expect((await t.client().get("/api/admin/logs")).status).toBe(401);
  });
});

describe("request log switched off (REQUEST_LOG=false)", () => {
  it("records nothing, and says so in the settings in force", async () => {
    const t = await startTestApp({ config: { REQUEST_LOG: false } });
    try {
      const admin = (await signedInAs(t, ["admin"])).client;
      await admin.get("/api/admin/oauth-clients");
      await fetch(`${t.baseUrl}/.well-known/oauth-authorization-server`);
      await t.container.services.requestLog.flush();
      expect((await admin.get<LogEntryDto[]>("/api/admin/logs")).body).toEqual([]);
      const settings = (await admin.get<{ key: string; value: string }[]>("/api/admin/config")).body;
      expect(settings.find((e) => e.key === "logs.enabled")?.value).toBe("false");
    } finally {
      await t.close();
    }
  });
});

describe("request log batching and retention", () => {
  it("20,000 records are all written, in batches, and close() loses nothing", async () => {
    const database = await openTestDatabase();
    const clock = createFakeClock();
    const service = createRequestLogService({
      repo: createRequestLogRepo(database.db),
      cursors: createCursors(createSecretBox(randomBytes(32))),
      clock,
      log: createLogger({ level: "silent" }),
      batchSize: 500,
      flushIntervalMs: 60_000,
    });
    try {
      for (let i = 0; i < 20_000; i++)
        service.record({
          at: clock.now(),
          method: "POST",
          path: "/mcp",
          statusCode: 200,
          durationMs: 1.5,
          clientId: "c",
          userId: null,
          ip: "127.0.0.1",
          userAgent: "x",
          rpcMethod: "tools/call",
          toolName: "jira_search",
        });
      await service.close();
      expect(service.buffered).toBe(0);
      expect((await service.countSince(60_000)).total).toBe(20_000);
    } finally {
      await database.close();
    }
  });

  it("prune removes rows older than the retention, and only those", async () => {
    const database = await openTestDatabase();
    const clock = createFakeClock();
    const service = createRequestLogService({
      repo: createRequestLogRepo(database.db),
      cursors: createCursors(createSecretBox(randomBytes(32))),
      clock,
      log: createLogger({ level: "silent" }),
    });
    try {
      const row = (at: Date, statusCode = 200) => ({
        at,
        method: "GET",
        path: "/api/admin/logs",
        statusCode,
        durationMs: 1,
        clientId: null,
        userId: null,
        ip: null,
        userAgent: null,
        rpcMethod: null,
        toolName: null,
      });
      service.record(row(new Date(clock.now().getTime() - 31 * 86_400_000)));
      service.record(row(new Date(clock.now().getTime() - 29 * 86_400_000), 429));
      await service.flush();
      expect(await service.prune(30)).toBe(1);
      expect(await service.countSince(60 * 86_400_000)).toEqual({ total: 1, rateLimited: 1 });
    } finally {
      await service.close();
      await database.close();
    }
  });

  it("a batch the database refuses is written row by row: a bad row loses only itself, counted, and logged once with the reason", async () => {
    const database = await openTestDatabase();
    const lines: string[] = [];
    const log = createLogger({ level: "info" }, { write: (line: string) => void lines.push(line) } as unknown as NodeJS.WritableStream);
    const metrics = createMetrics();
    const service = createRequestLogService({
      repo: createRequestLogRepo(database.db),
      cursors: createCursors(createSecretBox(randomBytes(32))),
      clock: createFakeClock(),
      log,
      flushIntervalMs: 3_600_000,
      onDropped: (reason, rows) => metrics.logRowsDropped("request_log", reason, rows),
    });
    const row = (userId: string | null, clientId = "c") => ({
      at: new Date(),
      method: "GET",
      path: "/oauth/token",
      statusCode: 200,
      durationMs: 1,
      clientId,
      userId,
      ip: null,
      userAgent: null,
      rpcMethod: null,
      toolName: null,
    });
    try {
      // A user id that is not a UUID still fails its row (22P02) however its text is made storable;
      // the database's message quotes it, so it stands for anything a client could send.
      for (const r of [row(null), row("secret-user-value", "secret-client-value"), row(null), row(null), row(null)]) service.record(r);
      await service.flush();
      expect((await service.countSince(60_000)).total).toBe(4);
      for (const r of [row(null), row("also-not-a-uuid")]) service.record(r);
      await service.flush();
      expect((await service.countSince(60_000)).total).toBe(5);

      const dropLines = lines.filter((l) => l.includes("could not be written"));
      expect(dropLines).toHaveLength(1);
      expect(JSON.parse(dropLines[0]!)).toMatchObject({ reason: "invalid_data", code: "22P02" });
      expect(lines.join("\n")).not.toContain("secret-client-value");
      expect(lines.join("\n")).not.toContain("secret-user-value");
      expect(await metrics.render()).toMatch(/^bridgekeeper_log_rows_dropped_total\{log="request_log",reason="invalid_data"\} 2$/m);
    } finally {
      await service.close();
      await database.close();
    }
  });
});
