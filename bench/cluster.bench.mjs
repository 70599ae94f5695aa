// Several instances (issue 29 item 9), on a throwaway PostgreSQL started here:
// - what the shared rate-limit store costs a tool call: `tools/call jira_search` p50 (concurrency
//   16, autocannon) on a server counting its limits in PostgreSQL beside one counting in memory,
//   both on the same PostgreSQL, alternating, BENCH_RUNS rounds; the ratio of the medians;
// - how soon a revocation on one instance ends a stream held by another: BENCH_REVOCATIONS trials
//   (a client's stream opened on B, the client deactivated on A, the time from A's answer to the
//   stream's end on B), p50 and p99.
import { request as httpRequest } from "node:http";
import { loaded, ourTarget } from "./mcp.bench.mjs";
import {
  adminCookie,
  benchClient,
  clientToken,
  fmt,
  median,
  percentile,
  requireBuild,
  sourceModule,
  startSandboxProcess,
  startServer,
} from "./lib.mjs";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const REVOCATIONS = Number(process.env.BENCH_REVOCATIONS ?? 100);

/** Opens a client's event stream on `server`; resolves with a promise of its end. */
const openStream = (server, token) =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(server.url);
    const req = httpRequest(
      { host: hostname, port, path: "/api/sse/stream", headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" } },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`stream ${res.statusCode} ${res.headers["www-authenticate"] ?? ""}`));
        const ended = new Promise((r) => res.once("close", () => r(performance.now())));
        res.setEncoding("utf8");
        let seen = "";
        res.on("data", (chunk) => {
          seen += chunk;
          if (seen.includes("event: connected")) resolve({ ended, destroy: () => req.destroy() });
        });
      },
    );
    req.on("error", reject);
    req.end();
  });

export async function run() {
  requireBuild();
  const { startThrowawayPostgres } = await sourceModule("server/test/throwaway-postgres.ts");
  const postgres = await startThrowawayPostgres();
  const sandbox = await startSandboxProcess();
  const env = {
    DATABASE_URL: postgres.url,
    DEMO_SANDBOX_URL: sandbox.url,
    PUBLIC_URL: "http://bridgekeeper.bench",
    SECRET_KEY: "bench-secret-key-bench-secret-key-0123456789",
    // A busy client's limit (some 30,000 requests a minute reach it here): leased 1,000 at a time.
    RATE_LIMIT_API_PER_MINUTE: "100000",
    RATE_LIMIT_API_BURST: "1000",
    // A token per trial, from one address: the OAuth limit (shared by both servers) out of the way.
    RATE_LIMIT_OAUTH_REQUESTS: "100000",
    ATLASSIAN_HOURLY_BUDGET: "100000000",
    BITBUCKET_HOURLY_BUDGET: "100000000",
  };
  const shared = await startServer({ env, timeoutMs: 60_000 });
  const alone = await startServer({ env: { ...env, RATE_LIMIT_STORE: "memory" }, timeoutMs: 60_000 });
  try {
    // The same client on both (one database): each server's token works on the other.
    const client = await benchClient(shared, { name: "cluster bench", scopes: ["read"] });
    const token = await clientToken(shared, client, "read");
    const targets = [
      { ...ourTarget(shared, token, "PostgreSQL limit store"), p50: [] },
      { ...ourTarget(alone, token, "in-process limit store"), p50: [] },
    ];
    for (const target of targets) await loaded(target); // warm-up
    // Alternating, and each round in the other order: neither store always runs first.
    for (let i = 0; i < RUNS; i++)
      for (const target of i % 2 ? [...targets].reverse() : targets) target.p50.push((await loaded(target)).p50);
    const [pg, memory] = targets.map((t) => median(t.p50));

    // Revocation on A (shared), the stream on B (alone: its limits are its own, its events are not).
    const cookie = await adminCookie(shared);
    const delays = [];
    for (let i = 0; i < REVOCATIONS; i++) {
      const c = await benchClient(shared, { name: `revoked ${i}`, scopes: ["read"] });
      const stream = await openStream(alone, await clientToken(shared, c, "read"));
      const patched = await fetch(`${shared.url}/api/admin/oauth-clients/${c.clientId}`, {
        method: "PATCH",
        headers: { "content-type": "application/json", cookie, origin: shared.url },
        body: JSON.stringify({ isActive: false }),
      });
      if (patched.status !== 200) throw new Error(`deactivate: ${patched.status}`);
      const answered = performance.now();
      const timeout = new Promise((r) => setTimeout(() => r(null), 10_000));
      const ended = await Promise.race([stream.ended, timeout]);
      stream.destroy();
      delays.push(ended === null ? 10_000 : Math.max(0, ended - answered));
    }
    return [
      { name: "tools/call p50, PostgreSQL limit store (ms)", median: fmt(pg, 2), runs: targets[0].p50.join(", ") },
      { name: "tools/call p50, in-process limit store (ms)", median: fmt(memory, 2), runs: targets[1].p50.join(", ") },
      { name: "ratio PostgreSQL / in-process (p50)", median: `${fmt(pg / memory, 3)}×` },
      {
        name: `revocation on one instance → stream ended on the other, p50 over ${REVOCATIONS} (ms)`,
        median: fmt(percentile(delays, 50), 1),
      },
      {
        name: `revocation on one instance → stream ended on the other, p99 over ${REVOCATIONS} (ms)`,
        median: fmt(percentile(delays, 99), 1),
      },
    ];
  } finally {
    await shared.stop();
    await alone.stop();
    await sandbox.stop();
    postgres.stop();
  }
}
