import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig, devices } from "@playwright/test";

export const E2E_PORT = Number(process.env.E2E_PORT ?? 5181);
export const E2E_ADMIN_PASSWORD = "e2e-admin-password";
/** The sandbox (imitation Jira, Confluence and Bitbucket) the browser tests configure the server against. */
export const E2E_SANDBOX_PORT = Number(process.env.E2E_SANDBOX_PORT ?? E2E_PORT + 1);
export const E2E_SANDBOX_URL = `http://127.0.0.1:${E2E_SANDBOX_PORT}`;
/**
 * The fake AI providers (sandbox/fake-ai) in smart mode, accepting any key: a browser test adds
 * an "OpenAI-compatible" provider with base URL `${E2E_FAKE_AI_URL}/compat/v1` (the hosted kinds'
 * URLs are the SDKs' own and cannot be pointed here from the console).
 */
export const E2E_FAKE_AI_PORT = Number(process.env.E2E_FAKE_AI_PORT ?? E2E_PORT + 2);
export const E2E_FAKE_AI_URL = `http://127.0.0.1:${E2E_FAKE_AI_PORT}`;
const dataDir = join(tmpdir(), `bridgekeeper-e2e-${E2E_PORT}`);

/** Debian's Chromium, never a downloaded browser; flags that keep it off the (closed) network. */
const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
  ],
};

export default defineConfig({
  testDir: "e2e",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  // Upper bounds, not waits: every step waits for a state. They are generous because CI shares a
  // 2-core machine with the server and the sandbox, and often with other work: under
  // `npm run test:e2e:busy` (a busy loop per core) a test takes three to four times its idle time
  // (the longest, 30 s idle, took 50 s there, and 60 s failed a screens walk that had no stuck
  // step). A test that walks every screen, size and scheme says test.slow() (three times this).
  // toPass blocks are bounded too (by default they are not, and a block that never passes would
  // only end with the test).
  timeout: 120_000,
  expect: { timeout: 20_000, toPass: { timeout: 30_000 } },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    launchOptions: chromium,
    trace: "retain-on-failure",
  },
  // The chat's and the policy editor's tests point the server's one global Jira/Confluence/Bitbucket
  // configuration at the sandbox, which the Configuration screen's tests start from "Not
  // configured" and change: they run after the rest. My accounts' tests (issue 27) switch Atlassian
  // to each person's own account, which every other test's tool calls would feel: they run last,
  // alone, and put the shared account back. Data Center's configuration runs alone between them.
  projects: [
    {
      name: "chromium",
      testIgnore: ["chat.spec.ts", "oauth-policy-editor.spec.ts", "accounts.spec.ts", "configuration-dc.spec.ts"],
      use: { ...devices["Desktop Chrome"], launchOptions: chromium },
    },
    // Data Center's configuration (issue 28) changes both integrations and puts Cloud back: alone, after the rest.
    {
      name: "configuration-dc",
      testMatch: "configuration-dc.spec.ts",
      dependencies: ["chromium"],
      use: { ...devices["Desktop Chrome"], launchOptions: chromium },
    },
    {
      name: "chat",
      testMatch: "chat.spec.ts",
      dependencies: ["configuration-dc"],
      use: { ...devices["Desktop Chrome"], launchOptions: chromium },
    },
    {
      name: "policy-editor",
      testMatch: "oauth-policy-editor.spec.ts",
      dependencies: ["configuration-dc"],
      use: { ...devices["Desktop Chrome"], launchOptions: chromium },
    },
    {
      name: "accounts",
      testMatch: "accounts.spec.ts",
      dependencies: ["chat", "policy-editor"],
      use: { ...devices["Desktop Chrome"], launchOptions: chromium },
    },
  ],
  // The built server (npm run build first) on a fresh PGlite data directory, the sandbox, and the
  // fake AI providers.
  webServer: [
    {
      command: "node dist/sandbox/main.js",
      url: `${E2E_SANDBOX_URL}/__sandbox/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { SANDBOX_PORT: String(E2E_SANDBOX_PORT), SANDBOX_HOST: "127.0.0.1" },
    },
    {
      command: "node dist/sandbox/fake-ai/main.js",
      url: `${E2E_FAKE_AI_URL}/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { FAKE_AI_PORT: String(E2E_FAKE_AI_PORT) },
    },
    {
      command: `rm -rf '${dataDir}' && node dist/server/main.js`,
      url: `http://127.0.0.1:${E2E_PORT}/api/mcp/health`,
      reuseExistingServer: false,
      // Migrations and the seed on a fresh PGlite directory: seconds when idle, more on a busy machine.
      timeout: 120_000,
      env: {
        NODE_ENV: "production",
        PORT: String(E2E_PORT),
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
        LOG_LEVEL: "warn",
        BITBUCKET_API_URL: `${E2E_SANDBOX_URL}/2.0`,
        // Atlassian's and Bitbucket's OAuth (people link their own accounts, issue 27): the sandbox imitates both.
        ATLASSIAN_AUTH_URL: E2E_SANDBOX_URL,
        ATLASSIAN_API_URL: E2E_SANDBOX_URL,
        BITBUCKET_AUTH_URL: E2E_SANDBOX_URL,
        // The sandbox is on loopback, which the upstream host rule refuses unless named.
        UPSTREAM_ALLOWED_HOSTS: "127.0.0.1",
        // Every MCP client of the suite gets its token from 127.0.0.1: the OAuth limit per address
        // (10 per 15 minutes by default) would refuse them. The Configuration screen's test checks
        // that this value, the one in force, is what it shows.
        RATE_LIMIT_OAUTH_REQUESTS: "200",
        // A self-registered client's consent page is tested (it is shown as unverified).
        OAUTH_DYNAMIC_REGISTRATION: "true",
        PUBLIC_URL: `http://127.0.0.1:${E2E_PORT}`,
      },
    },
  ],
});
