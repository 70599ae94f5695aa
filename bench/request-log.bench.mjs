// Request log (issue 10): rows a second the batched writer sustains on PGlite (target ≥ 10,000),
// and the cost of record() on the request path; then tools/call p99 with the log on and off
// (REQUEST_LOG=false) on two servers in the same run (target: < 10 % apart).
import { fmt, median, requireBuild, probeModule } from "./lib.mjs";
import { toolsCallLatency } from "./mcp.bench.mjs";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);

const loadProbe = () => probeModule("bench/request-log-probe.ts", "request-log-probe");

export async function run() {
  requireBuild();
  const { measure } = await loadProbe();
  const results = [];
  for (let i = 0; i < RUNS; i++) results.push(await measure());
  const rows = [
    {
      name: "request log rows stored per second on PGlite (200,000 rows; target ≥ 10,000)",
      median: `${fmt(median(results.map((r) => r.rowsPerSecond)))} rows/s`,
      runs: results.map((r) => fmt(r.rowsPerSecond)).join(", "),
    },
    {
      name: "record() on the request path, per row",
      median: `${fmt(median(results.map((r) => r.recordNsPerRow)))} ns`,
      runs: results.map((r) => fmt(r.recordNsPerRow)).join(", "),
    },
  ];
  const { on, off } = await toolsCallLatency(RUNS);
  const ratio = on.map((x, i) => x.p99 / off[i].p99);
  rows.push(
    {
      name: "tools/call jira_search, concurrency 16, request log on",
      median: `p50 ${fmt(median(on.map((x) => x.p50)), 1)} ms, p99 ${fmt(median(on.map((x) => x.p99)), 1)} ms, ${fmt(median(on.map((x) => x.rps)))} req/s`,
      runs: on.map((x) => fmt(x.p99, 1)).join(", "),
    },
    {
      name: "the same, request log off (REQUEST_LOG=false)",
      median: `p50 ${fmt(median(off.map((x) => x.p50)), 1)} ms, p99 ${fmt(median(off.map((x) => x.p99)), 1)} ms, ${fmt(median(off.map((x) => x.rps)))} req/s`,
      runs: off.map((x) => fmt(x.p99, 1)).join(", "),
    },
    { name: "p99 with the log / without (target < 1.10)", median: fmt(median(ratio), 3), runs: ratio.map((x) => fmt(x, 3)).join(", ") },
  );
  return rows;
}
