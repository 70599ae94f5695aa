import { mkdirSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { NAV_ITEMS } from "../contract/navigation";
import { ADMIN, apiClient, COLOR_SCHEMES, createUserWithRoles, expectNoSidewaysScroll, SCREEN_SIZES, unique } from "./helpers";

/**
 * Screenshots of every screen, light and dark, desktop and phone, into e2e/screenshots/ (not
 * committed) for a person to look at. Each also checks nothing scrolls sideways.
 */
mkdirSync("e2e/screenshots", { recursive: true });

for (const size of SCREEN_SIZES) {
  for (const scheme of COLOR_SCHEMES) {
    test(`screens at ${size.name} in ${scheme}`, async ({ page }) => {
      test.slow(); // many screens, sizes or rows: three times the configured bound
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
        // The screen as loaded, not its skeletons (every one is a Skeleton, shown only while its
        // data loads): what the picture and the measurement are about.
        await expect(page.locator("[data-slot='skeleton']")).toHaveCount(0);
        const slug = item.path === "/" ? "dashboard" : item.path.slice(1);
        await page.screenshot({ path: `e2e/screenshots/${slug}-${size.name}-${scheme}.png`, fullPage: true });
        await expectNoSidewaysScroll(page, `${item.path} scrolls sideways`);
      }
      if (size.name === "phone") {
        await page.getByRole("button", { name: "Open navigation" }).click();
        await page.screenshot({ path: `e2e/screenshots/sidebar-open-${size.name}-${scheme}.png` });
      }
    });
  }
}

/** User Management: the Users tab, each dialog and the Roles tab. */
for (const size of SCREEN_SIZES) {
  for (const scheme of COLOR_SCHEMES) {
    test(`user management at ${size.name} in ${scheme}`, async ({ page, baseURL }) => {
      test.slow(); // many screens, sizes or rows: three times the configured bound
      const sample = {
        username: unique("grace"),
        password: "sample-secret",
        email: `${unique("grace")}@example.com`,
        firstName: "Grace",
        lastName: "Hopper",
      };
      const sampleId = await createUserWithRoles(page, baseURL!, sample, ["operator", "viewer"]);
      const shot = (name: string, fullPage = false) =>
        page.screenshot({ path: `e2e/screenshots/users-${name}-${size.name}-${scheme}.png`, fullPage });
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: "reduce" });
      await page.goto("/users");
      await page.getByLabel("Username").fill(ADMIN.username);
      await page.getByLabel("Password").fill(ADMIN.password);
      await page.getByRole("button", { name: "Sign In" }).click();
      await expect(page.getByRole("heading", { level: 2, name: /^Users \(\d+\)$/ })).toBeVisible();
      await shot("tab");
      await expectNoSidewaysScroll(page, "/users scrolls sideways");

      await page.getByRole("button", { name: "Add User" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Create User" }).click();
      await expect(page.getByText("Passwords don't match").or(page.getByText("Password must be at least 6 characters"))).toBeVisible();
      await shot("create-dialog");
      await page.keyboard.press("Escape");

      // A row's action: from its menu; on a phone, where rows are cards, from the card's buttons.
      const rowAction = async (username: string, item: string) => {
        if (size.name === "phone")
          return page
            .getByRole("group", { name: `Actions for ${username}` })
            .getByRole("button", { name: item })
            .click();
        await page.getByRole("button", { name: `Actions for ${username}` }).click();
        await page.getByRole("menuitem", { name: item }).click();
      };
      if (size.name !== "phone") {
        await page.getByRole("button", { name: `Actions for ${ADMIN.username}` }).click();
        await expect(page.getByRole("menu")).toBeVisible();
        await shot("row-menu");
        await page.keyboard.press("Escape");
        await expect(page.getByRole("menu")).toBeHidden();
      }
      await rowAction(ADMIN.username, "Edit User");
      await expect(page.getByRole("dialog", { name: "Edit User" })).toBeVisible();
      await shot("edit-dialog");
      await page.keyboard.press("Escape");

      await rowAction(ADMIN.username, "Manage Roles");
      await expect(page.getByText(/role\(s\) selected/)).toBeVisible();
      await shot("roles-dialog");
      await page.keyboard.press("Escape");

      await page.getByPlaceholder("Search users by email, username, or name...").fill(sample.username);
      await rowAction(sample.username, "Delete User");
      await expect(page.getByRole("alertdialog")).toBeVisible();
      await shot("delete-dialog");
      await page.getByRole("button", { name: "Cancel" }).click();

      await page.getByRole("tab", { name: "Roles" }).click();
      await expect(page.getByRole("article").first()).toBeVisible();
      await shot("roles-tab", true);
      await expectNoSidewaysScroll(page, "/users?tab=roles scrolls sideways");
      await page.getByRole("button", { name: "Add Role" }).click();
      await expect(page.getByRole("checkbox").first()).toBeVisible();
      await shot("role-dialog");
      await page.keyboard.press("Escape");
      const api = apiClient(page, baseURL!);
      expect((await api.delete(`/api/users/${sampleId}`)).status()).toBe(204);
    });
  }
}
