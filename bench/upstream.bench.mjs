// Upstream layer overhead per call (issue 4: target < 0.3 ms at p50, concurrency 1): the same
// GET to the sandbox, sequentially, once straight through an undici pool and once through
// server/upstream/http.ts (deadline, breaker, retry loop, size cap, accounting, JSON parse on
// both sides). Runs alternate between the two so machine noise hits both alike.
import { Agent } from "undici";
import { fmt, median, percentile, startSandboxProcess, probeModule } from "./lib.mjs";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CALLS = Number(process.env.BENCH_CALLS ?? 3000);
const WARMUP = 500;
const AUTH = `Basic ${Buffer.from("demo@bridgekeeper.test:sandbox-api-token").toString("base64")}`;
const PATH = "/rest/api/3/myself";

/**
 * The TypeScript upstream layer, bundled for this script into node_modules/.cache (so its own
 * imports of undici and cockatiel resolve from the project's node_modules).
 */
const loadUpstream = () =>
  probeModule(
    {
      contents:
        'export { createUpstreamHttp } from "./server/upstream/http.ts"; export { createUpstreamMeter } from "./server/upstream/meter.ts";',
    },
    "upstream",
  );

async function timeCalls(call, n) {
  const times = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await call();
    times[i] = performance.now() - t0;
  }
  return [...times];
}

export async function run() {
  const { createUpstreamHttp, createUpstreamMeter } = await loadUpstream();
  const sandbox = await startSandboxProcess();
  const origin = sandbox.url;
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: 64 });
  const meter = createUpstreamMeter({ clock: { now: () => new Date() }, hourlyBudget: { atlassian: 1_000_000, bitbucket: 1_000_000 } });
  const http = createUpstreamHttp({ meter, timeoutMs: 10_000 });
  const target = { baseUrl: origin, authorization: AUTH };

  const direct = async () => {
    const res = await agent.request({ origin, path: PATH, method: "GET", headers: { authorization: AUTH, accept: "application/json" } });
    const body = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`direct: ${res.statusCode}`);
    return JSON.parse(body);
  };
  const layered = async () => (await http.request("jira", target, { path: PATH })).data;

  try {
    await timeCalls(direct, WARMUP);
    await timeCalls(layered, WARMUP);
    const p50 = { direct: [], layered: [] };
    const p99 = { direct: [], layered: [] };
    const overhead = [];
    for (let i = 0; i < RUNS; i++) {
      const d = await timeCalls(direct, CALLS);
      const l = await timeCalls(layered, CALLS);
      p50.direct.push(percentile(d, 50));
      p50.layered.push(percentile(l, 50));
      p99.direct.push(percentile(d, 99));
      p99.layered.push(percentile(l, 99));
      overhead.push(percentile(l, 50) - percentile(d, 50));
    }
    const us = (ms) => `${fmt(ms * 1000)} µs`;
    return [
      {
        name: `direct undici GET ${PATH}, concurrency 1, ${CALLS} calls`,
        median: `p50 ${us(median(p50.direct))}, p99 ${us(median(p99.direct))}`,
        runs: p50.direct.map(us).join(", "),
      },
      {
        name: "through the upstream layer, same calls",
        median: `p50 ${us(median(p50.layered))}, p99 ${us(median(p99.layered))}`,
        runs: p50.layered.map(us).join(", "),
      },
      { name: "upstream layer overhead at p50 (target < 300 µs)", median: us(median(overhead)), runs: overhead.map(us).join(", ") },
    ];
  } finally {
    await http.close();
    await agent.close();
    await sandbox.stop();
  }
}
