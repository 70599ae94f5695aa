import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OAuthClientDto } from "../../contract/oauth";
import { envelope, MODERN, modernRpc, openEvents, rpc } from "../mcp/mcp.test-rig";
import { APP_REDIRECT, authorizeUrl, basicOf, credentialsOf } from "../oauth/oauth.adversarial.helpers";
import { HAPROXY, startHaproxy, type RunningHaproxy } from "../test/haproxy";
import { TestClient, type TestResponse } from "../test/http-client";
import { formPost, pkce } from "../test/oauth";
import { startRedisServer } from "../test/redis-server";
import { SERVER_START_DEADLINE_MS, startServerProcess, type ServerProcess } from "../test/server-process";
import { createPostgresTestDatabase } from "../test/test-database";
import { freePort } from "../test/throwaway-postgres";
import { onPostgres, SHARED_STORES, type SharedStore } from "../test/two-instances";

/**
 * The several-instance deployment end to end (issue 29 item 7): Debian's HAProxy with the shipped
 * deploy/haproxy/haproxy.cfg (round robin, no stickiness) in front of two real server processes
 * (server/main.ts) started together on one empty PostgreSQL database, both with the load
 * balancer's address as PUBLIC_URL and one SECRET_KEY; with the store "redis", a Redis beside it
 * (REDIS_URL). Everything goes through HAProxy's one address and the product's public HTTP API;
 * which process served a request is read from its own log (each answer's X-Request-Id is logged
 * by the process that answered), which stream a process holds from the connection registry.
 * Ends with a rolling restart under load (SIGTERM) and a crash (SIGKILL).
 */

if (!HAPROXY)
  console.warn("haproxy-cluster.test.ts: haproxy is not installed (apt-get install -y haproxy): the HAProxy cluster test is skipped.");

const ADMIN_PASSWORD = `cluster-admin-${randomBytes(6).toString("hex")}`;
/** The API limit of every OAuth client, counted by both processes together (point 2). */
const API_PER_MINUTE = 20;
const MIGRATIONS_JOURNAL = join(import.meta.dirname, "../db/migrations/meta/_journal.json");
const SHUTTING_DOWN = "The server is shutting down; reconnect shortly";

type Events = Awaited<ReturnType<typeof openEvents>>;

/** Resolves with `what`'s value, or fails saying what did not happen within `ms`. */
async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Polls `condition` until it holds (true or a value), every `everyMs`, failing after `ms` with `what` and the last state. */
async function until<T>(what: string, condition: () => Promise<T | false | undefined | null>, ms = 10_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const value = await condition();
      if (value !== false && value !== undefined && value !== null) return value;
      last = value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(`${what}: not within ${ms} ms (last: ${last instanceof Error ? last.message : String(last)})`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

const exitOf = (proc: ServerProcess, ms: number) =>
  within(
    ms,
    `process ${proc.child.pid} exiting`,
    new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      const { child } = proc;
      if (child.exitCode !== null || child.signalCode !== null) return resolve({ code: child.exitCode, signal: child.signalCode });
      child.once("exit", (code, signal) => resolve({ code, signal }));
    }),
  );

