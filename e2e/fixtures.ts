import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { test as base, expect, type Page } from "@playwright/test";
import { ADMIN } from "./helpers";

export { expect };

/**
 * Tests that start signed in as the admin. Each worker signs in once, through the API, and keeps
 * the session's cookie as a storage state every test of that worker starts from: no test waits
 * on the login form. A test that signs out or changes the admin must use its own context
 * (`test.use({ storageState: { cookies: [], origins: [] } })`), so the shared session stays valid.
 */
export const test = base.extend<object, { adminStorageState: string }>({
  storageState: ({ adminStorageState }, use) => use(adminStorageState),
  adminStorageState: [
    async ({ browser }, use, workerInfo) => {
      const dir = join(workerInfo.project.outputDir, ".auth");
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `admin-${workerInfo.parallelIndex}-${process.pid}.json`);
      if (!existsSync(file)) {
        const baseURL = workerInfo.project.use.baseURL!;
        const context = await browser.newContext({ baseURL, storageState: undefined });
        const response = await context.request.post("/api/login", { data: ADMIN, headers: { Origin: baseURL } });
        expect(response.status(), "the admin signs in").toBe(200);
        await context.storageState({ path: file });
        await context.close();
      }
      await use(file);
    },
    { scope: "worker" },
  ],
});

/** The screen's state once its data has loaded: polls for the state, never a fixed wait. */
export async function openScreen(page: Page, path: string, heading: string | RegExp): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
}

/** Writes a screenshot for the README (docs/screenshots/, committed): `${name}-${size}-${scheme}.png`. */
export const DOC_SHOTS = "docs/screenshots";
