import { connect } from "node:net";
import type { IncomingMessage } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LogEntryDetailDto, LogEntryDto } from "../../contract/logs";
import { envelope, MODERN, modernRpc, rpc, startMcpRig, type McpRig, type RpcAnswer } from "./mcp.test-rig";
import { SPEC_PROTOCOL_PATH } from "./paths";

// @pglite-only: what the MCP pipeline serves without Express; the database only holds the token and the log.

/** A raw connection to the server: what the client writes, and the first answer it reads back. */
async function rawClient(baseUrl: string) {
  const { port } = new URL(baseUrl);
  const socket = connect(Number(port), "127.0.0.1");
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  let received = "";
  socket.on("data", (chunk: Buffer) => (received += chunk.toString("utf8")));
  return {
    port,
    write: (text: string) => new Promise<void>((resolve) => socket.write(text, () => resolve())),
    /** The answer's status line, once it has arrived. */
    status: () =>
      new Promise<string>((resolve, reject) => {
        const check = () => {
          if (received.includes("\r\n")) return resolve(received.slice(0, received.indexOf("\r\n")));
          if (socket.destroyed) return reject(new Error(`closed with ${JSON.stringify(received)}`));
        };
        socket.on("data", check).once("close", check);
        check();
      }),
    received: () => received,
    close: () => socket.destroy(),
  };
}

/** A head for POST /mcp; the body follows separately. */
const head = (port: string, token: string, length: number, extra = "") =>
  `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: ${MODERN}\r\nMcp-Method: tools/list\r\n${extra}Content-Length: ${length}\r\n\r\n`;

/**
 * The MCP pipeline (pipeline.ts) serves every MCP request before Express and without it: tools/list
 * and tools/call answered directly (direct-answers.ts), everything else by its checks or the SDK,
 * each with the request id, the security headers and the request-log row Express's middleware
 * gives its own requests.
 */
