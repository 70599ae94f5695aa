import { randomBytes } from "node:crypto";
import { createSecretBox } from "../lib/secret-box";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directRequestOf as laneFor } from "./direct-answers";
import { envelope, MODERN, rpc, startMcpRig, type McpRig, type RpcAnswer } from "./mcp.test-rig";

// @pglite-only: the direct answers against the SDK's; the database only holds the token.

const BOTH = "application/json, text/event-stream";
const search = (args: unknown = { jql: "project = BK ORDER BY key ASC", maxResults: 3 }) => ({ name: "jira_search", arguments: args });
const modernHeaders = (method: string, name?: string) => ({
  "mcp-protocol-version": MODERN,
  "mcp-method": method,
  ...(name ? { "mcp-name": name } : {}),
});

interface Case {
  name: string;
  body: Record<string, unknown>;
  headers: Record<string, string>;
  /** The era it is answered directly in, or null when it is left to the SDK. */
  lane: "modern" | "legacy" | null;
}

const call = (id: number | string, params: Record<string, unknown>, withEnvelope = true) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: withEnvelope ? { ...params, _meta: envelope() } : params,
});
const list = (id: number | string, withEnvelope = true) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/list",
  params: withEnvelope ? { _meta: envelope() } : {},
});

const CASES: Case[] = [
  { name: "2026-07-28 tools/call", body: call(1, search()), headers: modernHeaders("tools/call", "jira_search"), lane: "modern" },
  {
    name: "2026-07-28 tools/call with a string id",
    body: call("req-7", search()),
    headers: modernHeaders("tools/call", "jira_search"),
    lane: "modern",
  },
  {
    name: "2026-07-28 tools/call with bad arguments (a tool error)",
    body: call(2, search({ jql: "", maxResults: 500 })),
    headers: modernHeaders("tools/call", "jira_search"),
    lane: "modern",
  },
  {
    name: "2026-07-28 tools/call of another tool",
    body: call(3, { name: "jira_get_issue", arguments: { issueKey: "BK-2" } }),
    headers: modernHeaders("tools/call", "jira_get_issue"),
    lane: "modern",
  },
  {
    name: "2026-07-28 tools/call upstream 404 (a tool error)",
    body: call(4, { name: "jira_get_issue", arguments: { issueKey: "NOPE-999" } }),
    headers: modernHeaders("tools/call", "jira_get_issue"),
    lane: "modern",
  },
  { name: "2026-07-28 tools/list", body: list(5), headers: modernHeaders("tools/list"), lane: "modern" },
  { name: "2025-11-25 tools/call", body: call(6, search(), false), headers: { "mcp-protocol-version": "2025-11-25" }, lane: "legacy" },
  { name: "2025-06-18 tools/list", body: list(7, false), headers: { "mcp-protocol-version": "2025-06-18" }, lane: "legacy" },
  {
    name: "2025-03-26 tools/list without params",
    body: { jsonrpc: "2.0", id: 8, method: "tools/list" },
    headers: { "mcp-protocol-version": "2025-03-26" },
    lane: "legacy",
  },
  // Left to the SDK: it must answer them exactly as it always has.
  {
    name: "2026-07-28 unknown tool (protocol error)",
    body: call(9, { name: "jira_nope", arguments: {} }),
    headers: modernHeaders("tools/call", "jira_nope"),
    lane: "modern",
  },
  {
    name: "2026-07-28 Mcp-Name naming another tool",
    body: call(10, search()),
    headers: modernHeaders("tools/call", "jira_get_issue"),
    lane: null,
  },
  { name: "2026-07-28 without Mcp-Name", body: call(11, search()), headers: modernHeaders("tools/call"), lane: null },
  {
    name: "2026-07-28 without Mcp-Method",
    body: call(12, search()),
    headers: { "mcp-protocol-version": MODERN, "mcp-name": "jira_search" },
    lane: null,
  },
  {
    name: "2026-07-28 with a Base64 Mcp-Name",
    body: call(13, search()),
    headers: modernHeaders("tools/call", `=?base64?${Buffer.from("jira_search").toString("base64")}?=`),
    lane: null,
  },
  {
    name: "2026-07-28 Mcp-Method naming another method",
    body: call(14, search()),
    headers: { ...modernHeaders("tools/call", "jira_search"), "mcp-method": "tools/list" },
    lane: null,
  },
  // The SDK serves an envelope without clientInfo (the key is optional to it), so the lane does too.
  {
    name: "2026-07-28 envelope without clientInfo",
    body: {
      jsonrpc: "2.0",
      id: 15,
      method: "tools/list",
      params: { _meta: { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} } },
    },
    headers: modernHeaders("tools/list"),
    lane: "modern",
  },
  {
    name: "2026-07-28 envelope with clientInfo of the wrong type",
    body: { jsonrpc: "2.0", id: 23, method: "tools/list", params: { _meta: envelope({ "io.modelcontextprotocol/clientInfo": "me" }) } },
    headers: modernHeaders("tools/list"),
    lane: null,
  },
  {
    name: "2026-07-28 envelope with a 2025 header",
    body: list(16),
    headers: { "mcp-protocol-version": "2025-11-25", "mcp-method": "tools/list" },
    lane: null,
  },
  {
    name: "2026-07-28 arguments that are an array",
    body: call(17, search(["x"])),
    headers: modernHeaders("tools/call", "jira_search"),
    lane: null,
  },
  { name: "2026-07-28 without MCP-Protocol-Version", body: list(18), headers: { "mcp-method": "tools/list" }, lane: null },
  { name: "2025 request without MCP-Protocol-Version", body: list(19, false), headers: {}, lane: null },
  {
    name: "2025 request with an unsupported version",
    body: list(20, false),
    headers: { "mcp-protocol-version": "2024-01-01" },
    lane: null,
  },
  {
    name: "2025 request accepting JSON only",
    body: list(21, false),
    headers: { "mcp-protocol-version": "2025-11-25", accept: "application/json" },
    lane: null,
  },
  {
    name: "2025 request with a session id",
    body: list(22, false),
    headers: { "mcp-protocol-version": "2025-11-25", "mcp-session-id": "abc" },
    lane: null,
  },
  { name: "a request with a null id", body: { ...list(0), id: null }, headers: modernHeaders("tools/list"), lane: null },
];

