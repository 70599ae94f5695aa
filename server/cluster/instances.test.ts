import { hostname } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InstanceDto, StatsDto } from "../../contract/stats";
import { openEvents } from "../mcp/mcp.test-rig";
import { signedInAs } from "../test/factories";
import type { TestApp } from "../test/test-app";
import { startTestApp } from "../test/test-app";
import { onPostgres, startTwoInstances, type TwoInstances } from "../test/two-instances";
import { openDatabase } from "../db/client";
import { createInstancesRepo } from "./instances.repo";

/**
 * The console sees the cluster (issue 29 item 5): GET /api/admin/stats lists the live instances
 * (id, version, uptime, open streams) and its figures are theirs together.
 */
const statsOf = async (app: TestApp, client: Awaited<ReturnType<typeof signedInAs>>["client"]) => {
  const res = await client.get("/api/admin/stats");
  expect(res.status).toBe(200);
  return res.body as StatsDto;
};

describe("one instance lists itself", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  it("with its version, start, uptime and streams; a row silent for 45 s is not listed", async () => {
    const { client } = await signedInAs(app, ["admin"]);
    const repo = createInstancesRepo(app.container.database.db);
    const now = Date.now();
    // A crashed instance: last seen a minute ago.
    await repo.beat({
      id: "gone:1:dead",
      version: "0.0.1",
      hostname: "gone",
      startedAt: new Date(now - 3_600_000),
      lastSeenAt: new Date(now - 60_000),
    });
    const stats = await statsOf(app, client);
    expect(stats.instances).toHaveLength(1);
    const [me] = stats.instances as InstanceDto[];
    expect(me).toMatchObject({ id: app.container.cluster.instanceId, current: true, openStreams: 0 });
    expect(me!.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(me!.hostname).toBe(hostname());
    expect(me!.uptime).toBeGreaterThanOrEqual(0);
    expect(Date.parse(me!.startedAt)).toBeLessThanOrEqual(Date.parse(me!.lastSeenAt));
    expect(stats.activeSSEConnections).toBe(0);
  });

  it("a viewer may read them; a signed-out caller may not", async () => {
    const { client } = await signedInAs(app, ["viewer"]);
    expect((await client.get("/api/admin/stats")).status).toBe(200);
    expect((await app.client().get("/api/admin/stats")).status).toBe(401);
  });
});

describe.skipIf(!onPostgres)("two instances on one PostgreSQL", () => {
  let two: TwoInstances;
  beforeAll(async () => {
    two = await startTwoInstances();
  });
  afterAll(() => two?.close());

  it("both are listed by either, with the streams each holds; the figures are their sum", async () => {
    const client = await two.newClient("Streams on both");
    const token = await two.readToken(client);
    const open = (t: TestApp) => openEvents(`${t.baseUrl}/api/sse/stream`, { authorization: `Bearer ${token}` });
    const onA = await open(two.a);
    const onB1 = await open(two.b);
    const onB2 = await open(two.b);
    try {
      await Promise.all([onA, onB1, onB2].map((s) => s.nextNamed("connected")));
      const { client: adminOnB } = await signedInAs(two.b, ["admin"]);
      for (const [app, viewer] of [
        [two.a, two.admin],
        [two.b, adminOnB],
      ] as const) {
        const stats = await statsOf(app, viewer);
        const byId = new Map((stats.instances ?? []).map((i) => [i.id, i]));
        expect(byId.get(two.a.container.cluster.instanceId)).toMatchObject({ openStreams: 1, current: app === two.a });
        expect(byId.get(two.b.container.cluster.instanceId)).toMatchObject({ openStreams: 2, current: app === two.b });
        expect(stats.activeSSEConnections).toBe((stats.instances ?? []).reduce((sum, i) => sum + i.openStreams, 0));
      }
    } finally {
      for (const s of [onA, onB1, onB2]) s.close();
    }
  });

  it("an instance that stops cleanly leaves the list at once", async () => {
    const third = await startTestApp({
      database: await openDatabase({ kind: "postgres", url: two.databaseUrl }),
      config: { PUBLIC_URL: "http://bridgekeeper.test" },
    });
    const ids = async () => ((await statsOf(two.a, two.admin)).instances ?? []).map((i) => i.id);
    expect(await ids()).toContain(third.container.cluster.instanceId);
    await third.close();
    expect(await ids()).not.toContain(third.container.cluster.instanceId);
  });
});
