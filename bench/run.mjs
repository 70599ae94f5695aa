// `npm run bench [name...]`: runs the benchmarks (all, or those named) against the built server on
// loopback and prints medians. Every load is bounded in time. Build first: npm run build.
import { cpus } from "node:os";

const ALL = [
  "startup",
  "bundle",
  "login",
  "users",
  "users-search",
  "sandbox",
  "upstream",
  "oauth",
  "mcp",
  "mcp-streams",
  "cluster",
  "request-log",
  "catalogue",
  "observability",
  "dashboard",
  "chat",
  "chat-paint",
];
const chosen = process.argv.slice(2).length ? process.argv.slice(2) : ALL;

console.log(
  `Bridgekeeper benchmarks — ${new Date().toISOString()} — Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}`,
);
for (const name of chosen) {
  const { run } = await import(`./${name}.bench.mjs`);
  const rows = await run();
  console.log(`\n## ${name}`);
  for (const row of rows) console.log(`- ${row.name}: ${row.median}${row.runs ? `  (runs: ${row.runs})` : ""}`);
}
