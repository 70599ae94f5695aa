// `npm run demo`: the sandbox (imitation Jira, Confluence and Bitbucket Cloud) beside the server,
// with both integrations configured to it, so the console shows live data without an Atlassian
// account. Its data directory is separate from `npm start`'s (DATA_DIR, default ./data-demo).
import { spawn } from "node:child_process";
import { join } from "node:path";

const ROOT = new URL("..", import.meta.url).pathname;
const sandboxPort = Number(process.env.SANDBOX_PORT ?? 5100);
const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
// A fake AI model server (the wire formats of OpenAI, Anthropic and Google; keyword rules, no model), so the chat works offline.
const fakeAiPort = Number(process.env.FAKE_AI_PORT ?? 5102);
const fakeAiUrl = `http://127.0.0.1:${fakeAiPort}`;

const children = [];
let stopping = false;
function stopAll(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  setTimeout(() => process.exit(code), 10_000).unref();
  Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once("exit", r)) : null))).then(() => process.exit(code));
}

function start(name, entry, env) {
  const child = spawn(process.execPath, [join(ROOT, entry)], { cwd: ROOT, env: { ...process.env, ...env }, stdio: "inherit" });
  child.once("exit", (code) => {
    if (!stopping) {
      console.error(`${name} exited (${code}); stopping the demo`);
      stopAll(code ?? 1);
    }
  });
  children.push(child);
  return child;
}

async function waitFor(name, healthUrl) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      if ((await fetch(healthUrl)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      console.error(`The ${name} did not start (${healthUrl})`);
      stopAll(1);
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

start("sandbox", "dist/sandbox/main.js", { SANDBOX_PORT: String(sandboxPort), SANDBOX_HOST: "127.0.0.1" });
start("fake AI", "dist/sandbox/fake-ai/main.js", { FAKE_AI_PORT: String(fakeAiPort) });
await Promise.all([waitFor("sandbox", `${sandboxUrl}/__sandbox/health`), waitFor("fake AI", `${fakeAiUrl}/health`)]);

start("server", "dist/server/main.js", {
  DATA_DIR: process.env.DATA_DIR ?? "./data-demo",
  DEMO_SANDBOX_URL: sandboxUrl,
  DEMO_AI_URL: fakeAiUrl,
  BITBUCKET_API_URL: `${sandboxUrl}/2.0`,
  ATLASSIAN_AUTH_URL: sandboxUrl,
  ATLASSIAN_API_URL: sandboxUrl,
  BITBUCKET_AUTH_URL: sandboxUrl,
  // Each person's own account: two console users linked to two sandbox people who see different things.
  DEMO_PEOPLE: "true",
  // The sandbox listens on loopback, which the upstream host rule refuses unless it is named.
  UPSTREAM_ALLOWED_HOSTS: [process.env.UPSTREAM_ALLOWED_HOSTS, new URL(sandboxUrl).hostname].filter(Boolean).join(","),
});

process.on("SIGINT", () => stopAll(0));
process.on("SIGTERM", () => stopAll(0));
