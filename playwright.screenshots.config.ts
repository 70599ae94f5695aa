import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "@playwright/test";

/**
 * `npm run screenshots` (scripts/screenshots.mjs): the README's pictures in docs/screenshots/, taken
 * from a fresh stack like `npm run demo`'s (the built sandbox, fake AI and server, integrations and
 * an AI provider configured by DEMO_SANDBOX_URL and DEMO_AI_URL) after scripts/screenshots/ made
 * clean, named data through the real APIs. Not part of `npm test`; its own ports (5491-5493), so
 * it can run beside the browser tests and `npm run demo`.
 */
export const SHOTS_PORT = Number(process.env.SHOTS_PORT ?? 5491);
export const SHOTS_SANDBOX_URL = `http://127.0.0.1:${SHOTS_PORT + 1}`;
export const SHOTS_FAKE_AI_URL = `http://127.0.0.1:${SHOTS_PORT + 2}`;
export const SHOTS_BASE_URL = `http://127.0.0.1:${SHOTS_PORT}`;
export const SHOTS_ADMIN_PASSWORD = "screenshots-admin-password";
// scripts/screenshots.mjs runs the stack in a fresh temporary directory holding a copy of the build
// (SHOTS_APP_DIR), with the data directory inside it as ./data (the Configuration screen shows
// that path, so it has no random name); the script removes it afterwards. Run directly (npx
// playwright test -c playwright.screenshots.config.ts): this checkout's build and a fixed data
// directory under the system's temporary directory, emptied first.
const appDir = process.env.SHOTS_APP_DIR ?? ".";
const dataDir = process.env.SHOTS_APP_DIR ? "./data" : join(tmpdir(), `bridgekeeper-screenshots-${SHOTS_PORT}`);

/** Debian's Chromium, never a downloaded browser; flags that keep it off the (closed) network (as playwright.config.ts). */
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
  testDir: "scripts/screenshots",
  testMatch: "*.shots.ts",
  // One worker, in order: the first test makes the data the others photograph.
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // Upper bounds, not waits: every step waits for a state.
  timeout: 90_000,
  globalTimeout: 300_000,
  expect: { timeout: 20_000, toPass: { timeout: 30_000 } },
  reporter: [["list"]],
  outputDir: "test-results/screenshots",
  use: {
    baseURL: SHOTS_BASE_URL,
    launchOptions: chromium,
    locale: "en-US",
    timezoneId: "Europe/Berlin",
    trace: "retain-on-failure",
  },
  webServer: [
    {
      command: "node dist/sandbox/main.js",
      cwd: appDir,
      url: `${SHOTS_SANDBOX_URL}/__sandbox/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { SANDBOX_PORT: String(SHOTS_PORT + 1), SANDBOX_HOST: "127.0.0.1" },
    },
    {
      command: "node dist/sandbox/fake-ai/main.js",
      cwd: appDir,
      url: `${SHOTS_FAKE_AI_URL}/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { FAKE_AI_PORT: String(SHOTS_PORT + 2) },
    },
    {
      command: `rm -rf '${dataDir}' && node dist/server/main.js`,
      cwd: appDir,
      url: `${SHOTS_BASE_URL}/api/mcp/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        NODE_ENV: "production",
        PORT: String(SHOTS_PORT),
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        ADMIN_PASSWORD: SHOTS_ADMIN_PASSWORD,
        LOG_LEVEL: "warn",
        // As scripts/demo.mjs: both integrations and an AI provider pointed at the local imitations.
        DEMO_SANDBOX_URL: SHOTS_SANDBOX_URL,
        DEMO_AI_URL: SHOTS_FAKE_AI_URL,
        BITBUCKET_API_URL: `${SHOTS_SANDBOX_URL}/2.0`,
        // Atlassian's and Bitbucket's OAuth (people link their own accounts, issue 27): the sandbox imitates both.
        ATLASSIAN_AUTH_URL: SHOTS_SANDBOX_URL,
        ATLASSIAN_API_URL: SHOTS_SANDBOX_URL,
        BITBUCKET_AUTH_URL: SHOTS_SANDBOX_URL,
        UPSTREAM_ALLOWED_HOSTS: "127.0.0.1",
        PUBLIC_URL: SHOTS_BASE_URL,
      },
    },
  ],
});
