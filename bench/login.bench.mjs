// Login throughput and latency (argon2id bound), against GET /api/mcp/health on the same server
// in the same run as the baseline (issue 2).
import autocannon from "autocannon";
import { fmt, median, requireBuild, startServer } from "./lib.mjs";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

const cannon = (opts) =>
  new Promise((resolve, reject) => autocannon({ connections: 4, duration: SECONDS, ...opts }, (err, res) => (err ? reject(err) : resolve(res))));

export async function run() {
  requireBuild();
  const server = await startServer();
  try {
    const login = { rps: [], p50: [], p99: [], non2xx: 0 };
    const health = { rps: [], p99: [] };
    for (let i = 0; i < RUNS; i++) {
      const h = await cannon({ url: `${server.url}/api/mcp/health` });
      health.rps.push(h.requests.average);
      health.p99.push(h.latency.p99);
      const l = await cannon({
        url: `${server.url}/api/login`,
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: "admin", password: "bench-admin-password" }),
      });
      login.rps.push(l.requests.average);
      login.p50.push(l.latency.p50);
      login.p99.push(l.latency.p99);
      login.non2xx += l.non2xx;
    }
    if (login.non2xx > 0) throw new Error(`${login.non2xx} login requests did not answer 2xx`);
    return [
      { name: `POST /api/login, 4 connections, ${SECONDS} s`, median: `${fmt(median(login.rps))} req/s, p50 ${fmt(median(login.p50))} ms, p99 ${fmt(median(login.p99))} ms`, runs: login.rps.map((x) => fmt(x)).join(", ") },
      { name: "baseline GET /api/mcp/health, same server", median: `${fmt(median(health.rps))} req/s, p99 ${fmt(median(health.p99))} ms`, runs: health.rps.map((x) => fmt(x)).join(", ") },
      { name: "login cost relative to health", median: `${fmt(median(health.rps) / median(login.rps), 1)}x fewer req/s`, runs: "" },
    ];
  } finally {
    await server.stop();
  }
}
