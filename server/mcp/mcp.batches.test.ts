import { describe, expect, it } from "vitest";
import { createClient } from "../oauth/oauth.adversarial.helpers";
import { mcpRigForFile, rpc, type McpRig } from "./mcp.test-rig";

/**
 * Issue 24 item 6: a JSON-RPC batch (2025-03-26, the revision without an MCP-Protocol-Version
 * header) counts against the client's API limit as its messages, not as one request.
 */
describe("MCP batches count as their messages", () => {
  let rig: McpRig;
  mcpRigForFile((r) => (rig = r), { RATE_LIMIT_API_PER_MINUTE: 25, RATE_LIMIT_API_BURST: 1 });

  const batch = (n: number) => Array.from({ length: n }, (_, i) => ({ jsonrpc: "2.0", id: i + 1, method: "tools/list" }));

  it("three batches of 10 under a limit of 25 a minute (burst 1): the third is 429 with Retry-After", async () => {
    const token = await rig.token("read", await createClient(rig, { name: "Batcher" }));
    const first = await rpc(rig.baseUrl, token, batch(10));
    expect(first.status).toBe(200);
    // Ten answers (as server-sent events, or one JSON array).
    expect(first.text.match(/"jsonrpc"/g)).toHaveLength(10);
    expect((await rpc(rig.baseUrl, token, batch(10))).status).toBe(200);
    const third = await rpc(rig.baseUrl, token, batch(10));
    expect(third.status).toBe(429);
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(third.json.error.message).toMatch(/More than 25 requests a minute/);
    // Another client's budget is its own.
    const other = await rig.token("read", await createClient(rig, { name: "Bystander" }));
    expect((await rpc(rig.baseUrl, other, batch(5))).status).toBe(200);
  });

  it("a batch larger than the whole minute's limit is refused outright", async () => {
    const token = await rig.token("read", await createClient(rig, { name: "Big batcher" }));
    const res = await rpc(rig.baseUrl, token, batch(100));
    expect(res.status).toBe(429);
  });
});