describe.skipIf(!onPostgres || !HAPROXY).each(SHARED_STORES)(
  "two server processes behind HAProxy on one PostgreSQL, sharing through %s",
  (store: SharedStore) => {
    /** HAProxy's servers bridgekeeper-1 and bridgekeeper-2: the process on each port now. */
    const slots: ServerProcess[] = [];
    /** Every process started, live or not: where a request id is looked for. */
    const started: ServerProcess[] = [];
    const dataDirs: string[] = [];
    let haproxy: RunningHaproxy | undefined;
    let front = "";
    let database: { url: string; drop: () => Promise<void> } | undefined;
    let redis: { url: string; stop(): Promise<void> } | null = null;
    let db: pg.Client | undefined;
    let admin: TestClient;
    let signedIn: TestResponse;
    const secretKey = randomBytes(32).toString("base64");
    const openStreams: Events[] = [];

    const envFor = (port: number): NodeJS.ProcessEnv => {
      const dataDir = mkdtempSync(join(tmpdir(), "bk-cluster-"));
      dataDirs.push(dataDir);
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        NODE_ENV: "test",
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        DATABASE_URL: database!.url,
        SECRET_KEY: secretKey,
        PUBLIC_URL: front,
        ADMIN_PASSWORD,
        // One proxy in front, as compose.yaml runs them.
        TRUST_PROXY: "1",
        LOG_LEVEL: "info",
        RATE_LIMIT_API_PER_MINUTE: String(API_PER_MINUTE),
        RATE_LIMIT_API_BURST: "0",
        // Every request comes from HAProxy's address: the per-address OAuth limit and the per-client
        // stream-opening limit are not what this file is about.
        RATE_LIMIT_OAUTH_REQUESTS: "100000",
        RATE_LIMIT_SSE_PER_MINUTE: "100000",
      };
      for (const name of [
        "REDIS_URL",
        "RATE_LIMIT_STORE",
        "DEMO_SANDBOX_URL",
        "DEMO_AI_URL",
        "DEMO_PEOPLE",
        "METRICS_TOKEN",
        "REQUEST_LOG",
      ])
        delete env[name];
      if (redis) env.REDIS_URL = redis.url;
      return env;
    };

    const startProcess = async (port: number) => {
      const proc = await startServerProcess(envFor(port));
      started.push(proc);
      return proc;
    };

    /** The process that answered: the one whose log has the answer's X-Request-Id (logged when the answer ends). */
    const servedBy = async (requestId: string | null | undefined): Promise<ServerProcess> => {
      if (!requestId) throw new Error("the answer has no X-Request-Id");
      return until(`a process logging request ${requestId}`, async () => started.find((p) => p.output().includes(requestId)), 5_000, 20);
    };
    const served = (res: { headers: Headers }) => servedBy(res.headers.get("x-request-id"));
    const nameOf = (proc: ServerProcess) => `pid ${proc.child.pid} on :${proc.port}`;
    /** The registry's instance id of a process is `<hostname>:<pid>:<random>` (server/container.ts). */
    const instancePrefix = (proc: ServerProcess) => `${hostname()}:${proc.child.pid}:`;

    const query = async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) => (await db!.query<T>(sql, params)).rows;

    /** The process holding a connection, as the registry says. */
    const holderOf = (connectionId: string) =>
      until(`the registry row of ${connectionId}`, async () => {
        const [row] = await query<{ instance_id: string }>("select instance_id from sse_connections where connection_id = $1", [
          connectionId,
        ]);
        return row && started.find((p) => row.instance_id.startsWith(instancePrefix(p)));
      });

    const newClient = async (name: string): Promise<OAuthClientDto> => {
      const res = await admin.post<OAuthClientDto>("/api/admin/oauth-clients", {
        name,
        redirectUris: [APP_REDIRECT],
        scopes: ["read", "write"],
        isActive: true,
        clientType: "confidential",
      });
      expect(res.status, res.text).toBe(201);
      return res.body;
    };
    const tokenOf = async (client: OAuthClientDto, scope = "read"): Promise<string> => {
      const res = await formPost(`${front}/oauth/token`, { grant_type: "client_credentials", scope }, basicOf(client));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.access_token as string;
    };
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

    /** Waits until GET /api/admin/stats lists exactly these processes as the live instances. */
    const instancesListed = async (procs: ServerProcess[], ms: number) => {
      let last = "";
      await until(
        `GET /api/admin/stats listing ${procs.map(nameOf).join(" and ")} as the instances`,
        async () => {
          const res = await admin.get("/api/admin/stats");
          last = `${res.status} ${JSON.stringify(res.body.instances)}`;
          const ids: string[] = Array.isArray(res.body.instances) ? res.body.instances.map((i: { id: string }) => i.id) : [];
          return ids.length === procs.length && procs.every((p) => ids.some((id) => id.startsWith(instancePrefix(p))));
        },
        ms,
        500,
      ).catch((err: Error) => {
        throw new Error(`${err.message}; last answer: ${last}`);
      });
    };

    interface HeldStream {
      events: Events;
      connectionId: string;
      holder: ServerProcess;
    }
    /** Opens an /api/sse/stream through HAProxy; resolves once `connected` arrived, with who holds it. */
    const openStream = async (token: string): Promise<HeldStream> => {
      const events = await openEvents(`${front}/api/sse/stream`, bearer(token));
      openStreams.push(events);
      expect(events.status, events.body).toBe(200);
      const { connectionId } = JSON.parse((await within(10_000, "the connected event", events.nextNamed("connected"))).data) as {
        connectionId: string;
      };
      return { events, connectionId, holder: await holderOf(connectionId) };
    };
    /** Streams of one token opened through HAProxy until each live process holds one (at most 6 tries). */
    const streamsOnBoth = async (token: string): Promise<HeldStream[]> => {
      const streams: HeldStream[] = [];
      for (let i = 0; i < 6 && !slots.every((p) => streams.some((s) => s.holder === p)); i++) streams.push(await openStream(token));
      expect(new Set(streams.map((s) => s.holder)).size, "streams opened through HAProxy, one held by each process").toBe(2);
      return streams;
    };

    beforeAll(async () => {
      database = await createPostgresTestDatabase(); // empty: the processes migrate it
      redis = store === "redis" ? await startRedisServer() : null;
      const frontPort = await freePort();
      front = `http://127.0.0.1:${frontPort}`;
      // Both at the same moment on the empty database: they take turns at the migrations.
      const [one, two] = await Promise.all([startProcess(0), startProcess(0)]);
      slots.push(one!, two!);
      haproxy = await startHaproxy(
        slots.map((p) => p.port),
        { frontPort },
      );
      db = new pg.Client({ connectionString: database.url });
      await db.connect();
      // The console's administrator, signed in once through HAProxy (a browser on the console sends its Origin).
      admin = new TestClient(front, { origin: front });
      signedIn = await admin.post("/api/login", { username: "admin", password: ADMIN_PASSWORD });
      if (signedIn.status !== 200) throw new Error(`sign-in through HAProxy: ${signedIn.status} ${signedIn.text}`);
    }, SERVER_START_DEADLINE_MS + 60_000);

    afterAll(async () => {
      for (const events of openStreams) events.close();
      for (const proc of started)
        if (proc.child.exitCode === null && proc.child.signalCode === null) process.kill(proc.child.pid!, "SIGKILL");
      await Promise.all(started.map((p) => exitOf(p, 10_000).catch(() => undefined)));
      await haproxy?.stop();
      await db?.end().catch(() => undefined);
      await database?.drop();
      await redis?.stop();
      for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
    }, 60_000);

    it("both started together on the empty database came up, migrated it once, and made one first administrator", async () => {
      for (const proc of slots) expect((await fetch(`${proc.url}/api/mcp/health`)).status, nameOf(proc)).toBe(200);
      const journal = JSON.parse(readFileSync(MIGRATIONS_JOURNAL, "utf8")) as { entries: { tag: string }[] };
      const [migrations] = await query<{ rows: number; hashes: number }>(
        "select count(*)::int as rows, count(distinct hash)::int as hashes from drizzle.__drizzle_migrations",
      );
      expect(migrations).toEqual({ rows: journal.entries.length, hashes: journal.entries.length });
      expect(slots.map((p) => (p.output().match(/first_admin_created/g) ?? []).length).sort()).toEqual([0, 1]);
      const [admins] = await query<{ n: number }>("select count(*)::int as n from users where username = 'admin'");
      expect(admins!.n).toBe(1);
    });

    it("signed in once through HAProxy, the console session works on both processes", async () => {
      expect(signedIn.status, signedIn.text).toBe(200);
      const servers = new Set<ServerProcess>([await served(signedIn)]);
      for (let i = 0; i < 4; i++) {
        const res = await admin.get(i % 2 ? "/api/session" : "/api/admin/oauth-clients");
        expect(res.status, res.text).toBe(200);
        servers.add(await served(res));
      }
      expect(servers.size).toBe(2);
    });

    it("the OAuth authorization-code flow whose steps land on both processes", async () => {
      const client = await newClient("Code flow across instances");
      const { verifier, challenge } = pkce();
      const steps: ServerProcess[] = [];
      const authorized = await fetch(authorizeUrl(front, client.clientId, { challenge, scope: "read" }), { redirect: "manual" });
      expect(authorized.status, await authorized.text()).toBe(302);
      steps.push(await served(authorized));
      const consentId = /^\/oauth-consent\/([\w-]+)$/.exec(new URL(authorized.headers.get("location")!, front).pathname)?.[1];
      expect(consentId, authorized.headers.get("location")!).toBeDefined();
      const shown = await admin.get(`/api/oauth/requests/${consentId}`);
      expect(shown.status, shown.text).toBe(200);
      steps.push(await served(shown));
      const decided = await admin.post(`/api/oauth/requests/${consentId}/decision`, { approve: true });
      expect(decided.status, decided.text).toBe(200);
      steps.push(await served(decided));
      const code = new URL(decided.body.redirectTo as string).searchParams.get("code");
      expect(code).toBeTruthy();
      const issued = await formPost(`${front}/oauth/token`, {
        grant_type: "authorization_code",
        code: code!,
        code_verifier: verifier,
        redirect_uri: APP_REDIRECT,
        ...credentialsOf(client),
      });
      expect(issued.status, JSON.stringify(issued.body)).toBe(200);
      steps.push(await served(issued));
      expect(new Set(steps).size, "authorize, consent and token served by both processes").toBe(2);
      // The token, issued for PUBLIC_URL, is good on either process.
      const servers = new Set<ServerProcess>();
      for (let i = 0; i < 2; i++) {
        const list = await modernRpc(front, issued.body.access_token as string, "tools/list", {}, i + 1);
        expect(list.status, list.text).toBe(200);
        expect(Array.isArray(list.json.result.tools)).toBe(true);
        servers.add(await served(list));
      }
      expect(servers.size).toBe(2);
    });

    it("/mcp in both eras (2025-11-25 session-less, 2026-07-28) is answered alike by both processes", async () => {
      const token = await tokenOf(await newClient("Both eras"));
      const servers = new Set<ServerProcess>();
      const lists: string[] = [];
      for (let round = 0; round < 2; round++) {
        const init = await rpc(front, token, {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "cluster", version: "1.0.0" } },
        });
        expect(init.status, init.text).toBe(200);
        expect(init.json.result.protocolVersion).toBe("2025-11-25");
        expect(init.headers.get("mcp-session-id")).toBeNull();
        servers.add(await served(init));
        const list = await rpc(front, token, { jsonrpc: "2.0", id: 2, method: "tools/list" }, { "mcp-protocol-version": "2025-11-25" });
        expect(list.status, list.text).toBe(200);
        servers.add(await served(list));
        const discover = await modernRpc(front, token, "server/discover", {}, 3);
        expect(discover.status, discover.text).toBe(200);
        servers.add(await served(discover));
        const modern = await modernRpc(front, token, "tools/list", {}, 4);
        expect(modern.status, modern.text).toBe(200);
        servers.add(await served(modern));
        lists.push(JSON.stringify(list.json.result.tools.map((t: { name: string }) => t.name)));
        lists.push(JSON.stringify(modern.json.result.tools.map((t: { name: string }) => t.name)));
      }
      expect(servers.size).toBe(2);
      expect(new Set(lists).size, "the same tools from both processes in both eras").toBe(1);
    });

    it("X-Connection-Id: POSTs to /api/mcp/protocol landing on either process are all answered on the stream", async () => {
      const token = await tokenOf(await newClient("Spread stream"));
      const stream = await openStream(token);
      const posted: ServerProcess[] = [];
      for (let id = 1; id <= 6; id++) {
        const res = await rpc(
          front,
          token,
          { jsonrpc: "2.0", id, method: "tools/list", params: { _meta: envelope() } },
          { "mcp-protocol-version": MODERN, "mcp-method": "tools/list", "x-connection-id": stream.connectionId },
          "/api/mcp/protocol",
        );
        expect(res.status, res.text).toBe(202);
        expect(res.json).toEqual({ accepted: true, connectionId: stream.connectionId, messages: 1 });
        posted.push(await served(res));
      }
      expect(posted.filter((p) => p !== stream.holder).length, "posts that landed on the process not holding the stream").toBeGreaterThan(
        0,
      );
      for (let id = 1; id <= 6; id++) {
        const answer = await within(
          10_000,
          `the answer to ${id} on the stream`,
          stream.events.next((e) => e.event === "mcp-response" && (JSON.parse(e.data) as { id: number }).id === id),
        );
        expect(Array.isArray(JSON.parse(answer.data).result.tools)).toBe(true);
      }
      stream.events.close();
    });

    it("legacy GET /sse + POST /messages: messages landing on either process are answered on the session's stream", async () => {
      const token = await tokenOf(await newClient("Legacy spread"));
      const events = await openEvents(`${front}/sse`, bearer(token));
      openStreams.push(events);
      expect(events.status, events.body).toBe(200);
      const endpoint = (await within(10_000, "the endpoint event", events.nextNamed("endpoint"))).data;
      const sessionId = new URL(endpoint, front).searchParams.get("sessionId")!;
      const holder = await holderOf(sessionId);
      const messages = [
        {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "legacy-cluster", version: "1.0.0" } },
        },
        { jsonrpc: "2.0", method: "notifications/initialized" },
        { jsonrpc: "2.0", id: 2, method: "tools/list" },
        { jsonrpc: "2.0", id: 3, method: "ping" },
        { jsonrpc: "2.0", id: 4, method: "tools/list" },
      ];
      const posted: ServerProcess[] = [];
      for (const message of messages) {
        const res = await rpc(front, token, message, {}, `/messages?sessionId=${sessionId}`);
        expect(res.status, res.text).toBe(202);
        posted.push(await served(res));
      }
      expect(posted.filter((p) => p !== holder).length, "messages that landed on the process not holding the session").toBeGreaterThan(0);
      for (const id of [1, 2, 3, 4]) {
        const answer = await within(
          10_000,
          `the answer to ${id} on the legacy stream`,
          events.next((e) => e.event === "message" && (JSON.parse(e.data) as { id?: number }).id === id),
        );
        expect(JSON.parse(answer.data).error).toBeUndefined();
      }
      events.close();
    });

    it("DELETE /api/admin/sse-connections/{id} ends a stream whether it lands on the holder or the other process", async () => {
      const token = await tokenOf(await newClient("Ended by an administrator"));
      const streams = await streamsOnBoth(token);
      const seen: string[] = [];
      for (const [i, stream] of slots.map((p) => streams.find((s) => s.holder === p)!).entries()) {
        // Round robin: the request after one served by X goes to the other. Steer the DELETE to the
        // other process for the first stream and to the holder for the second (bounded tries).
        const wanted = i === 0 ? slots.find((p) => p !== stream.holder)! : stream.holder;
        for (let tries = 0; tries < 4; tries++) {
          const filler = await admin.get("/api/session");
          if ((await served(filler)) !== wanted) break;
        }
        const ended = await admin.request("DELETE", `/api/admin/sse-connections/${stream.connectionId}`);
        expect(ended.status, ended.text).toBe(204);
        seen.push((await served(ended)) === stream.holder ? "on the holder" : "on the other process");
        const error = await within(5_000, "the error event", stream.events.nextNamed("error"));
        expect(JSON.parse(error.data).connectionId).toBe(stream.connectionId);
        await within(5_000, "the stream's end", stream.events.ended());
      }
      expect(seen.sort()).toEqual(["on the holder", "on the other process"]);
      for (const s of streams) s.events.close();
    });

    it(`limits shared through ${store}: 40 calls of one client through HAProxy get exactly ${API_PER_MINUTE} answers and ${API_PER_MINUTE} × 429`, async () => {
      const token = await tokenOf(await newClient("Limited client"));
      const statuses: number[] = [];
      const servers = new Set<ServerProcess>();
      for (let i = 0; i < 2 * API_PER_MINUTE; i++) {
        const res = await rpc(front, token, { jsonrpc: "2.0", id: i + 1, method: "ping" });
        statuses.push(res.status);
        servers.add(await served(res));
      }
      expect(servers.size).toBe(2);
      expect(statuses).toEqual([...Array(API_PER_MINUTE).fill(200), ...Array(API_PER_MINUTE).fill(429)]);
    });

    it("deleting a client through the console ends its streams on both processes within a second", async () => {
      const client = await newClient("Deleted with streams on both");
      const streams = await streamsOnBoth(await tokenOf(client));
      const deleted = await admin.request("DELETE", `/api/admin/oauth-clients/${client.clientId}`);
      expect(deleted.status, deleted.text).toBe(204);
      const at = Date.now();
      const took = await Promise.all(
        streams.map(async (s) => {
          const error = await within(5_000, `the error event on ${nameOf(s.holder)}`, s.events.nextNamed("error"));
          expect(JSON.parse(error.data).message).toMatch(/access ended/);
          await within(5_000, `the end of the stream on ${nameOf(s.holder)}`, s.events.ended());
          return Date.now() - at;
        }),
      );
      expect(Math.max(...took), `ms until each stream ended: ${took.join(", ")}`).toBeLessThan(1_000);
    });

    it("the console sees the cluster: GET /api/admin/stats lists one instance per live process; their openStreams add up", async () => {
      const token = await tokenOf(await newClient("Counted streams"));
      const streams = await streamsOnBoth(token);
      let last = "";
      const stats = await until(
        "activeSSEConnections equal to the sum of the instances' openStreams",
        async () => {
          const res = await admin.get("/api/admin/stats");
          last = `${res.status} ${res.text}`;
          const instances = res.body.instances as { openStreams: number }[] | undefined;
          const sum = Array.isArray(instances) ? instances.reduce((n, i) => n + i.openStreams, 0) : NaN;
          return res.status === 200 && sum === res.body.activeSSEConnections && sum >= streams.length && res;
        },
        10_000,
        250,
      ).catch((err: Error) => {
        throw new Error(`${err.message}; GET /api/admin/stats answered ${last}`);
      });
      const instances = stats.body.instances as Record<string, any>[];
      expect(instances).toHaveLength(2);
      for (const instance of instances) {
        expect(Object.keys(instance)).toEqual(
          expect.arrayContaining(["id", "version", "hostname", "startedAt", "uptime", "openStreams", "lastSeenAt"]),
        );
        expect(instance.hostname).toBe(hostname());
        expect(typeof instance.version).toBe("string");
        expect(Number.isNaN(Date.parse(instance.startedAt))).toBe(false);
        expect(Number.isNaN(Date.parse(instance.lastSeenAt))).toBe(false);
        expect(instance.uptime).toBeGreaterThanOrEqual(0);
      }
      // One entry per live process, each counting the streams it holds (as the registry has them).
      for (const proc of slots) {
        const mine = instances.filter((i) => String(i.id).startsWith(instancePrefix(proc)));
        expect(mine, `the instance of ${nameOf(proc)} in ${JSON.stringify(instances)}`).toHaveLength(1);
        expect(mine[0]!.openStreams).toBeGreaterThanOrEqual(streams.filter((s) => s.holder === proc).length);
        const [held] = await query<{ n: number }>("select count(*)::int as n from sse_connections where is_active and instance_id = $1", [
          mine[0]!.id,
        ]);
        expect(mine[0]!.openStreams).toBe(held!.n);
      }
      // The instance that answered says so.
      const current = instances.filter((i) => i.current === true);
      expect(current).toHaveLength(1);
      expect(String(current[0]!.id).startsWith(instancePrefix(await served(stats)))).toBe(true);
      for (const s of streams) s.events.close();
    });

    it(
      "a rolling restart under load: SIGTERM one process mid-loop loses no request, its stream gets the final event, its log rows are all written; a new process on its port joins",
      async () => {
        const [target, survivor] = slots as [ServerProcess, ServerProcess];
        const streamToken = await tokenOf(await newClient("Stream across the restart"));
        const streams = await streamsOnBoth(streamToken);
        const onTarget = streams.find((s) => s.holder === target)!;
        const onSurvivor = streams.find((s) => s.holder === survivor)!;
        // The load: tools/list from 15 clients (10 calls each, within their API limit) and the
        // console's client list with the admin's cookie (not counted by the API limit), alternately.
        const loadTokens = await Promise.all(Array.from({ length: 15 }, async (_, i) => tokenOf(await newClient(`Load ${i + 1}`))));
        const total = 300;
        const concurrency = 8;
        const sigtermAfter = 100;
        interface Outcome {
          i: number;
          status: number;
          requestId: string | null;
          error?: string;
          at: number;
        }
        const outcomes: Outcome[] = [];
        let next = 0;
        let sigtermAt = 0;
        const call = async (i: number): Promise<Outcome> => {
          const started = Date.now();
          try {
            const res =
              i % 2 === 0 && i < total
                ? await fetch(`${front}/mcp`, {
                    method: "POST",
                    headers: {
                      ...bearer(loadTokens[(i / 2) % loadTokens.length]!),
                      "content-type": "application/json",
                      accept: "application/json, text/event-stream",
                      "mcp-protocol-version": MODERN,
                      "mcp-method": "tools/list",
                    },
                    body: JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/list", params: { _meta: envelope() } }),
                    signal: AbortSignal.timeout(30_000),
                  })
                : await fetch(`${front}/api/admin/oauth-clients`, {
                    headers: { cookie: admin.cookieHeader() },
                    signal: AbortSignal.timeout(30_000),
                  });
            await res.arrayBuffer();
            return { i, status: res.status, requestId: res.headers.get("x-request-id"), at: started };
          } catch (err) {
            const cause = (err as { cause?: { code?: string; message?: string } }).cause;
            return {
              i,
              status: 0,
              requestId: null,
              error: `${(err as Error).message} ${cause?.code ?? cause?.message ?? ""}`,
              at: started,
            };
          }
        };
        // The loop goes on until the stopped process has exited (its drain, 5 s, then its stop):
        // past the first `total` requests, only the console's calls (no API limit to meet).
        const exited = exitOf(target, 30_000);
        let targetGone = false;
        void exited.then(
          () => (targetGone = true),
          () => (targetGone = true),
        );
        const worker = async () => {
          while ((next < total || !targetGone) && next < 20 * total) {
            const outcome = await call(next++);
            outcomes.push(outcome);
            if (outcomes.length === sigtermAfter) {
              sigtermAt = Date.now();
              process.kill(target.child.pid!, "SIGTERM");
            }
          }
        };
        const logFrom = haproxy!.log().length;
        await within(120_000, "the load loop", Promise.all(Array.from({ length: concurrency }, worker)));
        expect(sigtermAt).toBeGreaterThan(0);
        const failed = outcomes
          .filter((o) => o.status < 200 || o.status > 299)
          .map((o) => ({ ...o, at: `${o.at - sigtermAt} ms after SIGTERM` }));
        const unusual = haproxy!
          .log()
          .slice(logFrom)
          .split("\n")
          .filter((line) => line && !/ 2\d\d \d+ - - ---- /.test(line));
        // Soft: the restart and the checks after it go on (the crash test needs the restarted process).
        expect
          .soft(
            failed,
            `requests of the loop not answered 2xx; HAProxy's log since the loop began, less 2xx answers:\n${unusual.join("\n") || "(nothing)"}`,
          )
          .toEqual([]);
        expect(outcomes.length).toBeGreaterThanOrEqual(total);
        expect(targetGone, "the loop ran until the stopped process had exited").toBe(true);

        // Its stream got the final event and ended; the survivor's stream did not.
        const final = await within(5_000, "the final event on the stopped process's stream", onTarget.events.nextNamed("error"));
        expect(JSON.parse(final.data).message).toBe(SHUTTING_DOWN);
        await within(5_000, "the end of the stopped process's stream", onTarget.events.ended());
        expect(await exited).toEqual({ code: 0, signal: null });
        expect(onSurvivor.events.events.some((e) => e.event === "error")).toBe(false);
        // A reconnect through HAProxy lands on the live process.
        const again = await openStream(streamToken);
        expect(again.holder).toBe(survivor);

        // Each process served part of the loop, and every request the stopped one answered has its
        // request-log row: nothing was lost in its shutdown.
        const ids = outcomes.flatMap((o) => (o.requestId ? [o.requestId] : []));
        const byTarget = ids.filter((id) => target.output().includes(id));
        expect(byTarget.length, "requests of the loop the stopped process answered").toBeGreaterThan(0);
        const bySurvivor = await until("the survivor's log of the rest of the loop's answers", async () => {
          const rest = ids.filter((id) => survivor.output().includes(id));
          return byTarget.length + rest.length === ids.length && rest;
        });
        const logged = async (among: string[]) =>
          (
            await query<{ n: number }>("select count(distinct request_id)::int as n from request_logs where request_id = any($1)", [among])
          )[0]!.n;
        expect(await logged(byTarget), "request-log rows of the stopped process's answers").toBe(byTarget.length);
        await until("the survivor's request-log rows of the loop", async () => (await logged(bySurvivor)) === bySurvivor.length);

        // A new process on the stopped one's port: HAProxy's server line finds it again (rise 2 × 2 s).
        const restarted = await startProcess(target.port);
        slots[0] = restarted;
        await until(
          "a request through HAProxy served by the restarted process",
          async () => {
            const res = await admin.get("/api/session");
            return res.status === 200 && (await served(res)) === restarted;
          },
          30_000,
          200,
        );
        // The stopped process left the console's list when it stopped; the new one is in it.
        await instancesListed(slots, 20_000);
        again.events.close();
        for (const s of streams) s.events.close();
      },
      SERVER_START_DEADLINE_MS + 120_000,
    );

    it("a crash: SIGKILL one process; the other keeps answering through HAProxy and the dead one's registry rows turn inactive within 90 s", async () => {
      const [restarted, victim] = slots as [ServerProcess, ServerProcess];
      const token = await tokenOf(await newClient("Streams across a crash"));
      const streams = await streamsOnBoth(token);
      const onVictim = streams.filter((s) => s.holder === victim);
      const victimRows = async () =>
        (
          await query<{ n: number }>("select count(*)::int as n from sse_connections where is_active and instance_id like $1", [
            `${instancePrefix(victim)}%`,
          ])
        )[0]!.n;
      expect(await victimRows()).toBeGreaterThanOrEqual(onVictim.length);
      const killedAt = Date.now();
      process.kill(victim.child.pid!, "SIGKILL");
      expect(await exitOf(victim, 10_000)).toEqual({ code: null, signal: "SIGKILL" });
      // Its streams are cut (the socket closed with the process), so their clients reconnect.
      for (const s of onVictim) await within(15_000, "the end of the killed process's stream", s.events.ended());
      const answers: number[] = [];
      const servers = new Set<ServerProcess>();
      await until(
        "the killed process's registry rows inactive",
        async () => {
          const res = await admin.get("/api/session");
          answers.push(res.status);
          if (res.status === 200) servers.add(await served(res));
          return (await victimRows()) === 0;
        },
        90_000,
        2_000,
      );
      const tookMs = Date.now() - killedAt;
      expect(tookMs).toBeLessThan(90_000);
      expect(
        answers.filter((s) => s !== 200),
        `non-200 answers while one process was dead: ${answers.join(",")}`,
      ).toEqual([]);
      expect([...servers]).toEqual([restarted]);
      for (const s of streams) s.events.close();
      // The console stops listing the dead process (45 s without a sign of life).
      await instancesListed([restarted], 30_000);
      console.warn(`haproxy-cluster (${store}): the killed process's registry rows were inactive ${tookMs} ms after SIGKILL`);
    }, 150_000);
  },
);
