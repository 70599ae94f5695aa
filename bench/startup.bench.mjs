// Cold start to the first 200 from /api/mcp/health on PGlite (issue 2; target < 1.5 s).
// Two cases: a restart on an existing data directory, and the very first start on an empty one
// (which includes PGlite's initdb, the migrations and the first administrator's argon2 hash).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fmt, median, requireBuild, startServer } from "./lib.mjs";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);

export async function run() {
  requireBuild();
  const first = [];
  const restart = [];
  for (let i = 0; i < RUNS; i++) {
    const dir = mkdtempSync(join(tmpdir(), "bk-bench-start-"));
    try {
      const a = await startServer({ dataDir: dir });
      first.push(a.readyMs);
      await a.stop({ keepData: true });
      const b = await startServer({ dataDir: dir });
      restart.push(b.readyMs);
      await b.stop({ keepData: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return [
    {
      name: "start to first health 200, existing data dir (restart)",
      median: `${fmt(median(restart))} ms`,
      runs: restart.map((x) => fmt(x)).join(", "),
    },
    {
      name: "start to first health 200, empty data dir (first start)",
      median: `${fmt(median(first))} ms`,
      runs: first.map((x) => fmt(x)).join(", "),
    },
  ];
}
