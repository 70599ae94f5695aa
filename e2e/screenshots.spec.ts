import { mkdirSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { NAV_ITEMS } from "../contract/navigation";
import { ADMIN, horizontalOverflow } from "./helpers";

/**
 * Screenshots of every screen, light and dark, desktop and phone, into e2e/screenshots/ (not
 * committed) for a person to look at. Each also checks nothing scrolls sideways.
 */
const SIZES = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;
const SCHEMES = ["light", "dark"] as const;

mkdirSync("e2e/screenshots", { recursive: true });

for (const size of SIZES) {
  for (const scheme of SCHEMES) {
    test(`screens at ${size.name} in ${scheme}`, async ({ page }) => {
      test.setTimeout(60_000);
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto("/login");
      await page.screenshot({ path: `e2e/screenshots/login-${size.name}-${scheme}.png` });
      await page.getByLabel("Username").fill(ADMIN.username);
      await page.getByLabel("Password").fill(ADMIN.password);
      await page.getByRole("button", { name: "Sign In" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Server Dashboard" })).toBeVisible();
      for (const item of NAV_ITEMS) {
        await page.goto(item.path);
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
        const slug = item.path === "/" ? "dashboard" : item.path.slice(1);
        await page.screenshot({ path: `e2e/screenshots/${slug}-${size.name}-${scheme}.png`, fullPage: true });
        const overflow = await horizontalOverflow(page);
        expect(overflow, `${item.path} scrolls sideways`).toBeLessThanOrEqual(0);
      }
      if (size.name === "phone") {
        await page.getByRole("button", { name: "Open navigation" }).click();
        await page.screenshot({ path: `e2e/screenshots/sidebar-open-${size.name}-${scheme}.png` });
      }
    });
  }
}