describe("the MCP pipeline, before Express", () => {
  let rig: McpRig;
  let token: string;
  /** The MCP requests Express saw, by path. */
  const reached: string[] = [];

  beforeAll(async () => {
    rig = await startMcpRig();
    token = await rig.token("read");
    // Express's app is a function that calls app.handle: every request it is given passes here.
    const app = rig.t.app as unknown as { handle: (req: IncomingMessage, ...rest: unknown[]) => unknown };
    const handle = app.handle.bind(app);
    app.handle = (req, ...rest) => {
      if (req.method === "POST") reached.push(req.url ?? "");
      return handle(req, ...rest);
    };
  });
  afterAll(async () => {
    await rig?.t.close();
    await rig?.sandbox.close();
  });

  /** What Express saw of the request `send` makes. */
  const throughExpress = async (send: () => Promise<RpcAnswer>) => {
    reached.length = 0;
    const answer = await send();
    return { answer, express: reached.length > 0 };
  };
  const search = { name: "jira_search", arguments: { jql: "project = BK ORDER BY key ASC", maxResults: 2 } };

  it("serves tools/call and tools/list of both eras, on /mcp and the specification's path, without Express", async () => {
    const sends: [string, () => Promise<RpcAnswer>][] = [
      ["2026-07-28 tools/call", () => modernRpc(rig.baseUrl, token, "tools/call", search)],
      ["2026-07-28 tools/list", () => modernRpc(rig.baseUrl, token, "tools/list")],
      [
        "2026-07-28 tools/call on the specification's path",
        () => modernRpc(rig.baseUrl, token, "tools/call", search, 3, SPEC_PROTOCOL_PATH),
      ],
      [
        "2025-11-25 tools/call",
        () =>
          rpc(
            rig.baseUrl,
            token,
            { jsonrpc: "2.0", id: 4, method: "tools/call", params: search },
            { "mcp-protocol-version": "2025-11-25" },
          ),
      ],
    ];
    for (const [name, send] of sends) {
      const { answer, express } = await throughExpress(send);
      expect(answer.status, name).toBe(200);
      expect(answer.json.result, name).toBeDefined();
      expect(answer.json.result.isError ?? false, name).toBe(false);
      expect(express, name).toBe(false);
    }
  });

  it("answers with the request id and the security headers, with a browser Origin of our own too (and its CORS headers)", async () => {
    const direct = (await throughExpress(() => modernRpc(rig.baseUrl, token, "tools/list"))).answer;
    const withOrigin = await throughExpress(() =>
      rpc(
        rig.baseUrl,
        token,
        { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: envelope() } },
        { "mcp-protocol-version": MODERN, "mcp-method": "tools/list", origin: rig.baseUrl },
      ),
    );
    expect(withOrigin.express).toBe(false);
    expect(withOrigin.answer.status).toBe(200);
    expect(withOrigin.answer.headers.get("access-control-allow-origin")).toBe(rig.baseUrl);
    const names = (h: Headers) =>
      [...h.keys()]
        .filter((k) => !["date", "content-length", "access-control-allow-origin", "access-control-expose-headers", "vary"].includes(k))
        .sort();
    expect(names(direct.headers)).toEqual(names(withOrigin.answer.headers));
    expect(direct.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(direct.headers.get("x-content-type-options")).toBe("nosniff");
    expect(direct.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(direct.json).toEqual({ ...withOrigin.answer.json, id: direct.json.id });
  });

  it("records the request as Express would: its log row and its tool call carry the request id", async () => {
    const { answer, express } = await throughExpress(() => modernRpc(rig.baseUrl, token, "tools/call", search, "door-1"));
    expect(express).toBe(false);
    const requestId = answer.headers.get("x-request-id")!;
    await rig.t.container.services.requestLog.flush();
    await rig.t.container.services.toolCalls.flush();
    const [entry] = (await rig.admin.get<LogEntryDto[]>(`/api/admin/logs?tool=jira_search&limit=1`)).body;
    expect(entry).toMatchObject({
      method: "POST",
      endpoint: "/mcp",
      statusCode: 200,
      rpcMethod: "tools/call",
      toolName: "jira_search",
      clientId: rig.client.clientId,
      ipAddress: "127.0.0.1",
    });
    const detail = (await rig.admin.get<LogEntryDetailDto>(`/api/admin/logs/${entry!.id}`)).body;
    expect(detail.requestId).toBe(requestId);
    expect(detail.headers).toMatchObject({ "mcp-method": "tools/call", "mcp-name": "jira_search" });
    expect(detail.toolCall).toMatchObject({ tool: "jira_search", outcome: "ok", requestId, clientId: rig.client.clientId });
  });

  it("answers everything else itself too, as before: refusals, unknown tools and the SDK's methods", async () => {
    const modern = (method: string, name?: string) => ({
      "mcp-protocol-version": MODERN,
      "mcp-method": method,
      ...(name ? { "mcp-name": name } : {}),
    });
    const cases: { name: string; send: () => Promise<RpcAnswer>; status: number; check?: (a: RpcAnswer) => void }[] = [
      {
        name: "a body that is not JSON",
        send: () => rpc(rig.baseUrl, token, '{"jsonrpc": "2.0", "id": 1, "method": "tools/li', modern("tools/list")),
        status: 400,
        check: (a) => expect(a.json.error.code).toBe(-32700),
      },
      {
        name: "JSON nested too deeply",
        send: () => rpc(rig.baseUrl, token, `${"[".repeat(80)}${"]".repeat(80)}`, modern("tools/list")),
        status: 400,
        check: (a) => expect(a.json.error.message).toMatch(/nested/),
      },
      {
        name: "no valid token",
        send: () =>
          rpc(
            rig.baseUrl,
            "not-a-token",
            { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: envelope() } },
            modern("tools/list"),
          ),
        status: 401,
        check: (a) => expect(a.headers.get("www-authenticate")).toMatch(/^Bearer /),
      },
      {
        name: "a tool the token's scope does not cover",
        send: () => modernRpc(rig.baseUrl, token, "tools/call", { name: "jira_add_comment", arguments: { issueKey: "BK-1", body: "x" } }),
        status: 403,
        check: (a) => expect(a.headers.get("www-authenticate")).toMatch(/insufficient_scope/),
      },
      {
        name: "an unknown tool",
        send: () => modernRpc(rig.baseUrl, token, "tools/call", { name: "jira_nope", arguments: {} }),
        status: 200,
        check: (a) => expect(a.json.error.code).toBe(-32602),
      },
      {
        name: "initialize",
        send: () =>
          rpc(rig.baseUrl, token, {
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
          }),
        status: 200,
        check: (a) => expect(a.json.result.protocolVersion).toBe("2025-11-25"),
      },
      {
        name: "a batch under 2026-07-28",
        send: () => rpc(rig.baseUrl, token, [{ jsonrpc: "2.0", id: 1, method: "tools/list" }], modern("tools/list")),
        status: 400,
        check: (a) => expect(a.json.error.code).toBe(-32600),
      },
      {
        name: "Mcp-Name naming another tool",
        send: () =>
          rpc(
            rig.baseUrl,
            token,
            { jsonrpc: "2.0", id: 1, method: "tools/call", params: { ...search, _meta: envelope() } },
            modern("tools/call", "jira_get_issue"),
          ),
        status: 400,
      },
    ];
    for (const c of cases) {
      const { answer, express } = await throughExpress(c.send);
      expect(answer.status, c.name).toBe(c.status);
      c.check?.(answer);
      expect(express, c.name).toBe(false);
    }
  });

  it("a failure on our side is a JSON-RPC internal error (500) with the request's id, and is logged", async () => {
    const availability = rig.t.container.mcp.toolAvailability;
    const context = availability.context;
    availability.context = () => Promise.reject(new Error("the database is away"));
    try {
      // tools/list fails while it is answered; tools/call already while its tool is resolved.
      for (const [method, params] of [
        ["tools/list", {}],
        ["tools/call", search],
      ] as const) {
        const answer = await modernRpc(rig.baseUrl, token, method, params, `failing-${method}`);
        expect(answer.status, method).toBe(500);
        expect(answer.json, method).toEqual({
          jsonrpc: "2.0",
          error: { code: -32603, message: "Internal error" },
          id: `failing-${method}`,
        });
      }
    } finally {
      availability.context = context;
    }
    expect(rig.t.logLines.filter((line) => line.includes("MCP request failed") && line.includes("the database is away"))).toHaveLength(2);
    expect((await modernRpc(rig.baseUrl, token, "tools/list")).status).toBe(200);
  });

  it("refuses a bad token before reading the body: a client that declared 4 MB gets its 401 without sending any", async () => {
    const client = await rawClient(rig.baseUrl);
    await client.write(head(client.port, "not-a-valid-token", 4_000_000));
    expect(await client.status()).toBe("HTTP/1.1 401 Unauthorized");
    expect(client.received()).toMatch(/www-authenticate: Bearer /i);
    client.close();
  });

  it("times the request from its arrival: a body sent slowly shows in the logged response time", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: envelope() } });
    const client = await rawClient(rig.baseUrl);
    await client.write(head(client.port, token, Buffer.byteLength(body), "User-Agent: door-slow-body\r\n"));
    // A client on a slow link: its body comes 300 ms after its head.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await client.write(body);
    expect(await client.status()).toBe("HTTP/1.1 200 OK");
    client.close();
    await rig.t.container.services.requestLog.flush();
    const row = (await rig.admin.get<LogEntryDto[]>(`/api/admin/logs?limit=20`)).body.find((r) => r.userAgent === "door-slow-body");
    expect(row?.responseTime).toBeGreaterThanOrEqual(290);
  });

  it("records a client that leaves while sending its body as 499, and stays healthy", async () => {
    const client = await rawClient(rig.baseUrl);
    // The head and the start of a 500-byte body, then the client is gone.
    await client.write(`${head(client.port, token, 500, "User-Agent: door-leaver\r\n")}{"jsonrpc":`);
    client.close();
    await expect
      .poll(
        async () => {
          await rig.t.container.services.requestLog.flush();
          const rows = (await rig.admin.get<LogEntryDto[]>(`/api/admin/logs?limit=20`)).body;
          return rows.filter((r) => r.userAgent === "door-leaver").map((r) => r.statusCode);
        },
        { timeout: 10_000 },
      )
      .toEqual([499]);
    expect((await modernRpc(rig.baseUrl, token, "tools/list")).status).toBe(200);
  });
});

