// `npm run screenshots` (after `npm run build`): the README's screenshots in docs/screenshots/,
// taken by playwright.screenshots.config.ts from a fresh stack. Not part of `npm test`.
//
// The stack runs from a copy of the build in a temporary directory (with the package manifest,
// the migrations and a link to node_modules: what the server reads from its root), its data
// directory inside (./data); the directory goes afterwards. So a build started meanwhile in this checkout (by you,
// or by `npm test`) cannot swap the console's files under the screens being shot.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(new URL("..", import.meta.url).pathname);
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(chromium)) {
  console.error(
    `Chromium is missing at ${chromium}. Install it with:\n\n  sudo apt-get update && sudo apt-get install -y chromium\n\n(or set CHROMIUM_PATH to a Chromium binary)`,
  );
  process.exit(1);
}
for (const entry of [
  "dist/server/main.js",
  "dist/sandbox/main.js",
  "dist/sandbox/fake-ai/main.js",
  "dist/web/index.html",
  "dist/pglite-seed",
]) {
  if (!existsSync(join(ROOT, entry))) {
    console.error(`${entry} is missing: run \`npm run build\` first (\`npm run screenshots\` does).`);
    process.exit(1);
  }
}

/** Every file the copied console names (index.html's and each chunk's relative imports) is there. */
function consoleComplete(web) {
  const names = new Set(readdirSync(join(web, "assets")));
  const referenced = new Set();
  for (const m of readFileSync(join(web, "index.html"), "utf8").matchAll(/\/assets\/([\w.-]+)/g)) referenced.add(m[1]);
  for (const file of names) {
    if (!file.endsWith(".js")) continue;
    for (const m of readFileSync(join(web, "assets", file), "utf8").matchAll(/["'`](?:\.\/|\/assets\/)([\w.-]+\.(?:js|css))["'`]/g))
      referenced.add(m[1]);
  }
  return [...referenced].every((name) => names.has(name));
}

const stack = mkdtempSync(join(tmpdir(), "bridgekeeper-screenshots-"));
let status = 1;
try {
  cpSync(join(ROOT, "package.json"), join(stack, "package.json"));
  mkdirSync(join(stack, "server/db"), { recursive: true });
  cpSync(join(ROOT, "server/db/migrations"), join(stack, "server/db/migrations"), { recursive: true });
  symlinkSync(join(ROOT, "node_modules"), join(stack, "node_modules"), "dir");
  for (let attempt = 1; ; attempt++) {
    rmSync(join(stack, "dist"), { recursive: true, force: true });
    cpSync(join(ROOT, "dist"), join(stack, "dist"), { recursive: true });
    if (consoleComplete(join(stack, "dist/web"))) break;
    if (attempt === 3)
      throw new Error("dist/web kept changing while it was copied (another build running?): run `npm run screenshots` again");
    console.warn("dist/web changed while it was copied (another build?); copying again");
    spawnSync("sleep", ["5"]);
  }
  const result = spawnSync("npx", ["playwright", "test", "-c", "playwright.screenshots.config.ts", ...process.argv.slice(2)], {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, SHOTS_APP_DIR: stack },
  });
  status = result.status ?? 1;
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
} finally {
  rmSync(stack, { recursive: true, force: true });
}
process.exit(status);
