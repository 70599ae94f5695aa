import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { test as base, expect, type Browser, type Page } from "@playwright/test";
import { ADMIN } from "./helpers";

export { expect };

/**
 * Tests that start signed in as the admin. Each worker signs in once, through the API, and keeps
 * the session's cookie as a storage state every test of that worker starts from: no test waits
 * on the login form. A test about another user, or one that signs out, uses its own context
 * (`test.use({ storageState: { cookies: [], origins: [] } })`).
 */
export const test = base.extend<object, { adminStorageState: string }>({
  // Checked before each test: a test that signs the admin in again through the page's own cookies
  // replaces (and so ends) the shared session; the next test then signs in afresh, not fails.
  storageState: async ({ adminStorageState, browser }, use, testInfo) => {
    const baseURL = testInfo.project.use.baseURL!;
    const context = await browser.newContext({ baseURL, storageState: adminStorageState });
    const session = await context.request.get("/api/session");
    const alive = session.status() === 200 && Boolean(((await session.json()) as { user?: unknown } | null)?.user);
    await context.close();
    if (!alive) await signInAdmin(browser, baseURL, adminStorageState);
    await use(adminStorageState);
  },
  adminStorageState: [
    async ({ browser }, use, workerInfo) => {
      const dir = join(workerInfo.project.outputDir, ".auth");
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `admin-${workerInfo.parallelIndex}-${process.pid}.json`);
      if (!existsSync(file)) await signInAdmin(browser, workerInfo.project.use.baseURL!, file);
      await use(file);
    },
    { scope: "worker" },
  ],
});

/** Signs the admin in through the API in a context of its own and keeps its cookie in `file`. */
async function signInAdmin(browser: Browser, baseURL: string, file: string): Promise<void> {
  const context = await browser.newContext({ baseURL, storageState: undefined });
  const response = await context.request.post("/api/login", { data: ADMIN, headers: { Origin: baseURL } });
  expect(response.status(), "the admin signs in").toBe(200);
  await context.storageState({ path: file });
  await context.close();
}

/** The screen's state once its data has loaded: polls for the state, never a fixed wait. */
export async function openScreen(page: Page, path: string, heading: string | RegExp): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
}

/**
 * Where the specs keep their copies of the README's screens (`${name}-${size}-${scheme}.png`), to
 * look at: not committed. The README's own, in docs/screenshots/, are made by `npm run screenshots`
 * (scripts/screenshots/) from clean, named data, not by the tests.
 */
export const DOC_SHOTS = "e2e/screenshots/docs";
