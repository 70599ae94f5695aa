import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LogEntryDto } from "../../contract/logs";
import { MODERN, modernRpc, openEvents, rpc, startMcpRig, type McpRig } from "./mcp.test-rig";
import { EVENT_STREAM_PATH, SPEC_PROTOCOL_PATH } from "./paths";

// @pglite-only: how the MCP pipeline matches, answers and refuses requests; the database only holds the token and the log.

/** What the pipeline decides before any step answers: which requests are MCP's, and the form of each entry's refusals. */
describe("the MCP pipeline's entries", () => {
  let rig: McpRig;
  let token: string;
  beforeAll(async () => {
    rig = await startMcpRig();
    token = await rig.token("read");
  });
  afterAll(async () => {
    await rig?.t.close();
    await rig?.sandbox.close();
  });

  it("matches paths as Express routes did: /MCP/ is /mcp, served and logged with the path as sent", async () => {
    const answer = await modernRpc(rig.baseUrl, token, "tools/list", {}, 1, "/MCP/");
    expect(answer.status).toBe(200);
    expect(answer.json.result.tools.length).toBeGreaterThan(0);
    await rig.t.container.services.requestLog.flush();
    const rows = (await rig.admin.get<LogEntryDto[]>("/api/admin/logs?search=/MCP/")).body;
    expect(rows.map((r) => [r.endpoint, r.rpcMethod, r.statusCode])).toEqual([["/MCP/", "tools/list", 200]]);
  });

  it("answers a browser's preflight at the specification's path, refuses a foreign page there, and leaves other OPTIONS to the API", async () => {
    const ask = (origin?: string) =>
      fetch(`${rig.baseUrl}${SPEC_PROTOCOL_PATH}`, {
        method: "OPTIONS",
        headers: { "access-control-request-method": "POST", ...(origin ? { origin } : {}) },
      });
    const preflight = await ask("http://localhost:5000");
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("http://localhost:5000");
    expect(preflight.headers.get("access-control-allow-headers")).toMatch(/X-Connection-Id/);
    const foreign = await ask("https://evil.example");
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 } });
    const plain = await ask();
    expect(plain.status).toBe(404);
    expect(await plain.json()).toMatchObject({ error: { code: "not_found" } });
  });

  it("an address that keeps presenting bad tokens is turned away: a JSON-RPC 429 on /mcp, the house body on the event stream", async () => {
    // Each entry's guard counts apart (20 bad tokens a minute from one address): the 21st is refused without a look.
    // Last in this file: the address (loopback) stays turned away for the rest of the window.
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++)
      statuses.push(
        (await rpc(rig.baseUrl, `bad-${i}`, { jsonrpc: "2.0", id: i, method: "ping" }, { "mcp-protocol-version": MODERN })).status,
      );
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses[20]).toBe(429);
    const refused = await rpc(rig.baseUrl, "bad-again", { jsonrpc: "2.0", id: 99, method: "ping" });
    expect(refused.status).toBe(429);
    // Refused before its body is read: no id to echo.
    expect(refused.json).toMatchObject({
      jsonrpc: "2.0",
      error: { code: -32000, message: expect.stringMatching(/invalid access tokens/) },
      id: null,
    });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);

    for (let i = 0; i < 20; i++)
      expect((await openEvents(`${rig.baseUrl}${EVENT_STREAM_PATH}`, { authorization: `Bearer bad-${i}` })).status).toBe(401);
    const stream = await openEvents(`${rig.baseUrl}${EVENT_STREAM_PATH}`, { authorization: "Bearer bad-again" });
    expect(stream.status).toBe(429);
    expect(JSON.parse(stream.body)).toMatchObject({ error: { code: "rate_limited" }, requestId: expect.any(String) });
    // A good token from the same address is turned away too while the window lasts: the guard does not look.
    expect((await modernRpc(rig.baseUrl, token, "tools/list")).status).toBe(429);
  });
});
