import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../lib/logger";
import { createFakeClock } from "../../test/fake-clock";
import { toStatsDto } from "./stats.presenter";
import { createStatsService } from "./stats.service";

// @pglite-only: the figures' rules without a database (its failure is what is tested, as a rejecting count).

describe("the dashboard's figures", () => {
  const started = new Date("2026-01-15T08:00:00Z");
  const build = (failing: boolean) => {
    const lines: string[] = [];
    const log = createLogger({ level: "warn" }, new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) }));
    const count = (n: number) => () => (failing ? Promise.reject(new Error("the database is away")) : Promise.resolve(n));
    const stats = createStatsService({
      clock: createFakeClock(new Date("2026-01-15T09:00:00Z")),
      log,
      connections: { countActive: count(3) },
      instances: {
        live: () =>
          failing
            ? Promise.reject(new Error("the database is away"))
            : Promise.resolve([
                {
                  id: "web-1:41:ab12",
                  version: "1.4.0",
                  hostname: "web-1",
                  startedAt: new Date("2026-01-15T08:30:00Z"),
                  lastSeenAt: new Date("2026-01-15T08:59:50Z"),
                  openStreams: 3,
                  current: true,
                },
              ]),
      },
      oauthClients: { count: count(4) },
      liveGrants: count(5),
      requestLog: { countSince: async () => ({ total: 120, rateLimited: 2 }), endpointMedians: async () => [], perMinute: async () => [] },
      meter: { callsPerMinute: () => [] },
    } as unknown as Parameters<typeof createStatsService>[0]);
    return { stats, lines };
  };

  it("counts what the services measure, the uptime from the start, and each live instance's own uptime", async () => {
    const { stats } = build(false);
    expect(toStatsDto(await stats.figures(started))).toEqual({
      serverStatus: "Running",
      uptime: 3600,
      activeSSEConnections: 3,
      totalOAuthClients: 4,
      activeOAuthSessions: 5,
      apiRequestsPerHour: 120,
      rateLimitHits: 2,
      instances: [
        {
          id: "web-1:41:ab12",
          version: "1.4.0",
          hostname: "web-1",
          startedAt: "2026-01-15T08:30:00.000Z",
          uptime: 1800,
          lastSeenAt: "2026-01-15T08:59:50.000Z",
          openStreams: 3,
          current: true,
        },
      ],
    });
  });

  it("a database that does not answer: the status says so, every count is null (never a 500), the uptime stays, and it is logged", async () => {
    const { stats, lines } = build(true);
    expect(toStatsDto(await stats.figures(started))).toEqual({
      serverStatus: "Database unavailable",
      uptime: 3600,
      activeSSEConnections: null,
      totalOAuthClients: null,
      activeOAuthSessions: null,
      apiRequestsPerHour: null,
      rateLimitHits: null,
      instances: null,
    });
    expect(lines.some((l) => l.includes("stats: the database did not answer"))).toBe(true);
  });
});
