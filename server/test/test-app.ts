import { createServer, type Server } from "node:http";
import { Writable } from "node:stream";
import type { Express } from "express";
import { randomBytes } from "node:crypto";
import { buildApp, type BuildAppOptions } from "../app";
import { createContainer, type AppConfig, type Container } from "../container";
import type { Database } from "../db/client";
import { parseEnv } from "../env";
import type { Clock } from "../lib/clock";
import { createSecretBox, type SecretBox } from "../lib/secret-box";
import { systemClock } from "../lib/clock";
import { createLogger } from "../lib/logger";
import { answerClientErrors } from "../http/request-listener";
import { TestClient } from "./http-client";
import { openTestDatabase } from "./test-database";

/**
 * The defaults of every setting (server/env.ts), in test mode. The sandbox and fake upstreams
 * listen on loopback, so private addresses are allowed here; the SSRF tests turn it off.
 */
// No outbound proxy, whatever the machine's environment says: tests reach the sandbox directly.
export const TEST_CONFIG: AppConfig = {
  ...parseEnv({ NODE_ENV: "test" }),
  UPSTREAM_TIMEOUT_MS: 5_000,
  UPSTREAM_ALLOW_PRIVATE: true,
  outboundProxy: {},
};

export interface TestApp {
  baseUrl: string;
  app: Express;
  container: Container;
  /** Everything the server logged, one JSON line each: for "no secret in the log" checks. */
  logLines: string[];
  client(headers?: Record<string, string>): TestClient;
  close(): Promise<void>;
}

/**
 * The real app (buildApp) on a real, migrated database, listening on a loopback port: tests
 * speak HTTP to it as any client would.
 */
export async function startTestApp(
  options: {
    config?: Partial<AppConfig>;
    clock?: Clock;
    database?: Database;
    app?: Partial<BuildAppOptions>;
    secretBox?: SecretBox;
  } = {},
): Promise<TestApp> {
  const database = options.database ?? (await openTestDatabase());
  const logLines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      logLines.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
  const log = createLogger({ level: "info" }, sink);
  const clock = options.clock ?? systemClock;
  const secretBox = options.secretBox ?? createSecretBox(randomBytes(32));
  // Listening first, so the server knows its own address (the OAuth issuer) before it is built.
  const server: Server = createServer();
  // An idle keep-alive socket is closed by the client (undici: the server's hint less a second),
  // never by the server while the client may still pick it for its next request (ECONNRESET): at
  // Node's default of 5 s a test's pause of a few seconds (a database opening on a busy machine)
  // reaches that race; at 65 s no pause in a test does.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const baseUrl = `http://127.0.0.1:${port}`;
  const container = createContainer({
    database,
    config: { ...TEST_CONFIG, PUBLIC_URL: baseUrl, ...options.config },
    clock,
    log,
    secretBox,
  });
  await container.services.roles.syncBuiltins();
  const { app, listener } = buildApp(container, { version: "0.0.0-test", startedAt: clock.now(), ...options.app });
  server.on("request", listener);
  answerClientErrors(server);
  return {
    baseUrl,
    app,
    container,
    logLines,
    client: (headers) => new TestClient(baseUrl, headers),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await container.close();
      await database.close();
    },
  };
}
