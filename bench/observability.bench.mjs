// Observability screens (issue 12), with 1,000,000 request log rows stored (PGlite on disk, as
// `npm start` runs it): GET /api/admin/logs first page and a filtered page (target p50 < 50 ms),
// the stats (target p50 < 20 ms), the logs summary, and a CSV export of 100,000 rows (time, and the
// server's memory while it streams: flat means it does not grow with the rows). Each figure is
// also given against GET /api/mcp/health measured in the same run (the floor of a request here).
import { readFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fmt, median, requireBuild, startServer, probeModule } from "./lib.mjs";

const ROWS = Number(process.env.BENCH_LOG_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
/** Requests per endpoint per run, one at a time; bounded in time too. */
const SAMPLES = 40;
const SAMPLE_BUDGET_MS = 20_000;

const loadFill = () => probeModule("bench/logs-fill.ts", "logs-fill");

const rssKb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);

async function signIn(url) {
  const res = await fetch(`${url}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url },
    body: JSON.stringify({ username: "admin", password: "bench-admin-password" }),
  });
  if (res.status !== 200) throw new Error(`sign-in answered ${res.status}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** p50 of SAMPLES sequential GETs (after 3 unmeasured ones), in ms. */
async function p50(url, path, cookie) {
  const times = [];
  const started = performance.now();
  for (let i = 0; i < SAMPLES + 3 && performance.now() - started < SAMPLE_BUDGET_MS; i++) {
    const t0 = performance.now();
    const res = await fetch(`${url}${path}`, { headers: { cookie, accept: "application/json" } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    if (i >= 3) times.push(performance.now() - t0);
  }
  return median(times);
}

/** Streams an export; answers its time, rows and the server's peak RSS growth over its RSS before. */
async function exportCsv(server, url, query, cookie) {
  const before = rssKb(server.pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssKb(server.pid))), 20);
  const t0 = performance.now();
  const res = await fetch(`${url}/api/admin/logs/export?${query}`, { headers: { cookie } });
  let lines = 0;
  for await (const chunk of res.body) for (const byte of chunk) if (byte === 10) lines++;
  const ms = performance.now() - t0;
  clearInterval(sampler);
  peak = Math.max(peak, rssKb(server.pid));
  return { ms, rows: lines - 1, growthMb: (peak - before) / 1024 };
}

export async function run() {
  requireBuild();
  const { fill } = await loadFill();
  const dataDir = mkdtempSync(join(tmpdir(), "bk-bench-obs-"));
  const filled = await fill(dataDir, ROWS);
  const server = await startServer({ dataDir, timeoutMs: 120_000 });
  try {
    const { url } = server;
    const cookie = await signIn(url);
    // 100,000 rows: the newest 8,600 s at one row per 86 ms; 10,000 for the flatness comparison.
    const window = (seconds) => `from=${encodeURIComponent(new Date(Date.now() - seconds * 1000).toISOString())}`;
    const paths = {
      health: "/api/mcp/health",
      first: "/api/admin/logs?limit=200",
      filtered: "/api/admin/logs?limit=200&status=error&method=GET&search=jira",
      summary: "/api/admin/logs/summary",
      summaryFiltered: "/api/admin/logs/summary?status=error&search=bk_client_7",
      stats: "/api/admin/stats",
      traffic: "/api/admin/stats/traffic",
      endpoints: "/api/admin/endpoint-stats",
    };
    const results = Object.fromEntries(Object.keys(paths).map((k) => [k, []]));
    const exports = { big: [], small: [] };
    for (let r = 0; r < RUNS; r++) {
      for (const [k, path] of Object.entries(paths)) results[k].push(await p50(url, path, cookie));
      exports.small.push(await exportCsv(server, url, window(860), cookie));
      exports.big.push(await exportCsv(server, url, window(8600), cookie));
    }
    const m = (k) => median(results[k]);
    const row = (name, k, target) => ({
      name: `${name}${target ? ` (target < ${target} ms)` : ""}`,
      median: `p50 ${fmt(m(k), 1)} ms, ${fmt(m(k) / m("health"), 1)}× health`,
      runs: results[k].map((x) => fmt(x, 1)).join(", "),
    });
    return [
      { name: `rows stored (filled in ${fmt(filled.ms / 1000, 1)} s)`, median: ROWS.toLocaleString("en"), runs: "" },
      row("GET /api/mcp/health (the floor)", "health"),
      row("GET /api/admin/logs first page of 200", "first", 50),
      row("GET /api/admin/logs filtered (errors, GET, search)", "filtered", 50),
      row("GET /api/admin/logs/summary, no filter", "summary"),
      row("GET /api/admin/logs/summary, filtered (scan)", "summaryFiltered"),
      row("GET /api/admin/stats", "stats", 20),
      row("GET /api/admin/stats/traffic", "traffic"),
      row("GET /api/admin/endpoint-stats", "endpoints"),
      {
        name: "CSV export of 100,000 rows",
        median: `${fmt(median(exports.big.map((e) => e.ms)))} ms, ${fmt(median(exports.big.map((e) => e.rows)))} rows, server RSS +${fmt(median(exports.big.map((e) => e.growthMb)), 1)} MB`,
        runs: exports.big.map((e) => `${fmt(e.ms)} ms/+${fmt(e.growthMb, 1)} MB`).join(", "),
      },
      {
        name: "CSV export of 10,000 rows (flatness: compare the RSS growth)",
        median: `${fmt(median(exports.small.map((e) => e.ms)))} ms, server RSS +${fmt(median(exports.small.map((e) => e.growthMb)), 1)} MB`,
        runs: exports.small.map((e) => `${fmt(e.ms)} ms/+${fmt(e.growthMb, 1)} MB`).join(", "),
      },
    ];
  } finally {
    await server.stop({ keepData: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}
