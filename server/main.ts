import { createServer, type Server, type ServerResponse } from "node:http";
import { join } from "node:path";
import type { RequestHandler } from "express";
import { buildApp } from "./app";
import { createContainer } from "./container";
import { openDatabase } from "./db/client";
import { EnvError, parseEnv, publicUrl, type Env } from "./env";
import { staticConsole } from "./http/console";
import { answerClientErrors } from "./http/request-listener";
import { APP_ROOT, APP_VERSION } from "./lib/app-root";
import { systemClock } from "./lib/clock";
import { createLogger } from "./lib/logger";
import { createSecretBox, loadSecretKey } from "./lib/secret-box";
import { configureDemo } from "./modules/integrations/demo";
import { configureDemoAi } from "./modules/ai-providers/demo";
import { configureDemoPeople } from "./modules/accounts/demo";
import { ensureFirstAdmin } from "./modules/users/first-admin";

const SESSION_PRUNE_INTERVAL_MS = 15 * 60_000;
/** Registry rows silent for a minute are marked inactive (an instance that died); checked this often. */
const REGISTRY_SWEEP_MS = 15_000;

async function consoleHandler(env: Env): Promise<RequestHandler> {
  if (env.NODE_ENV !== "development") return staticConsole(join(APP_ROOT, "dist/web"));
  // Development: Vite's middleware serves the console from source with hot reload, same origin.
  const { createServer } = await import("vite");
  const vite = await createServer({
    configFile: join(APP_ROOT, "vite.config.ts"),
    server: { middlewareMode: true },
    appType: "spa",
  });
  return vite.middlewares;
}