/** The API limit (docs/decisions.md#rate-limits): each request counts once, whoever answers it, and an over-limit one is refused before its body is read. */
describe("the MCP pipeline under the API limit", () => {
  let rig: McpRig;
  beforeAll(async () => {
    // A budget of 1 a minute plus a burst of 1: two requests, then 429.
    rig = await startMcpRig({ RATE_LIMIT_API_PER_MINUTE: 1, RATE_LIMIT_API_BURST: 1 });
  });
  afterAll(async () => {
    await rig?.t.close();
    await rig?.sandbox.close();
  });

  it("counts a request the SDK answers once, and refuses an over-limit one before reading its body", async () => {
    const token = await rig.token("read");
    // Counted by the pipeline, then answered by the SDK (an unknown tool): one of the two.
    const unknown = await modernRpc(rig.baseUrl, token, "tools/call", { name: "jira_nope", arguments: {} });
    expect(unknown.json.error.code).toBe(-32602);
    expect((await modernRpc(rig.baseUrl, token, "tools/list")).status).toBe(200);
    const refused = await modernRpc(rig.baseUrl, token, "tools/list");
    expect(refused.status).toBe(429);
    expect(refused.json.error.message).toMatch(/requests a minute/);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);

    // Over the limit, a client that declared 4 MB gets its 429 without sending any.
    const client = await rawClient(rig.baseUrl);
    await client.write(head(client.port, token, 4_000_000));
    expect(await client.status()).toBe("HTTP/1.1 429 Too Many Requests");
    client.close();
  });
});
