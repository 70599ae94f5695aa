import type { Page, Route } from "@playwright/test";
import { SETUP_STEPS, type SetupStatusDto } from "../contract/setup";
import { expect, test } from "./fixtures";
import { ADMIN, createUserWithRoles, signIn, unique } from "./helpers";

/**
 * The Dashboard's "Get started" (issue 25). The server's state is shared by every test running at
 * once, so each test answers /api/setup-status itself (the endpoint has its own server tests).
 */

const NOTHING_DONE: SetupStatusDto = {
  atlassianConfigured: false,
  bitbucketConfigured: false,
  aiClientConnected: false,
  passwordChanged: false,
  aiProviderAdded: false,
};
const checklist = (page: Page) => page.getByRole("region", { name: "Get started" });

async function answer(page: Page, status: () => SetupStatusDto): Promise<void> {
  await page.route("**/api/setup-status", (route: Route) => route.fulfill({ json: status() }));
}

async function openDashboard(page: Page, user = ADMIN): Promise<void> {
  await page.goto("/");
  await signIn(page, user);
  await expect(page.getByRole("heading", { level: 1, name: "Server Dashboard" })).toBeVisible();
}

test("lists the steps with links to where each is done, and ticks a step once the server says it is done", async ({ page }) => {
  let status = { ...NOTHING_DONE };
  await answer(page, () => status);
  await openDashboard(page);
  const steps = checklist(page).getByRole("list", { name: "Set-up steps" }).getByRole("listitem");
  await expect(steps).toHaveCount(SETUP_STEPS.length);
  await expect(checklist(page)).toContainText(`0 of ${SETUP_STEPS.length} done`);
  await expect(steps.nth(3)).toContainText("Change the generated password");
  await expect(steps.nth(4)).toContainText("(optional)");

  // Done elsewhere (here: Atlassian configured), seen when the Dashboard is next shown.
  await checklist(page).getByRole("link", { name: "Configure: Configure Atlassian (Jira and Confluence)" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Configuration" })).toBeVisible();
  status = { ...status, atlassianConfigured: true };
  await page.getByRole("navigation").getByRole("link", { name: "Dashboard" }).first().click();
  await expect(checklist(page)).toContainText(`1 of ${SETUP_STEPS.length} done`);
  await expect(steps.first()).toContainText("Configure Atlassian (Jira and Confluence): done");
  await expect(steps.first().getByRole("link")).toHaveCount(0);
  await expect(steps.nth(1).getByRole("link", { name: /^Configure: Configure Bitbucket$/ })).toHaveAttribute("href", "/configuration");
  await expect(steps.nth(2).getByRole("link", { name: /^Connect:/ })).toHaveAttribute("href", "/oauth-clients");
  await expect(steps.nth(3).getByRole("link", { name: /^Change it:/ })).toHaveAttribute("href", "/users");
});

test("goes away once every required step is done (the AI provider is optional), and when dismissed, for good", async ({ page }) => {
  let status: SetupStatusDto = { ...NOTHING_DONE };
  await answer(page, () => status);
  await openDashboard(page);
  await expect(checklist(page)).toBeVisible();

  // Done elsewhere: shown again, the Dashboard first renders the list it had, then the answer removes it.
  status = { atlassianConfigured: true, bitbucketConfigured: true, aiClientConnected: true, passwordChanged: true, aiProviderAdded: false };
  const nav = page.getByRole("navigation").getByRole("link", { name: "Dashboard" }).first();
  await page.getByRole("navigation").getByRole("link", { name: "Configuration" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Configuration" })).toBeVisible();
  await nav.click();
  await expect(page.getByRole("region", { name: "Server Status" })).toBeVisible();
  await expect(checklist(page)).toHaveCount(0);

  // Not done again, then dismissed: it stays away after a reload, once the server has answered.
  status = { ...NOTHING_DONE };
  await page.reload();
  await expect(checklist(page)).toBeVisible();
  await checklist(page).getByRole("button", { name: "Dismiss Get started" }).click();
  await expect(checklist(page)).toHaveCount(0);
  const answered = page.waitForResponse((r) => r.url().endsWith("/api/setup-status"));
  await page.reload();
  await answered;
  await expect(page.getByRole("region", { name: "Server Status" })).toBeVisible();
  await expect(checklist(page)).toHaveCount(0);
  await expect
    .poll(() => page.evaluate("Object.keys(localStorage).filter((k) => k.startsWith('bridgekeeper.getStarted.dismissed.')).length"))
    .toBe(1);
  await page.evaluate("localStorage.clear()");
});

test("is not shown to someone who cannot configure the server, nor asked for", async ({ page, baseURL }) => {
  const viewer = { username: unique("gs-viewer"), password: "viewer-secret", email: `${unique("gs")}@example.com` };
  await createUserWithRoles(page, baseURL!, viewer, ["viewer"]);
  await openDashboard(page, viewer);
  const asked: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/api/setup-status")) asked.push(r.url());
  });
  // Every query the Dashboard makes for a viewer has answered (the integration cards' come last), so a setup-status request would have been seen.
  const answered = Promise.all(
    ["/api/stats", "/api/atlassian-status", "/api/bitbucket-status"].map((path) => page.waitForResponse((r) => r.url().endsWith(path))),
  );
  await page.reload();
  await answered;
  await expect(page.getByRole("region", { name: "Server Status" })).toBeVisible();
  await expect(checklist(page)).toHaveCount(0);
  expect(asked).toEqual([]);
});