const headerOf = (headers: Record<string, string>) => (name: string) => ({ accept: BOTH, ...headers })[name];

describe("direct answers: which requests are answered without the SDK", () => {
  it.each(CASES)("$name → $lane", ({ body, headers, lane }) => {
    expect(laneFor(headerOf(headers), body)?.era ?? null).toBe(lane);
  });

  it("leaves other methods, notifications and batches to the SDK", () => {
    const h = headerOf({ "mcp-protocol-version": "2025-11-25" });
    expect(laneFor(h, { jsonrpc: "2.0", id: 1, method: "initialize", params: {} })).toBeUndefined();
    expect(laneFor(h, { jsonrpc: "2.0", method: "notifications/initialized" })).toBeUndefined();
    expect(laneFor(h, [list(1, false)])).toBeUndefined();
    expect(laneFor(h, { jsonrpc: "1.0", id: 1, method: "tools/list" })).toBeUndefined();
    expect(laneFor(h, { jsonrpc: "2.0", id: 1, method: "tools/list", params: null })).toBeUndefined();
  });
});

/**
 * The lane's answers equal the SDK's: the same requests to a server with the lane and to one
 * without it (MCP_FAST_LANE=false), compared as status, content type and JSON-RPC message. Each
 * server has its own sandbox, so its address is normalised in the text.
 */
describe("direct answers are exactly the SDK's answers", () => {
  let lane: McpRig;
  let sdk: McpRig;
  let laneToken: string;
  let sdkToken: string;
  beforeAll(async () => {
    // One key for both (their cursors differ only by the client they are sealed for).
    const secretBox = createSecretBox(randomBytes(32));
    [lane, sdk] = await Promise.all([startMcpRig({}, { secretBox }), startMcpRig({ MCP_FAST_LANE: false }, { secretBox })]);
    [laneToken, sdkToken] = await Promise.all([lane.token(), sdk.token()]);
  });
  afterAll(async () => {
    for (const rig of [lane, sdk]) {
      await rig?.t.close();
      await rig?.sandbox.close();
    }
  });

  /**
   * A tool's cursor is sealed for its client (cursorsFor), and each server has a client of its
   * own: the cursor is normalised like the address, wherever the answer repeats it (structured and text).
   */
  const comparable = (answer: RpcAnswer, rig: McpRig) => {
    let json = JSON.stringify(answer.json ?? null).replaceAll(rig.sandbox.url, "<sandbox>");
    const cursor = /"nextCursor":"([^"]+)"/.exec(json)?.[1];
    if (cursor) json = json.replaceAll(cursor, "<cursor>");
    return {
      status: answer.status,
      contentType: answer.headers.get("content-type"),
      cacheControl: answer.headers.get("content-type")?.startsWith("text/event-stream") ? answer.headers.get("cache-control") : null,
      message: JSON.parse(json) as unknown,
    };
  };

  it.each(CASES)("$name", async ({ body, headers }) => {
    const [a, b] = await Promise.all([rpc(lane.baseUrl, laneToken, body, headers), rpc(sdk.baseUrl, sdkToken, body, headers)]);
    expect(comparable(a, lane)).toEqual(comparable(b, sdk));
    expect(a.status).toBeLessThan(500);
  });

  it("a tools/call answer carries the tool's result, its type and the server's identity (2026-07-28)", async () => {
    const answer = await rpc(lane.baseUrl, laneToken, call(1, search()), modernHeaders("tools/call", "jira_search"));
    expect(answer.json.result).toMatchObject({
      resultType: "complete",
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "bridgekeeper" } },
    });
    expect(answer.json.result.structuredContent.issues).toHaveLength(3);
    expect(answer.json.result.content[0].text).toContain("BK-1");
  });

  it("runs after authentication: no token, or a bad one, is refused before the lane", async () => {
    for (const token of [null, "not-a-token"]) {
      const answer = await rpc(lane.baseUrl, token, call(1, search()), modernHeaders("tools/call", "jira_search"));
      expect(answer.status).toBe(401);
      expect(answer.headers.get("www-authenticate")).toMatch(/^Bearer /);
    }
  });
});
