import { DEFAULT_TOOLSETS } from "../../contract/policy";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as StreamableV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as StreamableV2 } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { envelope, mcpRigForFile, MODERN, modernRpc, rpc, type McpRig } from "./mcp.test-rig";
import { TOOLS } from "./tools/catalogue";

/** What a `read write` token sees (every tool, in the catalogue's order), and a `read` one. */
/** What a client nobody restricted is offered: the tools of the default toolsets. */
const DEFAULT_OFFER = TOOLS.filter((t) => DEFAULT_TOOLSETS.includes(t.toolset));
const OFFERED_TOOLS = DEFAULT_OFFER.map((t) => t.name);
const OFFERED_READ_TOOLS = DEFAULT_OFFER.filter((t) => t.scope === "read").map((t) => t.name);

/**
 * /mcp speaks both protocol eras (docs/decisions.md#mcp-transports): the 2025 revisions through `initialize` (statelessly) and
 * 2026-07-28 with its per-request envelope, with the SDK's own clients and with raw requests for
 * what a client library would never send.
 */
describe("MCP on /mcp: both protocol eras", () => {
  let rig: McpRig;
  let token: string;
  mcpRigForFile((r) => (rig = r));
  const url = () => new URL("/mcp", rig.baseUrl);
  const auth = () => ({ requestInit: { headers: { authorization: `Bearer ${token}` } } });

  it("a 2025-11-25 client (SDK v1) lists the tools in a fixed order and calls one", async () => {
    token = await rig.token();
    const client = new ClientV1({ name: "v1-client", version: "1.0.0" });
    await client.connect(new StreamableV1(url(), auth()));
    expect(client.getServerVersion()?.name).toBe("bridgekeeper");
    expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(OFFERED_TOOLS);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type).toBe("object");
      expect(tool.annotations?.readOnlyHint).toBe(OFFERED_READ_TOOLS.includes(tool.name));
      expect(tool.description?.length).toBeGreaterThan(40);
    }
    const result = await client.callTool({ name: "jira_search", arguments: { jql: "project = BK ORDER BY key ASC", maxResults: 5 } });
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { issues: unknown[] }).issues).toHaveLength(5);
    await client.close();
  });

  it("a 2026-07-28 client (SDK v2) discovers the server, lists and calls tools", async () => {
    const client = new ClientV2({ name: "v2-client", version: "1.0.0" }, { versionNegotiation: { mode: { pin: MODERN } } });
    await client.connect(new StreamableV2(url(), auth()));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(OFFERED_TOOLS);
    const result = await client.callTool({ name: "jira_get_issue", arguments: { issueKey: "BK-1" } });
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.content)).toContain("BK-1");
    await client.close();
  });

  it.each(["2025-03-26", "2025-06-18", "2025-11-25"])(
    "initialize with %s is answered in that revision, with no session to keep",
    async (version) => {
      const res = await rpc(rig.baseUrl, token, {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
      });
      expect(res.status).toBe(200);
      expect(res.json.result.protocolVersion).toBe(version);
      expect(res.json.result.capabilities).toMatchObject({ tools: { listChanged: true }, logging: {} });
      // Stateless: a later request without any session header is served (hosted connectors never echo one).
      const list = await rpc(rig.baseUrl, token, { jsonrpc: "2.0", id: 2, method: "tools/list" }, { "mcp-protocol-version": version });
      expect(list.json.result.tools).toHaveLength(OFFERED_TOOLS.length);
    },
  );

  it("2026-07-28: discover, results with resultType, serverInfo, and a private cache hint on tools/list", async () => {
    const discover = await modernRpc(rig.baseUrl, token, "server/discover");
    expect(discover.status).toBe(200);
    expect(discover.json.result.supportedVersions ?? discover.json.result.protocolVersions).toContain(MODERN);
    const list = await modernRpc(rig.baseUrl, token, "tools/list");
    expect(list.json.result).toMatchObject({ resultType: "complete", cacheScope: "private" });
    expect(list.json.result.ttlMs).toBeGreaterThan(0);
    expect(list.json.result._meta["io.modelcontextprotocol/serverInfo"].name).toBe("bridgekeeper");
  });

  it("2026-07-28: Mcp-Method must match the body (-32020), an unknown revision is -32022 with the list", async () => {
    const mismatch = await rpc(
      rig.baseUrl,
      token,
      { jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: envelope() } },
      { "mcp-protocol-version": MODERN, "mcp-method": "tools/call" },
    );
    expect(mismatch.json.error.code).toBe(-32020);
    const unknown = await rpc(
      rig.baseUrl,
      token,
      {
        jsonrpc: "2.0",
        id: 4,
        method: "tools/list",
        params: { _meta: envelope({ "io.modelcontextprotocol/protocolVersion": "2031-01-01" }) },
      },
      { "mcp-protocol-version": "2031-01-01", "mcp-method": "tools/list" },
    );
    expect(unknown.json.error.code).toBe(-32022);
    expect(JSON.stringify(unknown.json.error.data)).toContain(MODERN);
  });

  it("2025: an unsupported MCP-Protocol-Version header is 400; GET and DELETE are 405", async () => {
    const bad = await rpc(rig.baseUrl, token, { jsonrpc: "2.0", id: 5, method: "tools/list" }, { "mcp-protocol-version": "1999-01-01" });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBeLessThan(0);
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(url(), { method, headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" } });
      expect(res.status).toBe(405);
      expect(((await res.json()) as { jsonrpc: string }).jsonrpc).toBe("2.0");
    }
  });

  it("notifications and responses are accepted with 202", async () => {
    const note = await rpc(
      rig.baseUrl,
      token,
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { "mcp-protocol-version": "2025-11-25" },
    );
    expect(note.status).toBe(202);
  });

  it("the same JSON-RPC is served at /api/mcp/protocol", async () => {
    const res = await rpc(
      rig.baseUrl,
      token,
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
      },
      {},
      "/api/mcp/protocol",
    );
    expect(res.json.result.serverInfo.name).toBe("bridgekeeper");
    const modern = await modernRpc(rig.baseUrl, token, "tools/list", {}, 2, "/api/mcp/protocol");
    expect(modern.json.result.tools).toHaveLength(OFFERED_TOOLS.length);
  });
});

