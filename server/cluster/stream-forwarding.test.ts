import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OAuthClientDto } from "../../contract/oauth";
import { envelope, MODERN, openEvents, rpc } from "../mcp/mcp.test-rig";
import type { TestApp } from "../test/test-app";
import { onPostgres, SHARED_STORES, startTwoInstances, type TwoInstances } from "../test/two-instances";

/**
 * Any request may land on any instance (issue 29 item 1): a request posted to one instance for an
 * event stream the other holds (`X-Connection-Id`) is answered there and its answer reaches the
 * stream; a message for a legacy `/sse` session held by the other instance reaches that session,
 * whose answer comes on its stream; another token's is still a 404.
 */
describe.skipIf(!onPostgres).each(SHARED_STORES)("a stream held by the other instance, through %s", (store) => {
  let two: TwoInstances;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    two = await startTwoInstances({}, store);
    ({ a, b } = two);
  });

  afterAll(() => two?.close());

  const newClient = (name: string) => two.newClient(name);
  const tokenOf = (client: OAuthClientDto) => two.readToken(client);
  const onProtocol = (t: TestApp, token: string, connectionId: string, id: number) =>
    rpc(
      t.baseUrl,
      token,
      { jsonrpc: "2.0", id, method: "tools/list", params: { _meta: envelope() } },
      { "mcp-protocol-version": MODERN, "mcp-method": "tools/list", "x-connection-id": connectionId },
      "/api/mcp/protocol",
    );

  it("X-Connection-Id: posted to one instance, answered on the stream the other holds", async () => {
    const token = await tokenOf(await newClient("Spread stream"));
    const events = await openEvents(`${b.baseUrl}/api/sse/stream`, { authorization: `Bearer ${token}` });
    const { connectionId } = JSON.parse((await events.nextNamed("connected")).data) as { connectionId: string };
    const posted = await onProtocol(a, token, connectionId, 41);
    expect(posted.status, posted.text).toBe(202);
    expect(posted.json).toEqual({ accepted: true, connectionId, messages: 1 });
    const answer = JSON.parse((await events.nextNamed("mcp-response")).data) as { id: number; result: { tools: unknown[] } };
    expect(answer.id).toBe(41);
    expect(Array.isArray(answer.result.tools)).toBe(true);
    // Another client's token names the same stream: nowhere for it.
    const intruder = await onProtocol(a, await tokenOf(await newClient("Intruder")), connectionId, 42);
    expect(intruder.status).toBe(404);
    expect(intruder.json.error.code).toBe(-32600);
    events.close();
  });

  it("an answer too large for one notification still arrives", async () => {
    const token = await tokenOf(await newClient("Large answers"));
    const events = await openEvents(`${b.baseUrl}/api/sse/stream`, { authorization: `Bearer ${token}` });
    const { connectionId } = JSON.parse((await events.nextNamed("connected")).data) as { connectionId: string };
    const client = (await a.container.repos.connectionsRepo.find(connectionId))!;
    const large = { jsonrpc: "2.0", id: 7, result: { text: "x".repeat(60_000) } };
    await a.container.mcp.forwarding.send(client.instanceId, {
      kind: "responses",
      connectionId,
      owner: { clientId: client.clientId, userId: null },
      messages: [large],
    });
    expect(JSON.parse((await events.nextNamed("mcp-response")).data)).toEqual(large);
    events.close();
  });

  /** Everything the instances say to each other from now on, as PostgreSQL or Redis carries it. */
  async function eavesdrop(): Promise<{ heard: string[]; stop(): Promise<void> }> {
    const heard: string[] = [];
    if (two.redisUrl) {
      const redis = new Redis(two.redisUrl);
      redis.on("pmessage", (_pattern: string, _channel: string, text: string) => heard.push(text));
      await redis.psubscribe("bridgekeeper_*");
      return { heard, stop: async () => void (await redis.quit()) };
    }
    const pgClient = new pg.Client({ connectionString: two.databaseUrl });
    await pgClient.connect();
    pgClient.on("notification", (m) => heard.push(m.payload ?? ""));
    await pgClient.query("listen bridgekeeper_events; listen bridgekeeper_deliveries");
    return { heard, stop: () => pgClient.end() };
  }

  it("legacy /sse: a message posted to one instance reaches the session the other holds; its token never travels in clear", async () => {
    const token = await tokenOf(await newClient("Legacy spread"));
    const wire = await eavesdrop();
    const events = await openEvents(`${b.baseUrl}/sse`, { authorization: `Bearer ${token}` });
    const endpoint = (await events.nextNamed("endpoint")).data;
    const sessionId = new URL(endpoint, a.baseUrl).searchParams.get("sessionId")!;
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "legacy-spread", version: "1.0.0" } },
    };
    const posted = await rpc(a.baseUrl, token, initialize, {}, `/messages?sessionId=${sessionId}`);
    expect(posted.status, posted.text).toBe(202);
    const answer = JSON.parse((await events.nextNamed("message")).data) as { id: number; result: { serverInfo: unknown } };
    expect(answer.id).toBe(1);
    expect(answer.result.serverInfo).toBeDefined();
    await wire.stop();
    expect(wire.heard.some((text) => text.includes("legacy-message"))).toBe(true);
    expect(wire.heard.join("\n")).not.toContain(token);
    const intruder = await rpc(
      a.baseUrl,
      await tokenOf(await newClient("Legacy intruder")),
      initialize,
      {},
      `/messages?sessionId=${sessionId}`,
    );
    expect(intruder.status).toBe(404);
    events.close();
  });
});
