import { mkdtempSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startServerProcess, type ServerProcess } from "../test/server-process";

// @pglite-only: the built server as a process, on its embedded database.

/**
 * The real entry point with open streams (issue 10 item 10): SIGTERM ends 1,000 streams with a
 * final event, flushes the request log and closes the registry rows, and the process exits within
 * SHUTDOWN_TIMEOUT_MS; a process killed with SIGKILL leaves rows that the next start corrects.
 * PGlite only (one process owns the data directory, which is what makes the start-up sweep exact).
 */
const ADMIN_PASSWORD = "process-test-password";
const STREAMS = 1000;
const SHUTDOWN_TIMEOUT_MS = 6000;

type Server = ServerProcess;

function start(dataDir: string): Promise<Server> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "test",
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    LOG_LEVEL: "info",
    ADMIN_PASSWORD,
    SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    RATE_LIMIT_SSE_PER_MINUTE: "5000",
    RATE_LIMIT_SSE_MAX_CONCURRENT: "5000",
    RATE_LIMIT_API_PER_MINUTE: "100000",
  };
  delete env.DATABASE_URL;
  return startServerProcess(env);
}

async function adminCookie(url: string): Promise<string> {
  const res = await fetch(`${url}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "admin", password: ADMIN_PASSWORD }),
  });
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

async function bearerToken(url: string, cookie: string): Promise<string> {
  const created = await fetch(`${url}/api/admin/oauth-clients`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie, origin: url },
    body: JSON.stringify({ name: "process test", redirectUris: ["https://app.example.com/cb"], scopes: ["read"], isActive: true }),
  });
  const { clientId, clientSecret } = (await created.json()) as { clientId: string; clientSecret: string };
  const res = await fetch(`${url}/oauth/token`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`,
    },
    body: "grant_type=client_credentials&scope=read",
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

/** Opens one /api/sse/stream; resolves once `connected` arrived, with what the stream says until it ends. */
function openStream(url: string, token: string, agent: Agent): Promise<{ text: () => string; ended: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const u = new URL("/api/sse/stream", url);
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        agent,
        headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" },
      },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`stream: ${res.statusCode}`));
        let text = "";
        const ended = new Promise<void>((done) => {
          res.on("end", done);
          res.on("close", done);
          res.on("error", () => done());
        });
        res.setEncoding("utf8").on("data", (chunk: string) => {
          text += chunk;
          if (text.includes("event: connected")) resolve({ text: () => text, ended });
        });
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe("MCP streams and the server process", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "bk-mcp-process-"));
  const running: Server[] = [];
  afterAll(() => {
    for (const s of running) if (s.child.exitCode === null) s.child.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(`SIGTERM with ${STREAMS} open streams: each gets a final event, the log loses nothing, rows close, exit within SHUTDOWN_TIMEOUT_MS`, async () => {
    const server = await start(dataDir);
    running.push(server);
    const token = await bearerToken(server.url, await adminCookie(server.url));
    const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
    const streams = [];
    for (let i = 0; i < STREAMS; i += 100)
      streams.push(...(await Promise.all(Array.from({ length: Math.min(100, STREAMS - i) }, () => openStream(server.url, token, agent)))));
    // Requests answered just before the signal: their rows are still in the buffer when it lands.
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${server.url}/mcp`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: i, method: "ping" }),
      });
      expect(res.status).toBe(200);
    }

    const started = Date.now();
    const exited = new Promise<number | null>((resolve) => server.child.once("exit", resolve));
    server.child.kill("SIGTERM");
    await Promise.all(streams.map((s) => s.ended));
    expect(await exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(SHUTDOWN_TIMEOUT_MS);
    expect(streams.filter((s) => /event: error\ndata: .*shutting down/.test(s.text()))).toHaveLength(STREAMS);
    agent.destroy();

    const again = await start(dataDir);
    running.push(again);
    const cookie = await adminCookie(again.url);
    const rows = (await (await fetch(`${again.url}/api/admin/sse-connections`, { headers: { cookie } })).json()) as {
      isActive: boolean;
      closedAt: string | null;
    }[];
    expect(rows).toHaveLength(STREAMS);
    expect(rows.every((r) => !r.isActive && r.closedAt)).toBe(true);
    const logs = (await (await fetch(`${again.url}/api/admin/logs?limit=5000`, { headers: { cookie } })).json()) as {
      endpoint: string;
      rpcMethod: string | null;
    }[];
    expect(logs.filter((l) => l.endpoint === "/mcp" && l.rpcMethod === "ping")).toHaveLength(20);
    expect(logs.filter((l) => l.endpoint === "/api/sse/stream")).toHaveLength(STREAMS);
    again.child.kill("SIGTERM");
    await new Promise((r) => again.child.once("exit", r));
  }, 400_000);

  it("after SIGKILL the next start marks the dead process's rows inactive", async () => {
    const server = await start(dataDir);
    running.push(server);
    const token = await bearerToken(server.url, await adminCookie(server.url));
    const agent = new Agent({ keepAlive: true });
    const open = await Promise.all([1, 2, 3].map(() => openStream(server.url, token, agent)));
    expect(open).toHaveLength(3);
    const killed = new Promise((r) => server.child.once("exit", r));
    server.child.kill("SIGKILL");
    await killed;
    agent.destroy();

    const again = await start(dataDir);
    running.push(again);
    const rows = (await (
      await fetch(`${again.url}/api/admin/sse-connections`, { headers: { cookie: await adminCookie(again.url) } })
    ).json()) as { isActive: boolean }[];
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows.filter((r) => r.isActive)).toEqual([]);
    again.child.kill("SIGTERM");
    await new Promise((r) => again.child.once("exit", r));
  }, 400_000);
});
