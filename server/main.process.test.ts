import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresTestDatabase } from "./test/test-database";
import { SERVER_START_DEADLINE_MS, startServerProcess } from "./test/server-process";

/**
 * The real entry point (server/main.ts) as a child process: start-up on an empty database, the
 * printed first password, and SIGTERM. Runs on PGlite in the pglite project and on PostgreSQL
 * (DATABASE_URL) in the postgres project.
 */
/** How long the process drains on SIGTERM here (5 s by default on PostgreSQL, 0 embedded). */
const DRAIN_MS = 3_000;

describe("the server process", () => {
  let child: ChildProcess;
  let output: () => string = () => "";
  let port = 0;
  let dataDir: string;
  let dropDatabase: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "bk-main-"));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: "test",
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "info",
      SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
    };
    delete env.ADMIN_PASSWORD;
    delete env.DATABASE_URL;
    if (process.env.TEST_DB === "postgres") {
      const pgdb = await createPostgresTestDatabase();
      env.DATABASE_URL = pgdb.url;
      dropDatabase = pgdb.drop;
    }
    const server = await startServerProcess(env);
    child = server.child;
    port = server.port;
    output = server.output;
  }, SERVER_START_DEADLINE_MS + 30_000);

  afterAll(async () => {
    if (child.exitCode === null) child.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
    await dropDatabase?.();
  });

  it("creates the first administrator and prints its password once", async () => {
    const matches = [...output().matchAll(/password: (\S+)/g)];
    expect(matches).toHaveLength(1);
    const res = await fetch(`http://127.0.0.1:${port}/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "admin", password: matches[0]![1] }),
    });
    expect(res.status).toBe(200);
    expect(output()).not.toMatch(/argon2id/);
  });

  it.skipIf(process.env.TEST_DB === "postgres")(
    "a second process on the same embedded database is refused with a sentence saying why, and the first serves on",
    async () => {
      const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "test", PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir };
      delete env.DATABASE_URL;
      const second = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], { env, stdio: ["ignore", "pipe", "pipe"] });
      let printed = "";
      second.stdout!.on("data", (d) => (printed += d));
      second.stderr!.on("data", (d) => (printed += d));
      const code = await new Promise<number | null>((resolve) => second.once("exit", resolve));
      expect(code).toBe(1);
      expect(printed).toContain(`Another Bridgekeeper process (pid ${child.pid}) has the embedded database in ${dataDir} open`);
      expect(printed).toContain("set DATABASE_URL on each");
      expect((await fetch(`http://127.0.0.1:${port}/api/mcp/health`)).status).toBe(200);
    },
    SERVER_START_DEADLINE_MS,
  );

  it("on SIGTERM drains (health 503, answers close their connections), finishes the request in flight, then exits 0 well within 10 s", async () => {
    // A request whose headers have arrived but whose body has not: in flight when SIGTERM lands.
    const socket = connect(port, "127.0.0.1");
    await new Promise((r) => socket.once("connect", r));
    const body = JSON.stringify({ username: "admin", password: "wrong-password" });
    socket.write(`POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
    await new Promise((r) => setTimeout(r, 300));

    const started = Date.now();
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    // Draining: the load balancer's health check is told to send no more, and an answer given now
    // closes its connection, so no request follows on it.
    let health = await fetch(`http://127.0.0.1:${port}/api/mcp/health`);
    while (health.status === 200 && Date.now() - started < DRAIN_MS) {
      await health.arrayBuffer();
      health = await fetch(`http://127.0.0.1:${port}/api/mcp/health`);
    }
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: "draining" });
    expect(health.headers.get("connection")).toBe("close");

    // The request in flight is answered (its body arrives during the drain).
    let response = "";
    socket.on("data", (d) => (response += d));
    const closed = new Promise((r) => socket.once("close", r));
    socket.write(body);
    await closed;
    expect(response).toMatch(/^HTTP\/1\.1 401/);
    expect(response).toContain("invalid_credentials");
    // Under way when the drain began, and answered during it: its connection closes with it too.
    expect(response).toMatch(/\r\nConnection: close\r\n/i);

    expect(await exited).toBe(0);
    // The embedded database's claim on its directory ends with the process.
    expect(existsSync(join(dataDir, "bridgekeeper.pid"))).toBe(false);
    // The requirement is 10 s; a keep-alive socket left to its own timer would take 5 s or more.
    expect(Date.now() - started).toBeLessThan(DRAIN_MS + 4_000);
    await expect(fetch(`http://127.0.0.1:${port}/api/mcp/health`)).rejects.toThrow();
  }, 20_000);
});
