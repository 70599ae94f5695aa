// OAuth (issue 5): token endpoint throughput, and the cost of the bearer check per protected
// request (target < 50 µs at p50 with the cache). The token endpoint runs against the built
// server over loopback, beside /api/mcp/health in the same run as the baseline; the bearer check
// is measured in process on the real service and guard (bench/bearer-probe.ts).
import autocannon from "autocannon";
import { benchClient, fmt, median, requireBuild, startServer, probeModule } from "./lib.mjs";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

const cannon = (opts) =>
  new Promise((resolve, reject) =>
    autocannon({ connections: 4, duration: SECONDS, ...opts }, (err, res) => (err ? reject(err) : resolve(res))),
  );

const loadProbe = () => probeModule("bench/bearer-probe.ts", "bearer-probe");

async function tokenEndpoint() {
  const server = await startServer({ env: { RATE_LIMIT_OAUTH_REQUESTS: "100000000" } });
  try {
    const { basic } = await benchClient(server);
    const token = { rps: [], p50: [], p99: [] };
    const health = { rps: [] };
    let bad = 0;
    for (let i = 0; i < RUNS; i++) {
      health.rps.push((await cannon({ url: `${server.url}/api/mcp/health` })).requests.average);
      const r = await cannon({
        url: `${server.url}/oauth/token`,
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic },
        body: "grant_type=client_credentials&scope=read",
      });
      token.rps.push(r.requests.average);
      token.p50.push(r.latency.p50);
      token.p99.push(r.latency.p99);
      bad += r.non2xx + r.errors;
    }
    if (bad > 0) throw new Error(`${bad} token requests failed`);
    return [
      {
        name: `POST /oauth/token (client_credentials, Basic), 4 connections, ${SECONDS} s`,
        median: `${fmt(median(token.rps))} req/s, p50 ${fmt(median(token.p50))} ms, p99 ${fmt(median(token.p99))} ms`,
        runs: token.rps.map((x) => fmt(x)).join(", "),
      },
      {
        name: "baseline GET /api/mcp/health, same server",
        median: `${fmt(median(health.rps))} req/s`,
        runs: health.rps.map((x) => fmt(x)).join(", "),
      },
    ];
  } finally {
    await server.stop();
  }
}

export async function run() {
  requireBuild();
  const rows = await tokenEndpoint();
  const { measure } = await loadProbe();
  const results = [];
  for (let i = 0; i < RUNS; i++) results.push(await measure());
  const us = (x) => `${fmt(x, 1)} µs`;
  rows.push(
    {
      name: "bearer check, first sight of a token (database lookup)",
      median: us(median(results.map((r) => r.uncachedUs))),
      runs: results.map((r) => us(r.uncachedUs)).join(", "),
    },
    {
      name: "verifyAccessToken with the cache, per call",
      median: `p50 ${us(median(results.map((r) => r.verify.p50)))}`,
      runs: results.map((r) => us(r.verify.p50)).join(", "),
    },
    {
      name: "whole bearer guard per protected request (target < 50 µs at p50)",
      median: `p50 ${us(median(results.map((r) => r.guarded.p50)))}, p99 ${us(median(results.map((r) => r.guarded.p99)))}`,
      runs: results.map((r) => us(r.guarded.p50)).join(", "),
    },
  );
  return rows;
}
