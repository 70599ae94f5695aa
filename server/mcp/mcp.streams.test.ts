import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import type { IncomingMessage } from "node:http";
import { describe, expect, it, vi } from "vitest";
import type { LogEntryDto } from "../../contract/logs";
import { createClient } from "../oauth/oauth.adversarial.helpers";
import { envelope, listenForToolChanges, mcpRigForFile, MODERN, openEvents, rpc, type McpRig } from "./mcp.test-rig";

interface ConnectionRow {
  connectionId: string;
  clientId: string;
  isActive: boolean;
  kind: string;
  lastHeartbeat: string;
  clientInfo: { userAgent: string | null; ipAddress: string | null };
}

/**
 * The long-lived streams (docs/decisions.md#mcp-transports, issue 10 items 3-7): the specification's /api/sse/stream with its
 * events, the legacy HTTP+SSE transport, subscriptions/listen; each owned by its token's subject,
 * registered while it lives, limited, and ended when access ends.
 */
describe("MCP event streams", () => {
  let rig: McpRig;
  mcpRigForFile((r) => (rig = r), { heartbeatMs: 300, RATE_LIMIT_SSE_PER_MINUTE: 1000 });
  const stream = (token: string, path = "/api/sse/stream", headers: Record<string, string> = {}) =>
    openEvents(`${rig.baseUrl}${path}`, { authorization: `Bearer ${token}`, "user-agent": "stream-test/1.0", ...headers });
  const connections = async () => (await rig.admin.get<ConnectionRow[]>("/api/admin/sse-connections")).body;
  const until = async <T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> => {
    for (;;) {
      const v = await read();
      if (ok(v)) return v;
      await new Promise((r) => setTimeout(r, 25));
    }
  };

  it("/api/sse/stream: connected with its id, heartbeats, a registry row with client, IP and user agent", async () => {
    const token = await rig.token();
    const events = await stream(token);
    expect(events.status).toBe(200);
    expect(events.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const connected = JSON.parse((await events.nextNamed("connected")).data) as { connectionId: string };
    expect(connected.connectionId).toMatch(/^[0-9a-f-]{36}$/);
    const beat = JSON.parse((await events.nextNamed("heartbeat")).data) as { connectionId: string };
    expect(beat.connectionId).toBe(connected.connectionId);
    const row = await until(connections, (rows) => rows.some((r) => r.connectionId === connected.connectionId));
    expect(row.find((r) => r.connectionId === connected.connectionId)).toMatchObject({
      clientId: rig.client.clientId,
      isActive: true,
      kind: "sse-stream",
      clientInfo: { userAgent: "stream-test/1.0", ipAddress: expect.stringMatching(/127\.0\.0\.1/) },
    });
    events.close();
    await until(connections, (rows) => rows.some((r) => r.connectionId === connected.connectionId && !r.isActive));
  });

  it("served by the MCP pipeline without Express, a query string or not, refusals included", async () => {
    const token = await rig.token();
    // Express's app hands every request it gets to app.handle (express/lib/application.js).
    const app = rig.t.app as unknown as { handle: (req: IncomingMessage, ...rest: unknown[]) => void };
    const handle = vi.spyOn(app, "handle");
    const throughExpress = () => handle.mock.calls.filter(([req]) => req.url?.startsWith("/api/sse/stream")).length;
    try {
      const front = await stream(token);
      const frontId = (JSON.parse((await front.nextNamed("connected")).data) as { connectionId: string }).connectionId;
      expect(throughExpress()).toBe(0);
      // A query string changes nothing.
      const routed = await stream(token, "/api/sse/stream?via=query");
      const routedId = (JSON.parse((await routed.nextNamed("connected")).data) as { connectionId: string }).connectionId;
      expect(throughExpress()).toBe(0);

      const names = (h: Headers) => [...h.keys()].filter((name) => name !== "date").sort();
      expect(names(front.headers)).toEqual(names(routed.headers));
      for (const name of names(front.headers))
        if (name !== "x-request-id") expect(front.headers.get(name), name).toBe(routed.headers.get(name));
      expect(front.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
      expect(front.headers.get("content-security-policy")).toContain("default-src 'self'");

      const rows = await until(connections, (all) => [frontId, routedId].every((id) => all.some((r) => r.connectionId === id)));
      const row = (id: string) => rows.find((r) => r.connectionId === id)!;
      expect(row(frontId)).toMatchObject({
        kind: "sse-stream",
        clientId: rig.client.clientId,
        isActive: true,
        clientInfo: row(routedId).clientInfo,
      });

      front.close();
      routed.close();
      // Each stream's request-log row is written when it ends: the same client, address and agent.
      const logged = async () =>
        (await rig.admin.get<LogEntryDto[]>("/api/admin/logs?search=/api/sse/stream")).body.filter(
          (e) => e.clientId === rig.client.clientId,
        );
      const entries = await until(logged, (all) => all.length >= 2);
      expect(entries.slice(0, 2).map((e) => ({ ...e, id: 0, createdAt: "", responseTime: 0 }))).toEqual([
        expect.objectContaining({
          method: "GET",
          endpoint: "/api/sse/stream",
          statusCode: 200,
          ipAddress: expect.stringMatching(/127\.0\.0\.1/),
          userAgent: "stream-test/1.0",
        }),
        expect.objectContaining({
          method: "GET",
          endpoint: "/api/sse/stream",
          statusCode: 200,
          ipAddress: expect.stringMatching(/127\.0\.0\.1/),
          userAgent: "stream-test/1.0",
        }),
      ]);

      // Refusals: no token, a bad one, one without the read scope: RFC 6750 challenges, as before.
      const before = throughExpress();
      const missing = await openEvents(`${rig.baseUrl}/api/sse/stream`, {});
      expect(missing.status).toBe(401);
      const bad = await stream("not-a-token");
      expect(bad.status).toBe(401);
      expect(bad.headers.get("www-authenticate")).toMatch(/^Bearer error="invalid_token"/);
      const writeOnly = await stream(await rig.token("write"));
      expect(writeOnly.status).toBe(403);
      expect(writeOnly.headers.get("www-authenticate")).toMatch(/insufficient_scope/);
      expect(throughExpress() - before).toBe(0);
    } finally {
      handle.mockRestore();
    }
  });

  it("a request posted to /api/mcp/protocol naming the connection is answered as an mcp-response event", async () => {
    const token = await rig.token();
    const events = await stream(token);
    const { connectionId } = JSON.parse((await events.nextNamed("connected")).data) as { connectionId: string };
    const posted = await rpc(
      rig.baseUrl,
      token,
      { jsonrpc: "2.0", id: 7, method: "tools/list", params: { _meta: envelope() } },
      { "mcp-protocol-version": MODERN, "mcp-method": "tools/list", "x-connection-id": connectionId },
      "/api/mcp/protocol",
    );
    expect(posted.status).toBe(202);
    const response = JSON.parse((await events.nextNamed("mcp-response")).data) as { id: number; result: { tools: unknown[] } };
    expect(response.id).toBe(7);
    expect(response.result.tools.length).toBeGreaterThan(0);
    events.close();
  });

  it("another token cannot post to a stream (404); a revoked token's stream ends with an error event", async () => {
    const token = await rig.token();
    const events = await stream(token);
    const { connectionId } = JSON.parse((await events.nextNamed("connected")).data) as { connectionId: string };
    const other = await createClient(rig, { name: "Someone else" });
    const otherToken = await rig.token("read", other);
    const refused = await rpc(
      rig.baseUrl,
      otherToken,
      { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: envelope() } },
      { "mcp-protocol-version": MODERN, "mcp-method": "tools/list", "x-connection-id": connectionId },
      "/api/mcp/protocol",
    );
    expect(refused.status).toBe(404);
    expect(refused.json.error.code).toBe(-32600);
    await fetch(`${rig.baseUrl}/oauth/revoke`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${Buffer.from(`${rig.client.clientId}:${rig.client.clientSecret}`).toString("base64")}`,
      },
      body: new URLSearchParams({ token }),
    });
    const error = await events.nextNamed("error");
    expect(JSON.parse(error.data)).toMatchObject({ connectionId });
    await events.ended();
  });

  it("a deactivated client's streams end at once", async () => {
    const client = await createClient(rig, { name: "Soon inactive" });
    const events = await stream(await rig.token("read", client));
    await events.nextNamed("connected");
    const patched = await rig.admin.request("PATCH", `/api/admin/oauth-clients/${client.clientId}`, { json: { isActive: false } });
    expect(patched.status).toBe(200);
    await events.nextNamed("error");
    await events.ended();
  });

  it("a user's streams end when the user is deactivated", async () => {
    const token = await rig.userToken("read");
    const events = await stream(token);
    await events.nextNamed("connected");
    const session = await rig.user.get<{ id: string }>("/api/session");
    const userId = (session.body as unknown as { user?: { id: string } }).user?.id ?? session.body.id;
    const off = await rig.admin.request("PUT", `/api/users/${userId}`, { json: { isActive: false } });
    expect(off.status).toBe(200);
    await events.nextNamed("error");
    await events.ended();
  });

  it("an administrator ends a connection: DELETE /api/admin/sse-connections/{id}", async () => {
    const events = await stream(await rig.token());
    const { connectionId } = JSON.parse((await events.nextNamed("connected")).data) as { connectionId: string };
    const res = await rig.admin.request("DELETE", `/api/admin/sse-connections/${connectionId}`);
    expect(res.status).toBe(204);
    expect(JSON.parse((await events.nextNamed("error")).data).message).toMatch(/administrator/);
    await events.ended();
  });

  it("legacy HTTP+SSE (2024-11-05): an SDK client lists and calls tools; another token's POST is 404", async () => {
    const token = await rig.token();
    const client = new ClientV1({ name: "legacy", version: "1.0.0" });
    const transport = new SSEClientTransport(new URL("/sse", rig.baseUrl), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
      eventSourceInit: {
        fetch: (url, init) =>
          fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), authorization: `Bearer ${token}` } }),
      },
    });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(0);
    const result = await client.callTool({ name: "bitbucket_list_repositories", arguments: {} });
    expect(result.isError).toBeFalsy();
    const sessionId = (await connections()).find((r) => r.kind === "legacy-sse" && r.isActive)!.connectionId;
    const other = await rig.token("read", await createClient(rig, { name: "Legacy intruder" }));
    const intruder = await rpc(rig.baseUrl, other, { jsonrpc: "2.0", id: 9, method: "tools/list" }, {}, `/messages?sessionId=${sessionId}`);
    expect(intruder.status).toBe(404);
    await client.close();
  });

  it("subscriptions/listen hears tools/list_changed when an integration is switched off", async () => {
    const token = await rig.token();
    const listen = await listenForToolChanges(rig.baseUrl, token);
    expect(listen.status).toBe(200);
    const waitFor = listen.waitFor;
    await waitFor("notifications/subscriptions/acknowledged");
    await until(connections, (rows) => rows.some((r) => r.kind === "listen" && r.isActive));
    await rig.admin.post("/api/admin/atlassian-config", {
      instanceUrl: rig.sandbox.url,
      email: "demo@bridgekeeper.test",
      apiToken: "",
      isActive: false,
    });
    await waitFor("notifications/tools/list_changed");
    await rig.admin.post("/api/admin/atlassian-config", {
      instanceUrl: rig.sandbox.url,
      email: "demo@bridgekeeper.test",
      apiToken: "",
      isActive: true,
    });
    await listen.close();
    await until(connections, (rows) => !rows.some((r) => r.kind === "listen" && r.isActive));
  });
});

describe("MCP stream limits", () => {
  let rig: McpRig;
  mcpRigForFile((r) => (rig = r), { RATE_LIMIT_SSE_MAX_CONCURRENT: 2, RATE_LIMIT_SSE_PER_MINUTE: 4 });

  it("a client's third concurrent stream is 429 with Retry-After; over the minute's budget likewise", async () => {
    const token = await rig.token();
    const open = (path = "/api/sse/stream") => openEvents(`${rig.baseUrl}${path}`, { authorization: `Bearer ${token}` });
    const a = await open();
    const b = await open("/sse");
    await a.nextNamed("connected");
    const third = await open();
    expect(third.status).toBe(429);
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
    a.close();
    b.close();
    // Two more fit the minute's four; the fifth does not, however many are open.
    for (;;) {
      const c = await open();
      if (c.status === 200) {
        c.close();
        break;
      }
      await new Promise((r) => setTimeout(r, 25)); // the closed ones are still being let go
    }
    const d = await open();
    expect(d.status).toBe(200);
    d.close();
    const e = await open();
    expect(e.status).toBe(429);
    expect(e.body).toMatch(/a minute/);
  });
});
