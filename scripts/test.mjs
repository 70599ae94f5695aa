// `npm test`: every check, in order of cost. Stops at the first failure.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

function run(title, command, args, env = {}) {
  console.log(`\n▶ ${title}`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  if (result.status !== 0) {
    console.error(`\n✗ ${title} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status || 1);
  }
  console.log(`✓ ${title} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  const isRoot = process.getuid?.() === 0;
  const hasApt = spawnSync("sh", ["-c", "command -v apt-get"]).status === 0;
  if (isRoot && hasApt) {
    run("install Debian's Chromium (browser tests never download one)", "sh", [
      "-c",
      "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null",
    ]);
    if (existsSync(CHROMIUM)) return;
  }
  console.error(
    `\nChromium is missing at ${CHROMIUM}. Install it with:\n\n  sudo apt-get update && sudo apt-get install -y chromium\n\n(or set CHROMIUM_PATH to a Chromium binary)`,
  );
  process.exit(1);
}

run("typecheck", "npm", ["run", "-s", "typecheck"]);
run("lint", "npm", ["run", "-s", "lint"]);
run("unit and integration tests (PGlite, PostgreSQL)", "npx", ["vitest", "run"]);
ensureChromium();
run("build", "npm", ["run", "-s", "build"]);
run("browser tests (Playwright + Chromium)", "npx", ["playwright", "test"]);