describe("MCP: who may call", () => {
  let rig: McpRig;
  mcpRigForFile((r) => (rig = r));
  const init = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  };

  it("no token: 401 with the resource metadata of /mcp and the scope", async () => {
    for (const path of ["/mcp", "/api/mcp/protocol"]) {
      const res = await rpc(rig.baseUrl, null, init, {}, path);
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toContain(
        `resource_metadata="${rig.baseUrl}/.well-known/oauth-protected-resource${path}"`,
      );
      expect(res.headers.get("www-authenticate")).toContain('scope="read"');
    }
  });

  it("a foreign Origin is 403 with a JSON-RPC body, even with a good token and Host; an allowed one gets CORS", async () => {
    const token = await rig.token();
    const foreign = await rpc(rig.baseUrl, token, init, { origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect(foreign.json).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 }, id: null });
    // DNS rebinding: Host and Origin both name the attacker's domain.
    const rebound = await rpc(rig.baseUrl, token, init, { host: "evil.example", origin: "http://evil.example" });
    expect(rebound.status).toBe(403);
    // This server's own loopback origin (a local client page) is fine.
    const own = await rpc(rig.baseUrl, token, init, { origin: rig.baseUrl });
    expect(own.status).toBe(200);
    const allowed = await rpc(rig.baseUrl, token, init, { origin: "http://localhost:5000" });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("access-control-allow-origin")).toBe("http://localhost:5000");
    const preflight = await fetch(`${rig.baseUrl}/mcp`, {
      method: "OPTIONS",
      headers: { origin: "http://localhost:5000", "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")).toMatch(/Mcp-Protocol-Version/);
  });

  it("a read-only token sees the read tools; a revoked token is 401", async () => {
    const token = await rig.token("read");
    const list = await modernRpc(rig.baseUrl, token, "tools/list");
    expect(list.json.result.tools.map((t: { name: string }) => t.name)).toEqual(OFFERED_READ_TOOLS);
    // A write tool is refused with a scope challenge naming what to ask for (MCP Authorization, insufficient scope).
    const write = await modernRpc(rig.baseUrl, token, "tools/call", {
      name: "jira_add_comment",
      arguments: { issueKey: "BK-1", body: "hi" },
    });
    expect(write.status).toBe(403);
    expect(write.headers.get("www-authenticate")).toMatch(/error="insufficient_scope"/);
    expect(write.headers.get("www-authenticate")).toMatch(/scope="read write"/);
    const revoked = await fetch(`${rig.baseUrl}/oauth/revoke`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${Buffer.from(`${rig.client.clientId}:${rig.client.clientSecret}`).toString("base64")}`,
      },
      body: new URLSearchParams({ token }),
    });
    expect(revoked.status).toBe(200);
    expect((await modernRpc(rig.baseUrl, token, "tools/list")).status).toBe(401);
  });

  it("tools of an integration switched off are not listed, and cannot be called", async () => {
    const token = await rig.token();
    const off = await rig.admin.post("/api/admin/bitbucket-config", {
      workspace: "bridgekeeper",
      username: "demo",
      appPassword: "",
      isActive: false,
    });
    expect(off.status).toBeLessThan(300);
    try {
      const list = await modernRpc(rig.baseUrl, token, "tools/list");
      expect(list.json.result.tools.map((t: { name: string }) => t.name)).toEqual(OFFERED_TOOLS.filter((n) => !n.startsWith("bitbucket")));
      const call = await modernRpc(rig.baseUrl, token, "tools/call", { name: "bitbucket_list_repositories", arguments: {} });
      expect(call.json.error.code).toBe(-32602);
    } finally {
      await rig.admin.post("/api/admin/bitbucket-config", { workspace: "bridgekeeper", username: "demo", appPassword: "", isActive: true });
    }
  });
});

describe("MCP: bad input gets the proper error, and the server stays healthy", () => {
  let rig: McpRig;
  let token: string;
  mcpRigForFile((r) => (rig = r));

  it("malformed JSON is -32700", async () => {
    token = await rig.token();
    const res = await rpc(rig.baseUrl, token, "{not json");
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe(-32700);
  });

  it("an invalid request is -32600; an unknown method -32601; bad params -32602", async () => {
    const invalid = await rpc(rig.baseUrl, token, { id: 1, method: 42 }, { "mcp-protocol-version": "2025-11-25" });
    expect(invalid.json.error.code).toBe(-32600);
    const unknown = await modernRpc(rig.baseUrl, token, "tools/frobnicate");
    expect(unknown.json.error.code).toBe(-32601);
    const noName = await modernRpc(rig.baseUrl, token, "tools/call", { arguments: {} });
    expect(noName.json.error.code).toBe(-32602);
  });

  it("bad tool arguments are a tool error naming the field, not a protocol error", async () => {
    const res = await modernRpc(rig.baseUrl, token, "tools/call", { name: "jira_search", arguments: { jql: "", maxResults: 100000 } });
    expect(res.json.result.isError).toBe(true);
    expect(res.json.result.content[0].text).toMatch(/maxResults/);
  });

  it("a 6 MB body is 413, a wrong Content-Type 415, an Accept without JSON or SSE 406", async () => {
    const big = await rpc(
      rig.baseUrl,
      token,
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { pad: "x".repeat(6 * 1024 * 1024) } }),
    );
    expect(big.status).toBe(413);
    expect(big.json.jsonrpc).toBe("2.0");
    const type = await rpc(rig.baseUrl, token, "{}", { "content-type": "text/plain" });
    expect(type.status).toBe(415);
    const accept = await rpc(
      rig.baseUrl,
      token,
      { jsonrpc: "2.0", id: 1, method: "tools/list" },
      { accept: "text/html", "mcp-protocol-version": "2025-11-25" },
    );
    expect(accept.status).toBe(406);
    const health = await fetch(`${rig.baseUrl}/api/mcp/health`);
    expect(health.status).toBe(200);
  });

  it("a batch is refused after 2025-03-26, which had them", async () => {
    const batch = await rpc(rig.baseUrl, token, [{ jsonrpc: "2.0", id: 1, method: "tools/list" }], {
      "mcp-protocol-version": "2025-11-25",
    });
    expect(batch.status).toBe(400);
    expect(batch.json.error.code).toBe(-32600);
    const modern = await rpc(rig.baseUrl, token, [{ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: envelope() } }], {
      "mcp-protocol-version": MODERN,
    });
    expect(modern.status).toBe(400);
    const old = await rpc(rig.baseUrl, token, [
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
    ]);
    expect(old.status).toBe(200);
  });
});
