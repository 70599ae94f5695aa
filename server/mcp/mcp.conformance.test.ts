/**
 * The official MCP conformance suite's server scenarios (`conformance server --requirements
 * <revision>`) against /mcp, for the 2025-11-25 and the 2026-07-28 revisions. The suite speaks
 * to a server without credentials, and ours demands a bearer token on /mcp (D9), so it talks to a
 * loopback relay that adds one token to each request and passes everything else (Host, Origin,
 * bodies, streams) through unchanged; authorization has its own suite run
 * (server/oauth/oauth.conformance.test.ts).
 *
 * Many scenarios call fixture tools, prompts and resources the suite expects every server under
 * test to carry (`test_simple_text`, `test_image_content`, ...); a product server has none, so
 * those scenarios are listed below as expected failures with that reason. Every other scenario
 * must pass; an expected failure that starts passing fails the test too, so the list stays true.
 *
 * Runs once, in the PGlite project only.
 */
import { execFile, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, request, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installSuite, INSTALL_TIMEOUT_MS, NODE22, readChecks, SUITE_CLI, suiteEnv, suiteRunsHere, type Check } from "../test/conformance";
import { startMcpRig, type McpRig } from "./mcp.test-rig";

const REVISIONS = ["2025-11-25", "2026-07-28"] as const;
const RUN_TIMEOUT_MS = 240_000;

export const FIXTURES = "It calls the suite's own fixture tools, resources or prompts (test_*), which a product server does not carry";
export const NO_CAPABILITY = "It needs a capability this server does not offer (resources, prompts, completions, sampling or elicitation from a tool)";

/** Scenario → reason, per revision; a scenario listed here must fail, every other must pass. */
const EXPECTED_FAILURES: Record<(typeof REVISIONS)[number], Record<string, string>> = {
  "2025-11-25": {},
  "2026-07-28": {},
};

interface Run {
  exitCode: number | null;
  output: string;
  checks: Map<string, Check[]>;
}

/** A loopback relay to `target` that adds the bearer token to every request. */
async function tokenRelay(target: string, token: string): Promise<{ url: string; server: Server }> {
  const to = new URL(target);
  const server = createServer((req, res) => {
    const headers = { ...req.headers, authorization: req.headers.authorization ?? `Bearer ${token}` };
    const upstream = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", () => res.destroy());
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
}

async function runServerSuite(url: string, revision: string): Promise<Run> {
  const outDir = await mkdtemp(join(tmpdir(), "bk-mcp-conformance-"));
  try {
    const child = spawn(NODE22, [SUITE_CLI, "server", "--url", url, "--requirements", revision, "-o", outDir, "--timeout", "20000"], { cwd: outDir, env: suiteEnv(), stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => void (output += c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => void (output += c));
    const timer = setTimeout(() => child.kill("SIGKILL"), RUN_TIMEOUT_MS);
    const exitCode = await new Promise<number | null>((resolve, reject) => {
      child.once("error", reject);
      child.once("close", resolve);
    }).finally(() => clearTimeout(timer));
    return { exitCode, output, checks: await readChecks(outDir) };
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

describe.skipIf(process.env.TEST_DB === "postgres" || !suiteRunsHere)("MCP conformance suite: server scenarios on /mcp", () => {
  let rig: McpRig;
  let relay: { url: string; server: Server };

  beforeAll(async () => {
    await installSuite();
    rig = await startMcpRig();
    relay = await tokenRelay(rig.baseUrl, await rig.token());
  }, INSTALL_TIMEOUT_MS + 60_000);
  afterAll(async () => {
    relay?.server.closeAllConnections();
    await new Promise((resolve) => relay?.server.close(resolve));
    await rig?.t.close();
    await rig?.sandbox.close();
  });

  for (const revision of REVISIONS) {
    it(`--requirements ${revision}: every scenario passes but the expected failures`, async () => {
      const { stdout } = await promisify(execFile)(NODE22, [SUITE_CLI, "list", "--server", "--requirements", revision], { timeout: 30_000, killSignal: "SIGKILL", env: suiteEnv() });
      const serverPart = stdout.split(/Client scenarios/)[0]!;
      const scenarios = [...serverPart.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]!);
      expect(scenarios.length).toBeGreaterThan(5);

      const run = await runServerSuite(`${relay.url}/mcp`, revision);
      const failed = [...run.checks]
        .filter(([, checks]) => checks.some((c) => c.status === "FAILURE"))
        .map(([scenario]) => scenario)
        .sort();
      const summary = [...run.checks]
        .flatMap(([scenario, checks]) => checks.filter((c) => c.status === "FAILURE").map((c) => `${scenario}/${c.id}: ${c.errorMessage ?? c.description}`))
        .join("\n");
      expect([...run.checks.keys()].sort(), run.output).toEqual([...scenarios].sort());
      expect(failed, `${summary}\n--- suite output ---\n${run.output}`).toEqual(Object.keys(EXPECTED_FAILURES[revision]).sort());
    }, RUN_TIMEOUT_MS + 30_000);
  }
});
