import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SseConnectionDto } from "../../../contract/connections";
import { signedInAs } from "../../test/factories";
import { createFakeClock } from "../../test/fake-clock";
import type { TestClient } from "../../test/http-client";
import { startTestApp, type TestApp } from "../../test/test-app";

/** The connection registry (docs/decisions.md#mcp-transports, spec §7 SSE Connections) and its admin API. */
describe("connection registry", () => {
  let t: TestApp;
  let admin: TestClient;
  const clock = createFakeClock(new Date());
  const open = async (overrides: Partial<Parameters<TestApp["container"]["services"]["connections"]["opened"]>[0]> = {}) => {
    const connectionId = randomUUID();
    await t.container.services.connections.opened({
      connectionId,
      kind: "sse-stream",
      clientId: "client-a",
      userId: null,
      ip: "127.0.0.1",
      userAgent: "agent/1",
      ...overrides,
    });
    return connectionId;
  };
  const list = async () => (await admin.get<SseConnectionDto[]>("/api/admin/sse-connections")).body;
  const row = async (id: string) => (await list()).find((r) => r.connectionId === id);

  beforeAll(async () => {
    t = await startTestApp({ clock });
    admin = (await signedInAs(t, ["admin"])).client;
  });
  afterAll(() => t.close());

  it("a stream is a row while it lives, in the specification's shape; closed, it turns inactive", async () => {
    const id = await open({ userAgent: null, ip: null });
    expect(await row(id)).toMatchObject({
      connectionId: id,
      clientId: "client-a",
      isActive: true,
      kind: "sse-stream",
      clientInfo: { userAgent: null, ipAddress: null },
      closedAt: null,
    });
    await t.container.services.connections.closed(id);
    expect(await row(id)).toMatchObject({ isActive: false, closedAt: expect.any(String) });
  });

  it("heartbeats move last_heartbeat and name the rows ended meanwhile", async () => {
    const { connections } = t.container.services;
    const a = await open();
    const b = await open();
    clock.advance(30_000);
    expect(await connections.heartbeat([a, b])).toEqual([]);
    expect(Date.parse((await row(a))!.lastHeartbeat)).toBe(clock.now().getTime());
    await connections.closed(b);
    expect(await connections.heartbeat([a, b])).toEqual([b]);
  });

  it("rows of a process that stopped heartbeating are swept; at start on PGlite every active row is", async () => {
    const { connections } = t.container.services;
    const silent = await open();
    clock.advance(60_000);
    const fresh = await open();
    clock.advance(40_000);
    expect(await connections.sweepStale(90_000)).toBeGreaterThanOrEqual(1);
    expect((await row(silent))!.isActive).toBe(false);
    expect((await row(fresh))!.isActive).toBe(true);
    await connections.sweepAtStart("pglite");
    expect((await list()).some((r) => r.isActive)).toBe(false);
  });

  it("an administrator ends a connection: 204, the row inactive, audited, the event emitted", async () => {
    const id = await open();
    const heard: string[] = [];
    t.container.events.on("connection.terminated", ({ connectionId }) => void heard.push(connectionId));
    const res = await admin.request("DELETE", `/api/admin/sse-connections/${id}`);
    expect(res.status).toBe(204);
    expect((await row(id))!.isActive).toBe(false);
    expect(heard).toEqual([id]);
    const audit = await admin.get(`/api/admin/audit?action=sse-connection.terminate&targetId=${id}`);
    expect(audit.body.events).toHaveLength(1);
  });

  it("unknown is 404, malformed 400; a viewer reads but may not end; anonymous 401", async () => {
    expect((await admin.request("DELETE", `/api/admin/sse-connections/${randomUUID()}`)).status).toBe(404);
    const bad = await admin.request("DELETE", "/api/admin/sse-connections/not-an-id");
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields.connectionId).toBeTruthy();
    const viewer = (await signedInAs(t, ["viewer"])).client;
    expect((await viewer.get("/api/admin/sse-connections")).status).toBe(200);
    const id = await open();
    expect((await viewer.request("DELETE", `/api/admin/sse-connections/${id}`)).status).toBe(403);
    expect((await row(id))!.isActive).toBe(true);
    expect((await t.client().get("/api/admin/sse-connections")).status).toBe(401);
  });
});
