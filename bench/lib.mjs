// Shared helpers for the benchmarks: start the built server, wait for it, summarise runs.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ROOT = new URL("..", import.meta.url).pathname;
export const SERVER_ENTRY = join(ROOT, "dist/server/main.js");

export function requireBuild(root = ROOT) {
  if (!existsSync(join(root, "dist/server/main.js")) || !existsSync(join(root, "dist/web/index.html"))) {
    throw new Error(`Build first: npm run build${root === ROOT ? "" : ` (in ${root})`}`);
  }
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export const freePort = () =>
  new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });

/**
 * Starts dist/server/main.js on a loopback port. `dataDir` null: a new temporary one. `root`: the
 * built checkout to run (default: this one), e.g. an older commit's worktree for a comparison.
 * Resolves when /api/mcp/health first answers 200, with the milliseconds since spawn.
 */
export async function startServer({ dataDir = null, env = {}, timeoutMs = 30_000, root = ROOT, nodeArgs = [] } = {}) {
  const port = await freePort();
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), "bk-bench-"));
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, join(root, "dist/server/main.js")], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dir,
      LOG_LEVEL: "warn",
      ADMIN_PASSWORD: "bench-admin-password",
      UPSTREAM_ALLOW_PRIVATE: "true",
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (performance.now() - started > timeoutMs) {
      child.kill("SIGKILL");
      throw new Error("server did not answer in time");
    }
    try {
      const res = await fetch(`${url}/api/mcp/health`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  const readyMs = performance.now() - started;
  return {
    url,
    readyMs,
    dataDir: dir,
    pid: child.pid,
    async stop({ keepData = false } = {}) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
      if (!keepData && !dataDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const fmt = (n, digits = 0) => Number(n).toFixed(digits);

export const SANDBOX_ENTRY = join(ROOT, "dist/sandbox/main.js");

/** Starts dist/sandbox/main.js on a loopback port, in its own process; resolves once it answers. */
export async function startSandboxProcess({ timeoutMs = 15_000 } = {}) {
  if (!existsSync(SANDBOX_ENTRY)) throw new Error("Build first: npm run build");
  const port = await freePort();
  const child = spawn(process.execPath, [SANDBOX_ENTRY], {
    cwd: ROOT,
    env: { ...process.env, SANDBOX_PORT: String(port), SANDBOX_HOST: "127.0.0.1" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  for (;;) {
    if (performance.now() - started > timeoutMs) {
      child.kill("SIGKILL");
      throw new Error("sandbox did not answer in time");
    }
    try {
      if ((await fetch(`${url}/__sandbox/health`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  return {
    url,
    pid: child.pid,
    async stop() {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** CPU time (user + system) a process has used so far, in ms (Linux /proc; clock ticks of 10 ms). */
export function cpuTimeMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Fields 14 and 15 of proc(5) (utime, stime), counted from the state field (3) here.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** Percentile of a sorted copy of `xs` (0..100). */
export const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

/** Signs in as the bench admin and makes an OAuth client through the console's API; its Basic credentials. */
/** The bench admin's session cookie, for console routes (CSRF is checked by Origin: send the server's own). */
export async function adminCookie(server) {
  const login = await fetch(`${server.url}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "admin", password: "bench-admin-password" }),
  });
  return login.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

export async function benchClient(server, { name = "bench", scopes = ["read", "write"] } = {}) {
  const cookie = await adminCookie(server);
  const created = await fetch(`${server.url}/api/admin/oauth-clients`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie, origin: server.url },
    body: JSON.stringify({ name, redirectUris: ["https://app.example.com/cb"], scopes, isActive: true }),
  });
  const { clientId, clientSecret } = await created.json();
  return { clientId, clientSecret, basic: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}` };
}

/** A client_credentials access token with `scope`, for a new bench client. */
export async function benchToken(server, scope = "read") {
  return clientToken(server, await benchClient(server, { scopes: scope.split(" ") }), scope);
}

/** A client_credentials token of a client made by benchClient. */
export async function clientToken(server, { basic }, scope = "read") {
  const res = await fetch(`${server.url}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic },
    body: `grant_type=client_credentials&scope=${encodeURIComponent(scope)}`,
  });
  return (await res.json()).access_token;
}

/** A module of contract/ (TypeScript), bundled on the fly: the benches use the product's own names and schemas. */
export const contractModule = (name) => sourceModule(`contract/${name}.ts`);

/** A TypeScript module of this checkout (e.g. the fake AI providers), bundled on the fly and imported. */
export async function sourceModule(path) {
  const { build } = await import("esbuild");
  const out = await build({
    entryPoints: [join(ROOT, path)],
    bundle: true,
    format: "esm",
    platform: "node",
    write: false,
    logLevel: "silent",
  });
  return import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString("base64")}`);
}

/** Debian's Chromium for the browser benchmarks, kept off the (closed) network. */
export const CHROMIUM = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
};

/**
 * A user-bound token of the bench admin (authorize → consent → code → token), for a client made by
 * benchClient: what an MCP client acting for a person holds.
 */
export async function userToken(server, client, cookie, scope = "read") {
  const { createHash, randomBytes } = await import("node:crypto");
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const redirectUri = "https://app.example.com/cb";
  const authorize = new URL(`${server.url}/oauth/authorize`);
  authorize.search = new URLSearchParams({
    response_type: "code",
    client_id: client.clientId,
    redirect_uri: redirectUri,
    scope,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "bench",
  }).toString();
  const res = await fetch(authorize, { redirect: "manual" });
  const id = /\/oauth-consent\/([\w-]+)$/.exec(new URL(res.headers.get("location"), server.url).pathname)?.[1];
  if (!id) throw new Error(`authorize answered ${res.status}`);
  const decided = await fetch(`${server.url}/api/oauth/requests/${id}/decision`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie, origin: server.url },
    body: JSON.stringify({ approve: true }),
  });
  const code = new URL((await decided.json()).redirectTo).searchParams.get("code");
  const token = await fetch(`${server.url}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: client.basic },
    body: new URLSearchParams({ grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: redirectUri }),
  });
  return (await token.json()).access_token;
}

/**
 * Puts the server's Atlassian integration in per-person mode on the sandbox's OAuth app and links
 * the bench admin to the sandbox's first person (the server must run with ATLASSIAN_AUTH_URL and
 * ATLASSIAN_API_URL on the sandbox). Returns the admin's cookie.
 */
export async function linkAdminAsPerson(server, sandboxUrl) {
  const cookie = await adminCookie(server);
  const json = { "content-type": "application/json", cookie, origin: server.url };
  const accounts = await (await fetch(`${sandboxUrl}/__sandbox/accounts`)).json();
  const saved = await fetch(`${server.url}/api/admin/identity/atlassian`, {
    method: "PUT",
    headers: json,
    body: JSON.stringify({
      mode: "per-person",
      oauthClientId: accounts.atlassianApp.clientId,
      oauthClientSecret: accounts.atlassianApp.clientSecret,
    }),
  });
  if (saved.status !== 200) throw new Error(`identity: ${saved.status} ${await saved.text()}`);
  const started = await (
    await fetch(`${server.url}/api/account/links/atlassian/authorize`, { method: "POST", headers: json, body: "{}" })
  ).json();
  const authorize = new URL(started.authorizeUrl);
  const minted = await fetch(`${sandboxUrl}/__sandbox/oauth/codes`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      service: "atlassian",
      accountId: accounts.people[0].accountId,
      redirectUri: authorize.searchParams.get("redirect_uri"),
      scope: authorize.searchParams.get("scope"),
      codeChallenge: authorize.searchParams.get("code_challenge"),
    }),
  });
  const { code } = await minted.json();
  const back = await fetch(
    `${server.url}/api/account/links/atlassian/callback?${new URLSearchParams({ code, state: authorize.searchParams.get("state") })}`,
    { headers: { cookie }, redirect: "manual" },
  );
  if (!back.headers.get("location")?.includes("linked=1")) throw new Error(`link: ${back.status} ${back.headers.get("location")}`);
  return cookie;
}

/**
 * A TypeScript module of this checkout bundled to node_modules/.cache and imported, its packages
 * left to node_modules (PGlite's files, undici): the in-process probes. `entry` is a path from the
 * root, or `{ contents }` (a module written inline, resolved from the root).
 */
export async function probeModule(entry, name) {
  const { build } = await import("esbuild");
  const outfile = join(ROOT, `node_modules/.cache/bench-${name}.mjs`);
  await build({
    ...(typeof entry === "string"
      ? { entryPoints: [join(ROOT, entry)] }
      : { stdin: { contents: entry.contents, resolveDir: ROOT, loader: "ts" } }),
    bundle: true,
    platform: "node",
    format: "esm",
    packages: "external",
    outfile,
    logLevel: "warning",
  });
  return import(outfile);
}