async function main(): Promise<void> {
  const startedAt = new Date();
  let env: Env;
  try {
    env = parseEnv();
  } catch (err) {
    if (err instanceof EnvError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  // Libraries that read it (Express among them) must see the mode we run in, not "development".
  process.env.NODE_ENV = env.NODE_ENV;
  const log = createLogger({ level: env.LOG_LEVEL });
  // Where start-up time goes, reported with the "listening" line.
  const phases: Record<string, number> = {};
  let mark = 0; // performance.now() counts from process start, so "boot" is Node plus module loading
  const phase = (name: string) => {
    const now = performance.now();
    phases[name] = Math.round(now - mark);
    mark = now;
  };
  phase("boot");

  const database = await openDatabase(
    env.DATABASE_URL ? { kind: "postgres", url: env.DATABASE_URL } : { kind: "pglite", dataDir: env.DATA_DIR },
  );
  phase("openDatabase");
  await database.migrate();
  phase("migrate");
  const secretKey = loadSecretKey({ secretKey: env.SECRET_KEY, dataDir: env.DATA_DIR });
  const container = createContainer({
    database,
    config: env,
    clock: systemClock,
    log,
    secretBox: createSecretBox(secretKey.key),
    startedAt,
  });
  await container.services.roles.syncBuiltins();
  await container.upstream.syncRecorder.restore();
  if (env.DEMO_SANDBOX_URL) {
    await configureDemo(container.services.integrations, env.DEMO_SANDBOX_URL, env.DEMO_FLAVOUR);
    log.info({ sandbox: env.DEMO_SANDBOX_URL, flavour: env.DEMO_FLAVOUR }, "demo mode: Atlassian and Bitbucket configured to the sandbox");
  }
  if (env.DEMO_AI_URL) {
    await configureDemoAi(container.services.aiProviders, env.DEMO_AI_URL);
    log.info({ fakeAi: env.DEMO_AI_URL }, "demo mode: an offline AI provider for the chat");
  }
  await ensureFirstAdmin({
    ...container.repos,
    log,
    adminPassword: env.ADMIN_PASSWORD,
    openAt: publicUrl(env),
    print: (text) => process.stdout.write(`${text}\n`),
  });
  if (env.DEMO_SANDBOX_URL && env.DEMO_PEOPLE) {
    await configureDemoPeople(
      {
        repos: container.repos,
        identity: container.services.identitySettings,
        links: container.services.accountLinks,
        print: (text) => process.stdout.write(`${text}\n`),
      },
      env.DEMO_SANDBOX_URL,
    );
    log.info("demo mode: each person's own account, two people linked");
  }
  // Rows a process left behind when it died (kill -9) are not live connections.
  await container.services.connections
    .sweepAtStart(database.kind)
    .catch((err) => log.warn({ err }, "sweeping the connection registry failed"));
  phase("seed");

  // Draining (after SIGTERM): the health check answers 503 and every answer closes its connection,
  // so the load balancer stops sending requests here before the listener closes (server/main.ts shutdown).
  let draining = false;
  const { listener } = buildApp(container, {
    version: APP_VERSION,
    startedAt,
    consoleHandler: await consoleHandler(env),
    draining: () => draining,
  });
  phase("buildApp");
  // Answers under way when the drain begins close their connections too (unless already sent).
  const underway = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    if (draining) res.setHeader("Connection", "close");
    else {
      underway.add(res);
      res.once("close", () => underway.delete(res));
    }
    listener(req, res);
  });
  const beginDrain = () => {
    draining = true;
    for (const res of underway) if (!res.headersSent) res.setHeader("Connection", "close");
    underway.clear();
  };
  answerClientErrors(server);
  server.listen(env.PORT, env.HOST);
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  // Slow clients must not hold sockets forever (slowloris).
  server.headersTimeout = 20_000;
  server.requestTimeout = 60_000;
  // An idle keep-alive connection is closed by the client or the load balancer, never by us while
  // it may still send its next request on it (ECONNRESET, or a proxy's 502): longer than the
  // proxies' own idle timeouts (HAProxy's http-keep-alive 10 s here, 60 s on cloud balancers).
  server.keepAliveTimeout = 65_000;
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : env.PORT;
  log.info(
    { port, host: env.HOST, database: database.kind, version: APP_VERSION, startupMs: Date.now() - startedAt.getTime(), phases },
    `Bridgekeeper listening on http://${env.HOST === "0.0.0.0" ? "localhost" : env.HOST}:${port}`,
  );

  // The clean-ups run once per period in the whole cluster (one instance at a time takes each turn).
  const { connections, requestLog } = container.services;
  const { jobs } = container.cluster;
  const step = (what: string, work: Promise<unknown>) => work.catch((err) => log.warn({ err }, `${what} failed`));
  const sweepRegistry = () =>
    jobs
      .once("registry-sweep", REGISTRY_SWEEP_MS, () => step("sweeping the connection registry", connections.sweepStale()))
      .catch((err) => log.warn({ err }, "the registry sweep could not run"));
  const cleanUp = () =>
    jobs
      .once("clean-up", SESSION_PRUNE_INTERVAL_MS, () =>
        Promise.all([
          step("session pruning", container.services.auth.pruneStale()),
          step("OAuth pruning", container.services.oauthTokens.prune()),
          step(
            "pruning unused self-registered clients",
            container.services.oauthClients.pruneUnusedDynamic(env.OAUTH_DYNAMIC_CLIENT_TTL_DAYS * 86_400_000),
          ),
          step("request log pruning", requestLog.prune(env.LOG_RETENTION_DAYS)),
          step("tool-call audit pruning", container.services.toolCalls.prune(env.LOG_RETENTION_DAYS)),
          step("connection registry pruning", connections.pruneClosed(env.LOG_RETENTION_DAYS * 86_400_000)),
          step("sweeping expired rate-limit counts", container.limits.sweep()),
        ]),
      )
      .catch((err) => log.warn({ err }, "the clean-up could not run"));
  void cleanUp();
  const sweep = setInterval(() => void sweepRegistry(), REGISTRY_SWEEP_MS);
  sweep.unref();
  const prune = setInterval(() => void cleanUp(), SESSION_PRUNE_INTERVAL_MS);
  prune.unref();

  // Behind a load balancer a closing listener loses requests: one already on its way over a kept-alive
  // connection meets the close and gets no answer at all. So a SIGTERM first drains: the health
  // check says 503 and answers close their connections, until the balancer has taken this instance
  // out (HAProxy: two failed checks 2 s apart; Kubernetes: preStop, then readiness). Ctrl-C does not wait.
  const drainMs = env.SHUTDOWN_DRAIN_MS ?? (database.kind === "postgres" ? 5_000 : 0);
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    const wait = signal === "SIGTERM" ? drainMs : 0;
    if (wait > 0) {
      beginDrain();
      log.info({ signal, drainMs: wait }, "draining: the health check answers 503 until the load balancer has stopped sending requests");
      // Idle kept-alive connections stay open meanwhile: closing one as the balancer sends a request
      // on it is the very loss this avoids; each answer from here closes its own connection.
      setTimeout(() => stop(signal), wait);
    } else stop(signal);
  };
  const stop = (signal: string) => {
    log.info({ signal }, "shutting down: finishing in-flight requests");
    clearInterval(prune);
    clearInterval(sweep);
    // Streams never finish on their own: each gets a final event and ends now (issue 10 item 10),
    // and no new one is admitted; their registry rows turn inactive before the database closes.
    const { streams, streamKeeper } = container.mcp;
    streams.refuseNew();
    streamKeeper.stop();
    const ended = streams.endWhere(() => true, "The server is shutting down; reconnect shortly");
    const registryClosed = connections.closeAllOfInstance().catch((err) => log.warn({ err }, "closing registry rows failed"));
    log.info({ streams: ended }, "event streams ended");
    // In-flight requests finish; a keep-alive socket is closed as soon as it falls idle (the
    // sweep), not when its keep-alive timer runs out; whatever is left at the deadline is cut,
    // so the process always exits within SHUTDOWN_TIMEOUT_MS.
    const idleSweep = setInterval(() => server.closeIdleConnections(), 50);
    // Connections are cut early enough to leave time for the log flush and the database to close.
    const force = setTimeout(() => server.closeAllConnections(), Math.max(env.SHUTDOWN_TIMEOUT_MS - 1_500, env.SHUTDOWN_TIMEOUT_MS / 2));
    force.unref();
    const deadline = setTimeout(() => {
      log.error("shutdown did not finish in SHUTDOWN_TIMEOUT_MS; exiting");
      process.exit(1);
    }, env.SHUTDOWN_TIMEOUT_MS);
    deadline.unref();
    server.close(async () => {
      clearInterval(idleSweep);
      clearTimeout(force);
      await registryClosed;
      await container.close().catch((err) => log.warn({ err }, "upstream pool close failed"));
      await database.close().catch((err) => log.warn({ err }, "database close failed"));
      log.info("stopped");
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

main().catch((err) => {
  console.error("Bridgekeeper failed to start:", err instanceof Error ? err.message : err);
  process.exit(1);
});
