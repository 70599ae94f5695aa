import { request, type Locator, type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { E2E_PORT, E2E_SANDBOX_URL } from "../playwright.config";
import {
  ADMIN,
  apiClient,
  COLOR_SCHEMES,
  createUserWithRoles,
  expectNoSidewaysScroll,
  expectToast,
  recordWrites,
  SCREEN_SIZES,
  signIn,
  toast,
  toasts,
  unique,
} from "./helpers";

/**
 * Configuration (spec sections 2, 4, 5, 8 and 9; docs/decisions.md#write-only-secrets,
 * #rate-limits, #cors-origins, #environment-and-port) against the real server and the sandbox. The
 * Atlassian and Bitbucket configs are global to the one server all workers share, so every test
 * that reads or writes them runs in the serial block below, in order; the other tests here do not
 * depend on them.
 */

const SANDBOX = {
  atlassian: { instanceUrl: E2E_SANDBOX_URL, email: "demo@bridgekeeper.test", apiToken: "sandbox-api-token" },
  bitbucket: { workspace: "bridgekeeper", username: "demo", appPassword: "sandbox-app-password" },
};

const atlassian = (page: Page) => page.getByRole("region", { name: "Atlassian Integration" });
const bitbucket = (page: Page) => page.getByRole("region", { name: "Bitbucket Integration" });
/** The card's stored-state badge: "Not configured", "Active" or "Inactive". */
const badge = (card: Locator) => card.locator("[data-slot='badge']");

async function openConfiguration(page: Page, user = ADMIN): Promise<void> {
  await page.goto("/configuration");
  await signIn(page, user, { phone: (page.viewportSize()?.width ?? 1280) < 768 });
  await expect(page.getByRole("heading", { level: 1, name: "Configuration" })).toBeVisible();
  await expectFormsLoaded(page);
}

/** Both forms are on screen (the skeletons are gone). */
async function expectFormsLoaded(page: Page): Promise<void> {
  await expect(atlassian(page).getByLabel("Instance URL")).toBeVisible();
  await expect(bitbucket(page).getByLabel("Workspace")).toBeVisible();
}

/** Holds a request back until the test has seen the pending state and calls the answer, then lets it through. */
async function hold(page: Page, path: string): Promise<() => void> {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**${path}`, async (route) => {
    await gate;
    await route.fallback();
  });
  return release;
}

/** The connection test's toast: its title, one list item per line, and its variant. */
async function expectTestToast(page: Page, title: string, lines: (string | RegExp)[], destructive: boolean): Promise<Locator> {
  const shown = await expectToast(page, title);
  for (const line of lines) await expect(shown.getByRole("listitem").filter({ hasText: line })).toBeVisible();
  if (destructive) await expect(shown).toHaveClass(/destructive/);
  else await expect(shown).not.toHaveClass(/destructive/);
  return shown;
}

/**
 * The lines the cards should show, from what the sandbox says of its own accounts through other
 * calls than the server's (issue 25): the account, its projects, spaces and repositories.
 */
async function sandboxReach(): Promise<{ atlassian: string; bitbucket: string }> {
  // Its own empty cookie jar: the admin's session cookie is not the sandbox's business.
  const sandbox = await request.newContext({ baseURL: E2E_SANDBOX_URL, storageState: { cookies: [], origins: [] } });
  const basic = (user: string, secret: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${secret}`).toString("base64")}` });
  const get = async <T>(path: string, headers: Record<string, string>): Promise<T> => {
    const res = await sandbox.get(path, { headers });
    expect(res.status(), path).toBe(200);
    return (await res.json()) as T;
  };
  const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const jira = basic(SANDBOX.atlassian.email, SANDBOX.atlassian.apiToken);
  const me = await get<{ displayName: string; emailAddress: string }>("/rest/api/3/myself", jira);
  const projects = (await get<unknown[]>("/rest/api/3/project", jira)).length;
  const spaces = (await get<{ results: unknown[] }>("/wiki/rest/api/space?limit=100", jira)).results.length;
  const bb = basic(SANDBOX.bitbucket.username, SANDBOX.bitbucket.appPassword);
  const user = await get<{ display_name: string; nickname: string }>("/2.0/user", bb);
  const workspace = await get<{ name: string }>(`/2.0/workspaces/${SANDBOX.bitbucket.workspace}`, bb);
  const repositories = (await get<{ size: number }>(`/2.0/repositories/${SANDBOX.bitbucket.workspace}?pagelen=1`, bb)).size;
  await sandbox.dispose();
  return {
    atlassian: `Connects as ${me.displayName} (${me.emailAddress}) · sees ${count(projects, "project", "projects")}, ${count(spaces, "space", "spaces")}`,
    bitbucket: `Connects as ${user.display_name} (${user.nickname}) · ${count(repositories, "repository", "repositories")} in ${workspace.name}`,
  };
}

async function saveAtlassian(page: Page, values: Partial<typeof SANDBOX.atlassian>): Promise<void> {
  const card = atlassian(page);
  if (values.instanceUrl !== undefined) await card.getByLabel("Instance URL").fill(values.instanceUrl);
  if (values.email !== undefined) await card.getByLabel("Email or username").fill(values.email);
  if (values.apiToken !== undefined) await card.getByLabel("API token").fill(values.apiToken);
  await card.getByRole("button", { name: "Save" }).click();
  await expectToast(page, "Configuration saved", "Atlassian configuration has been updated successfully.");
  await expect(card.getByRole("button", { name: "Save" })).toBeEnabled();
}

async function saveBitbucket(page: Page, values: Partial<typeof SANDBOX.bitbucket>): Promise<void> {
  const card = bitbucket(page);
  if (values.workspace !== undefined) await card.getByLabel("Workspace").fill(values.workspace);
  if (values.username !== undefined) await card.getByLabel("Username").fill(values.username);
  if (values.appPassword !== undefined) await card.getByLabel("App password").fill(values.appPassword);
  await card.getByRole("button", { name: "Save" }).click();
  await expectToast(page, "Configuration saved", "Bitbucket configuration has been updated successfully.");
  await expect(card.getByRole("button", { name: "Save" })).toBeEnabled();
}

test.describe.serial("Atlassian and Bitbucket integrations (one global config)", () => {
  test("an empty or invalid submit shows the spec's messages under the fields, and focus goes to the first", async ({ page }) => {
    await openConfiguration(page);
    const card = atlassian(page);
    await expect(badge(card)).toHaveText("Not configured");
    await expect(card.getByRole("switch", { name: "Active" })).toBeChecked();
    // Nothing stored yet: nothing to test.
    await expect(card.getByRole("button", { name: "Test Connection" })).toBeDisabled();
    await expect(card.getByText("Save a configuration first, then test it.")).toBeVisible();

    await card.getByRole("button", { name: "Save" }).click();
    await expect(card.getByText("Must be a valid URL")).toBeVisible();
    await expect(card.getByText("Email or username is required")).toBeVisible();
    await expect(card.getByText("API token is required")).toBeVisible();
    await expect(card.getByLabel("Instance URL")).toBeFocused();
    await expect(card.getByLabel("Instance URL")).toHaveAttribute("aria-invalid", "true");
    await expect(card.getByLabel("Instance URL")).toHaveAccessibleDescription("Must be a valid URL");

    // Not a URL, and a URL the connectors cannot call: both refused with the same message.
    await card.getByLabel("Instance URL").fill("not a url");
    await card.getByLabel("Email or username").fill("someone");
    await card.getByLabel("API token").fill("a-token");
    await card.getByLabel("API token").press("Enter");
    await expect(card.getByText("Must be a valid URL")).toBeVisible();
    await expect(card.getByText("Email or username is required")).toBeHidden();
    await expect(card.getByText("API token is required")).toBeHidden();
    await card.getByLabel("Instance URL").fill("ftp://example.com");
    await card.getByRole("button", { name: "Save" }).click();
    await expect(card.getByText("Must be a valid URL")).toBeVisible();

    const bb = bitbucket(page);
    await bb.getByRole("button", { name: "Save" }).click();
    await expect(bb.getByText("Workspace is required")).toBeVisible();
    await expect(bb.getByText("Username is required")).toBeVisible();
    await expect(bb.getByText("App password is required")).toBeVisible();
    await expect(bb.getByLabel("Workspace")).toBeFocused();
    // Blank-only input is blank.
    await bb.getByLabel("Workspace").fill("   ");
    await bb.getByLabel("Username").fill("demo");
    await bb.getByRole("button", { name: "Save" }).click();
    await expect(bb.getByText("Workspace is required")).toBeVisible();
    await expect(bb.getByText("Username is required")).toBeHidden();
    // Nothing was saved.
    await expect(badge(bb)).toHaveText("Not configured");
    await expect(toast(page, "Configuration saved")).toHaveCount(0);
  });

  test("both configurations save; a reload shows the stored values with blank secrets and their hints", async ({ page }) => {
    await openConfiguration(page);
    const card = atlassian(page);

    // The pending label, with the form disabled while the save runs.
    await card.getByLabel("Instance URL").fill(SANDBOX.atlassian.instanceUrl);
    await card.getByLabel("Email or username").fill(SANDBOX.atlassian.email);
    await card.getByLabel("API token").fill(SANDBOX.atlassian.apiToken);
    const release = await hold(page, "/api/admin/atlassian-config");
    await card.getByRole("button", { name: "Save" }).click();
    await expect(card.getByRole("button", { name: "Saving..." })).toBeDisabled();
    await expect(card.getByLabel("Instance URL")).toBeDisabled();
    release();
    await expectToast(page, "Configuration saved", "Atlassian configuration has been updated successfully.");
    await expect(card.getByRole("button", { name: "Save" })).toBeEnabled();
    await page.unrouteAll({ behavior: "wait" });

    // The form reloaded from the stored config: token blank, its hint shown (docs/decisions.md#write-only-secrets).
    await expect(card.getByLabel("API token")).toHaveValue("");
    await expect(card.getByLabel("API token")).toHaveAttribute("placeholder", "•••• oken");
    await expect(card.getByText("A token is stored (•••• oken). Leave blank to keep it.")).toBeVisible();
    await expect(badge(card)).toHaveText("Active");
    await expect(card.getByRole("button", { name: "Test Connection" })).toBeEnabled();

    await saveBitbucket(page, SANDBOX.bitbucket);
    const bb = bitbucket(page);
    await expect(bb.getByLabel("App password")).toHaveValue("");
    await expect(bb.getByText("An app password is stored (•••• word). Leave blank to keep it.")).toBeVisible();
    await expect(bb.getByText(`${E2E_SANDBOX_URL}/2.0`, { exact: true })).toBeVisible();

    await page.reload();
    await expectFormsLoaded(page);
    await expect(card.getByLabel("Instance URL")).toHaveValue(SANDBOX.atlassian.instanceUrl);
    await expect(card.getByLabel("Email or username")).toHaveValue(SANDBOX.atlassian.email);
    await expect(card.getByLabel("API token")).toHaveValue("");
    await expect(card.getByLabel("API token")).toHaveAccessibleDescription("A token is stored (•••• oken). Leave blank to keep it.");
    await expect(card.getByRole("switch", { name: "Active" })).toBeChecked();
    await expect(card.getByText(/^Last saved/)).toBeVisible();
    await expect(bb.getByLabel("Workspace")).toHaveValue(SANDBOX.bitbucket.workspace);
    await expect(bb.getByLabel("Username")).toHaveValue(SANDBOX.bitbucket.username);
    await expect(bb.getByLabel("App password")).toHaveValue("");
    await expect(bb.getByLabel("App password")).toHaveAttribute("placeholder", "•••• word");

    // The secret never reaches the page.
    const stored = await (await page.request.get("/api/admin/atlassian-config")).text();
    expect(stored).not.toContain(SANDBOX.atlassian.apiToken);
  });

  test("a blank secret keeps the stored one; each connection test ticks its services", async ({ page }) => {
    await openConfiguration(page);
    const card = atlassian(page);
    await expect(card.getByLabel("Instance URL")).toHaveValue(SANDBOX.atlassian.instanceUrl);
    // Save again with the token left blank: the stored token stays (the test below passes with it).
    await saveAtlassian(page, {});

    const release = await hold(page, "/api/admin/test-atlassian");
    await card.getByRole("button", { name: "Test Connection" }).click();
    await expect(card.getByRole("button", { name: "Testing..." })).toBeDisabled();
    release();
    await expectTestToast(page, "Connection test completed", ["✓ Jira", "✓ Confluence"], false);
    await expect(card.getByRole("button", { name: "Test Connection" })).toBeEnabled();

    const bb = bitbucket(page);
    await saveBitbucket(page, {});
    await bb.getByRole("button", { name: "Test Connection" }).click();
    await expectTestToast(page, "Connection test completed", ["✓ Connected"], false);

    // Unsaved edits are not what a test checks: the page says so.
    await card.getByLabel("Email or username").fill("someone-else");
    await expect(card.getByText("Test Connection checks the saved configuration, not unsaved changes.")).toBeVisible();
  });

  test("a test shows who each integration connects as and what it sees, on its card and, after a reload, on the Dashboard", async ({
    page,
  }) => {
    const seen = await sandboxReach();
    await openConfiguration(page);
    const card = atlassian(page);
    // The status list is asked again once the test has answered: the line comes from it, not from the toast.
    let answered = false;
    const tested = page.waitForResponse(
      (r) => (answered ||= r.url().endsWith("/api/admin/test-atlassian") && r.request().method() === "POST"),
    );
    const refetched = page.waitForResponse((r) => answered && r.url().endsWith("/api/admin/atlassian-status"));
    await card.getByRole("button", { name: "Test Connection" }).click();
    await tested;
    await refetched;
    await expectTestToast(page, "Connection test completed", ["✓ Jira", "✓ Confluence"], false);
    await expect(card.getByText(seen.atlassian, { exact: true })).toBeVisible();
    await expect(card.getByText(/^Checked (just now|\d+m ago)$/)).toBeVisible();

    const bb = bitbucket(page);
    await bb.getByRole("button", { name: "Test Connection" }).click();
    await expectTestToast(page, "Connection test completed", ["✓ Connected"], false);
    await expect(bb.getByText(seen.bitbucket, { exact: true })).toBeVisible();

    // Kept, not only shown once: a reload of either screen says the same.
    await page.reload();
    await expectFormsLoaded(page);
    await expect(atlassian(page).getByText(seen.atlassian, { exact: true })).toBeVisible();
    await expect(bitbucket(page).getByText(seen.bitbucket, { exact: true })).toBeVisible();
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: "Server Dashboard" })).toBeVisible();
    const dashboardCard = (name: string) => page.getByRole("region", { name, exact: true });
    await expect(dashboardCard("Atlassian Integration").getByText(seen.atlassian, { exact: true })).toBeVisible();
    await expect(dashboardCard("Atlassian Integration").getByText(/^Checked (just now|\d+m ago)$/)).toBeVisible();
    await expect(dashboardCard("Bitbucket Integration").getByText(seen.bitbucket, { exact: true })).toBeVisible();
  });

  test("a wrong secret saved then tested shows the crosses in a destructive toast", async ({ page }) => {
    await openConfiguration(page);
    await saveAtlassian(page, { apiToken: "wrong-api-token-0000" });
    await atlassian(page).getByRole("button", { name: "Test Connection" }).click();
    await expectTestToast(page, "Connection test completed", [/^✗ Jira/, /^✗ Confluence/], true);
    await page.screenshot({ path: "e2e/screenshots/configuration-test-failed-desktop-light.png" });

    await saveBitbucket(page, { appPassword: "wrong-app-password-0000" });
    await bitbucket(page).getByRole("button", { name: "Test Connection" }).click();
    await expectTestToast(page, "Connection test completed", [/^✗ Connected/], true);

    // Put the right secrets back; the tests pass again.
    await saveAtlassian(page, { apiToken: SANDBOX.atlassian.apiToken });
    await atlassian(page).getByRole("button", { name: "Test Connection" }).click();
    await expectTestToast(page, "Connection test completed", ["✓ Jira", "✓ Confluence"], false);
    await saveBitbucket(page, { appPassword: SANDBOX.bitbucket.appPassword });
    await bitbucket(page).getByRole("button", { name: "Test Connection" }).click();
    await expectTestToast(page, "Connection test completed", ["✓ Connected"], false);
  });

  test("an inactive integration stays stored and shows as Inactive", async ({ page }) => {
    await openConfiguration(page);
    const bb = bitbucket(page);
    await bb.getByRole("switch", { name: "Active" }).click();
    await saveBitbucket(page, {});
    await expect(badge(bb)).toHaveText("Inactive");
    await page.reload();
    await expectFormsLoaded(page);
    await expect(bb.getByRole("switch", { name: "Active" })).not.toBeChecked();
    await bb.getByRole("switch", { name: "Active" }).click();
    await saveBitbucket(page, {});
    await expect(badge(bb)).toHaveText("Active");
  });

  test("screenshots of the stored configuration, light and dark, desktop and phone", async ({ page }) => {
    test.slow(); // many screens, sizes or rows: three times the configured bound
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto("/configuration");
    await signIn(page);
    for (const size of SCREEN_SIZES) {
      for (const scheme of COLOR_SCHEMES) {
        await page.setViewportSize({ width: size.width, height: size.height });
        await page.emulateMedia({ colorScheme: scheme, reducedMotion: "reduce" });
        await page.goto("/configuration");
        await expectFormsLoaded(page);
        await expect(atlassian(page).getByText("A token is stored (•••• oken). Leave blank to keep it.")).toBeVisible();
        await page.screenshot({ path: `e2e/screenshots/configuration-stored-${size.name}-${scheme}.png`, fullPage: true });
        await expectNoSidewaysScroll(page, "/configuration scrolls sideways");
        await atlassian(page).getByRole("button", { name: "Test Connection" }).click();
        await expect(toasts(page)).toBeVisible();
        await page.screenshot({ path: `e2e/screenshots/configuration-test-toast-${size.name}-${scheme}.png` });
      }
    }
  });
});

test("CORS: the defaults stay; an added origin can be removed; empty and duplicate origins are ignored; nothing is sent", async ({
  page,
}) => {
  await openConfiguration(page);
  const cors = page.getByRole("region", { name: "CORS Configuration" });
  const list = cors.getByRole("list", { name: "Allowed origins" });
  const writes = recordWrites(page);

  await expect(list.getByRole("listitem")).toHaveCount(2);
  for (const origin of ["http://localhost:3000", "http://localhost:5000"]) {
    const item = list.getByRole("listitem").filter({ hasText: origin });
    await expect(item.getByText("Default", { exact: true })).toBeVisible();
    await expect(item.getByRole("button")).toHaveCount(0);
  }

  const input = cors.getByLabel("Origin", { exact: true });
  await input.fill("https://console.example.com");
  await cors.getByRole("button", { name: "Add" }).click();
  await expect(list.getByRole("listitem")).toHaveCount(3);
  await expect(input).toHaveValue("");
  await expect(input).toBeFocused();

  // A duplicate (also with a trailing slash or another case) and an empty origin are ignored.
  await input.fill("https://console.example.com");
  await input.press("Enter");
  await expect(cors.getByText("https://console.example.com is already in the list.")).toBeVisible();
  await input.fill("HTTP://LOCALHOST:3000/");
  await input.press("Enter");
  await input.fill("   ");
  await input.press("Enter");
  await expect(list.getByRole("listitem")).toHaveCount(3);

  await input.fill("https://tools.example.org");
  await input.press("Enter");
  await expect(list.getByRole("listitem")).toHaveCount(4);
  await list.getByRole("button", { name: "Remove https://console.example.com" }).click();
  await expect(list.getByRole("listitem")).toHaveCount(3);
  await expect(list.getByText("https://console.example.com")).toHaveCount(0);
  await expect(list.getByText("https://tools.example.org")).toBeVisible();
  await expect(input).toBeFocused();

  // Added origins live in the page only.
  expect(writes).toEqual([]);
  await page.reload();
  await expectFormsLoaded(page);
  await expect(list.getByRole("listitem")).toHaveCount(2);
});

test("server settings and the rate limits in force are shown", async ({ page }) => {
  await openConfiguration(page);
  const settings = page.getByRole("region", { name: "Server Settings" });
  const row = (label: string) => settings.locator("dl > div").filter({ has: page.getByText(label, { exact: true }) });
  await expect(row("Port")).toContainText(String(E2E_PORT));
  await expect(row("Node environment")).toContainText("production");
  await expect(row("Secret key (JWT and encryption)")).toContainText("Masked:");
  await expect(row("Database URL")).toBeVisible();

  const limits = page.getByRole("region", { name: "Rate Limiting" });
  for (const text of [
    "100 requests per minute",
    "Burst of 10, per client",
    "200 requests per 15-minute window",
    "5 new streams per minute",
    "Maximum 50 concurrent",
  ]) {
    await expect(limits.getByText(text, { exact: true })).toBeVisible();
  }
});

test("at phone width nothing scrolls sideways", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openConfiguration(page);
  await expectNoSidewaysScroll(page);
});

test("a viewer sees the configuration read-only, and the server refuses their save", async ({ page, baseURL }) => {
  const viewer = { username: unique("viewer"), password: "viewer-secret", email: `${unique("viewer")}@example.com` };
  await createUserWithRoles(page, baseURL!, viewer, ["viewer"]);
  await openConfiguration(page, viewer);
  for (const card of [atlassian(page), bitbucket(page)]) {
    await expect(card.getByRole("button", { name: "Save" })).toHaveCount(0);
    await expect(card.getByRole("button", { name: "Test Connection" })).toHaveCount(0);
    await expect(card.getByText("Read-only: changing or testing this integration needs the config.write permission.")).toBeVisible();
    await expect(card.getByRole("switch", { name: "Active" })).toBeDisabled();
  }
  await expect(atlassian(page).getByLabel("Instance URL")).toBeDisabled();
  await expect(bitbucket(page).getByLabel("Workspace")).toBeDisabled();

  const api = apiClient(page, baseURL!);
  const refused = await api.post("/api/admin/atlassian-config", { ...SANDBOX.atlassian, isActive: true });
  expect(refused.status()).toBe(403);
  expect((await api.post("/api/admin/test-bitbucket", {})).status()).toBe(403);
});
