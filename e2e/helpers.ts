import { expect, type Page } from "@playwright/test";
import { E2E_ADMIN_PASSWORD } from "../playwright.config";

export const ADMIN = { username: "admin", password: E2E_ADMIN_PASSWORD };

export async function signIn(page: Page, user = ADMIN): Promise<void> {
  await page.getByLabel("Username").fill(user.username);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByRole("button", { name: "Logout" })).toBeVisible();
}

/** How far the page scrolls sideways (0 when it does not). */
export const horizontalOverflow = (page: Page): Promise<number> =>
  page.evaluate<number>("document.documentElement.scrollWidth - document.documentElement.clientWidth");
