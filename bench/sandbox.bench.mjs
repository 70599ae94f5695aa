// Sandbox throughput for small GETs (issue 4: it must never be the bottleneck of later benchmarks,
// target > 10,000 req/s here). The sandbox runs in its own process; autocannon in this one.
import autocannon from "autocannon";
import { fmt, median, startSandboxProcess } from "./lib.mjs";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const AUTH = `Basic ${Buffer.from("demo@bridgekeeper.test:sandbox-api-token").toString("base64")}`;
const BB_AUTH = `Basic ${Buffer.from("demo:sandbox-app-password").toString("base64")}`;

const cannon = (opts) =>
  new Promise((resolve, reject) =>
    autocannon({ connections: 10, duration: SECONDS, ...opts }, (err, res) => (err ? reject(err) : resolve(res))),
  );

export async function run() {
  const sandbox = await startSandboxProcess();
  try {
    const targets = [
      { name: "GET /rest/api/3/myself", url: `${sandbox.url}/rest/api/3/myself`, headers: { authorization: AUTH } },
      { name: "GET /rest/api/3/issue/{key}", url: `${sandbox.url}/rest/api/3/issue/BK-1`, headers: { authorization: AUTH } },
      { name: "GET /2.0/user", url: `${sandbox.url}/2.0/user`, headers: { authorization: BB_AUTH } },
      { name: "GET /__sandbox/health (no auth, no data: the floor)", url: `${sandbox.url}/__sandbox/health`, headers: {} },
    ];
    const rows = [];
    for (const target of targets) {
      const rps = [];
      const p99 = [];
      let bad = 0;
      for (let i = 0; i < RUNS; i++) {
        const r = await cannon({ url: target.url, headers: target.headers });
        rps.push(r.requests.average);
        p99.push(r.latency.p99);
        bad += r.non2xx + r.errors;
      }
      if (bad > 0) throw new Error(`${target.name}: ${bad} requests failed`);
      rows.push({
        name: `${target.name}, 10 connections, ${SECONDS} s`,
        median: `${fmt(median(rps))} req/s, p99 ${fmt(median(p99))} ms`,
        runs: rps.map((x) => fmt(x)).join(", "),
      });
    }
    return rows;
  } finally {
    await sandbox.stop();
  }
}
