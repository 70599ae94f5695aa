import { mkdirSync } from "node:fs";
import { request, type Locator, type Page } from "@playwright/test";
import { IDENTITY_MESSAGES, linkErrorMessage } from "../contract/accounts";
import { cloudUrlForDataCenter, INTEGRATION_MESSAGES } from "../contract/integrations";
import { expect, test } from "./fixtures";
import { E2E_SANDBOX_URL } from "../playwright.config";
import {
  ADMIN,
  apiClient,
  COLOR_SCHEMES,
  createUserWithRoles,
  dismissToasts,
  expectNoSidewaysScroll,
  expectToast,
  recordWrites,
  SANDBOX_INTEGRATIONS,
  SCREEN_SIZES,
  signIn,
  unique,
} from "./helpers";

/**
 * The Configuration screen with Jira, Confluence and Bitbucket Data Center (issue 28), against the
 * sandbox's Data Center flavour: the deployment choice, Data Center's fields and messages, a save
 * and a connection test, the products detected named on the cards and on the Dashboard, and the
 * incoming application links people link through. The configuration is global to the one server
 * every spec shares: the tests run in order and put the sandbox's Cloud setup and the shared
 * account back at the end (what configuration.spec.ts leaves, and later specs expect).
 */

const DC = {
  jira: `${E2E_SANDBOX_URL}/dc/jira`,
  confluence: `${E2E_SANDBOX_URL}/dc/confluence`,
  bitbucket: `${E2E_SANDBOX_URL}/dc/bitbucket`,
  pat: "sandbox-dc-pat",
  username: "demo",
  password: "sandbox-dc-password",
};
/** The sandbox's incoming application links (sandbox/credentials.ts): Jira's and Confluence's. */
const DC_APPS = {
  jira: { clientId: "sandbox-dc-jira-client-id", clientSecret: "sandbox-dc-jira-client-secret" },
  confluence: { clientId: "sandbox-dc-confluence-client-id", clientSecret: "sandbox-dc-confluence-client-secret" },
};
/** Where the screenshots go, to look at (not committed): e2e/screenshots/ as the other specs, or E2E_SCREENSHOTS_DIR. */
const SHOTS = process.env.E2E_SCREENSHOTS_DIR ?? "e2e/screenshots";

const atlassian = (page: Page) => page.getByRole("region", { name: "Atlassian Integration" });
const bitbucket = (page: Page) => page.getByRole("region", { name: "Bitbucket Integration" });
/** One option of a card's radio group ("Deployment", "Sign in with"). */
const option = (card: Locator, group: string, name: string) =>
  card.getByRole("radiogroup", { name: group }).getByRole("radio", { name, exact: true });
/** The secret's input: its label changes with the deployment and the sign-in, and a sign-in option may share it. */
/** The first secret (Confluence's own token may follow it on Data Center). */
const secret = (card: Locator) => card.locator("input[type='password']").first();

async function openConfiguration(page: Page): Promise<void> {
  await page.goto("/configuration");
  await signIn(page, ADMIN, { phone: (page.viewportSize()?.width ?? 1280) < 768 });
  await expect(page.getByRole("heading", { level: 1, name: "Configuration" })).toBeVisible();
  await expect(option(atlassian(page), "Deployment", "Cloud")).toBeVisible();
  await expect(option(bitbucket(page), "Deployment", "Cloud")).toBeVisible();
}

async function save(page: Page, card: Locator, which: "Atlassian" | "Bitbucket"): Promise<void> {
  await card.getByRole("button", { name: "Save" }).click();
  await expectToast(page, "Configuration saved", `${which} configuration has been updated successfully.`);
  await expect(card.getByRole("button", { name: "Save" })).toBeEnabled();
  await dismissToasts(page);
}

/** Clicks Test Connection and waits for the toast with each line given ("✓ Jira" or a pattern of a crossed one). */
async function testConnection(page: Page, card: Locator, lines: (string | RegExp)[], destructive: boolean): Promise<void> {
  await card.getByRole("button", { name: "Test Connection" }).click();
  const shown = await expectToast(page, "Connection test completed");
  for (const line of lines) await expect(shown.getByRole("listitem").filter({ hasText: line })).toBeVisible();
  if (destructive) await expect(shown).toHaveClass(/destructive/);
  else await expect(shown).not.toHaveClass(/destructive/);
  await dismissToasts(page);
}

/**
 * The shared account for both integrations, as the other specs expect. Saved while Atlassian is
 * still on Data Center, so Confluence's incoming application link goes too (Cloud keeps it as stored).
 */
async function restoreSharedAccount(baseURL: string): Promise<void> {
  const api = await request.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const headers = { Origin: baseURL };
  const shared = { mode: "shared", allowMachineClients: false, allowApiTokens: false, oauthClientId: "", confluenceOauthClientId: "" };
  try {
    expect((await api.post("/api/login", { data: ADMIN, headers })).status()).toBe(200);
    for (const integration of ["atlassian", "bitbucket"]) {
      const restored = await api.put(`/api/admin/identity/${integration}`, { data: shared, headers });
      expect(restored.status(), await restored.text()).toBe(200);
    }
  } finally {
    await api.dispose();
  }
}

/** Each person's own account with Jira's and Confluence's incoming application links, through the API (as the admin). */
async function perPersonWithBothLinks(page: Page, baseURL: string): Promise<void> {
  const saved = await apiClient(page, baseURL).put("/api/admin/identity/atlassian", {
    mode: "per-person",
    allowMachineClients: false,
    allowApiTokens: false,
    oauthClientId: DC_APPS.jira.clientId,
    oauthClientSecret: DC_APPS.jira.clientSecret,
    confluenceOauthClientId: DC_APPS.confluence.clientId,
    confluenceOauthClientSecret: DC_APPS.confluence.clientSecret,
  });
  expect(saved.status(), await saved.text()).toBe(200);
}

/** On a Data Center server's consent page (the sandbox's): the person chosen allows Bridgekeeper. */
async function allowAtDataCenter(page: Page, server: "jira" | "confluence", person: string): Promise<void> {
  await page.waitForURL((url) => url.origin === E2E_SANDBOX_URL && url.pathname === `/dc/${server}/rest/oauth2/latest/authorize`);
  await expect(page).toHaveTitle(`Allow Bridgekeeper to access your ${server === "jira" ? "Jira" : "Confluence"} account?`);
  await page.getByLabel(person).check();
  await page.getByRole("button", { name: "Allow", exact: true }).click();
}

/** The sandbox's Cloud setup, as configuration.spec.ts leaves it (saved with "Detect automatically"), tested so the cards read Connected. */
async function restoreCloud(baseURL: string): Promise<void> {
  const api = await request.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const headers = { Origin: baseURL };
  try {
    expect((await api.post("/api/login", { data: ADMIN, headers })).status()).toBe(200);
    const { atlassian: a, bitbucket: b } = SANDBOX_INTEGRATIONS;
    expect((await api.post("/api/admin/atlassian-config", { data: { ...a, deployment: "auto" }, headers })).status()).toBe(200);
    expect((await api.post("/api/admin/bitbucket-config", { data: { ...b, deployment: "auto" }, headers })).status()).toBe(200);
    expect((await api.post("/api/admin/test-atlassian", { headers })).status()).toBe(200);
    expect((await api.post("/api/admin/test-bitbucket", { headers })).status()).toBe(200);
  } finally {
    await api.dispose();
  }
}

/** Atlassian on Data Center with Confluence, signed in with a personal access token: saved; its card. */
async function saveAtlassianDataCenter(page: Page): Promise<Locator> {
  await openConfiguration(page);
  const card = atlassian(page);
  await option(card, "Deployment", "Data Center").click();
  await card.getByLabel("Jira base URL").fill(DC.jira);
  await card.getByLabel("Confluence base URL").fill(DC.confluence);
  await option(card, "Sign in with", "Personal access token").click();
  await secret(card).fill(DC.pat);
  await card.getByLabel("Confluence personal access token").fill(DC.pat);
  await save(page, card, "Atlassian");
  return card;
}

test.describe.serial("Jira, Confluence and Bitbucket Data Center (one global config)", () => {
  // Whatever happened above, the shared account and the Cloud setup the other specs expect.
  test.afterAll(async ({ browser: _browser }, testInfo) => {
    await restoreSharedAccount(testInfo.project.use.baseURL!);
    await restoreCloud(testInfo.project.use.baseURL!);
  });

  test("Atlassian on Data Center: its fields, a Cloud address refused, saved, tested, its products on the card and the Dashboard", async ({
    page,
  }) => {
    await openConfiguration(page);
    const card = atlassian(page);

    // The deployment is a radio group: the arrow keys move between its options.
    await option(card, "Deployment", "Cloud").click();
    await expect(card.getByLabel("Instance URL")).toBeVisible();
    await expect(card.getByLabel("Email or username")).toBeVisible();
    await expect(secret(card)).toHaveAccessibleName("API token");
    await expect(card.getByText(/^Looks like/)).toHaveCount(0);
    // Radix moves focus a tick after the keydown and checks the option it lands on while the key is
    // down (as a person's key press is): hold it until then.
    await page.keyboard.down("ArrowRight");
    await expect(option(card, "Deployment", "Data Center")).toBeChecked();
    await page.keyboard.up("ArrowRight");
    await expect(option(card, "Deployment", "Data Center")).toBeFocused();

    // Data Center's fields: Jira's and Confluence's base URLs and how the account signs in.
    await expect(card.getByLabel("Instance URL")).toHaveCount(0);
    const jiraUrl = card.getByLabel("Jira base URL");
    await expect(jiraUrl).toHaveAttribute("placeholder", "https://jira.example.com");
    await expect(card.getByLabel("Confluence base URL")).toHaveAccessibleDescription(
      "Optional. On Data Center, Confluence is its own server: leave blank to leave Confluence out.",
    );
    await option(card, "Sign in with", "Personal access token").click();
    await expect(card.getByLabel("Username", { exact: true })).toHaveCount(0);
    await expect(secret(card)).toHaveAccessibleName("Personal access token");
    await option(card, "Sign in with", "Username and password").click();
    await expect(card.getByLabel("Username", { exact: true })).toBeVisible();
    await expect(secret(card)).toHaveAccessibleName("Password");
    await option(card, "Sign in with", "Personal access token").click();

    // An Atlassian Cloud address is refused for Data Center, under its field, before anything is sent.
    const writes = recordWrites(page);
    await jiraUrl.fill("https://acme.atlassian.net");
    await card.getByLabel("Confluence base URL").fill(DC.confluence);
    await secret(card).fill(DC.pat);
    // Confluence is its own server on Data Center: its own token.
    await card.getByLabel("Confluence personal access token").fill(DC.pat);
    await card.getByRole("button", { name: "Save" }).click();
    const cloudMessage = cloudUrlForDataCenter("acme.atlassian.net", "Jira");
    await expect(card.getByText(cloudMessage, { exact: true })).toBeVisible();
    await expect(jiraUrl).toBeFocused();
    await expect(jiraUrl).toHaveAttribute("aria-invalid", "true");
    expect(writes.filter((w) => w.includes("/atlassian-config"))).toEqual([]);

    // Switching deployment keeps what was typed.
    await option(card, "Deployment", "Cloud").click();
    await expect(card.getByLabel("Instance URL")).toHaveValue("https://acme.atlassian.net");
    await option(card, "Deployment", "Data Center").click();
    await expect(card.getByLabel("Confluence base URL")).toHaveValue(DC.confluence);
    await expect(option(card, "Sign in with", "Personal access token")).toBeChecked();

    await jiraUrl.fill(DC.jira);
    await expect(card.getByText(cloudMessage, { exact: true })).toHaveCount(0);
    await save(page, card, "Atlassian");
    await expect(secret(card)).toHaveValue("");
    await expect(secret(card)).toHaveAccessibleDescription("A token is stored (•••• -pat). Leave blank to keep it.");

    // A reload shows it as stored.
    await page.reload();
    await expect(option(card, "Deployment", "Data Center")).toBeChecked();
    await expect(card.getByLabel("Jira base URL")).toHaveValue(DC.jira);
    await expect(card.getByLabel("Confluence base URL")).toHaveValue(DC.confluence);
    await expect(option(card, "Sign in with", "Personal access token")).toBeChecked();

    await testConnection(page, card, ["✓ Jira", "✓ Confluence"], false);
    const products = card.getByRole("list", { name: "Products" });
    await expect(products.getByText("Jira Data Center 10.3", { exact: true })).toBeVisible();
    await expect(products.getByText("Confluence Data Center 9.2", { exact: true })).toBeVisible();
    await expect(products.getByText("Jira Data Center 10.3", { exact: true })).toHaveAttribute("title", /^Jira Data Center 10\.3\.\d+$/);
    await expect(card.getByText(/^Connects as /)).toBeVisible();

    // Under "Detect automatically", the form says what the entries point to.
    await option(card, "Deployment", "Detect automatically").click();
    await expect(card.getByText("Looks like Data Center: the test will confirm it.", { exact: true })).toBeVisible();
    await expect(card.getByLabel("Jira base URL")).toBeVisible();

    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: "Server Dashboard" })).toBeVisible();
    const dashboard = page.getByRole("region", { name: "Atlassian Integration", exact: true });
    await expect(dashboard.getByText("Jira Data Center 10.3", { exact: true })).toBeVisible();
    await expect(dashboard.getByText("Confluence Data Center 9.2", { exact: true })).toBeVisible();
    await expect(dashboard.getByText(/^(Connected|Disconnected)$/)).toHaveCount(2);
  });

  test("Bitbucket on Data Center: its base URL required, a Cloud address refused, saved, tested, its product named", async ({ page }) => {
    await openConfiguration(page);
    const card = bitbucket(page);
    await option(card, "Deployment", "Data Center").click();
    await expect(card.getByLabel("Workspace")).toHaveCount(0);
    const baseUrl = card.getByLabel("Bitbucket base URL");
    await expect(baseUrl).toBeVisible();
    await expect(card.getByLabel("Default project")).toHaveAttribute("placeholder", "PLAT");
    await expect(card.getByRole("radiogroup", { name: "Sign in with" })).toHaveAccessibleDescription(
      "A personal access token, or a project's or repository's HTTP access token.",
    );
    await option(card, "Sign in with", "Username and password").click();
    await expect(secret(card)).toHaveAccessibleName("Password");

    await baseUrl.fill("");
    await card.getByLabel("Username", { exact: true }).fill(DC.username);
    await secret(card).fill(DC.password);
    await card.getByRole("button", { name: "Save" }).click();
    await expect(card.getByText(INTEGRATION_MESSAGES.baseUrl, { exact: true })).toBeVisible();
    await expect(baseUrl).toBeFocused();
    await baseUrl.fill("https://bitbucket.org");
    await card.getByRole("button", { name: "Save" }).click();
    await expect(card.getByText(cloudUrlForDataCenter("bitbucket.org", "Bitbucket"), { exact: true })).toBeVisible();

    await baseUrl.fill(DC.bitbucket);
    await card.getByLabel("Default project").fill("PLAT");
    await save(page, card, "Bitbucket");
    await expect(secret(card)).toHaveAccessibleDescription("A password is stored (•••• word). Leave blank to keep it.");
    // Cloud's API URL is not where Data Center's calls go: it is not shown.
    await expect(card.getByText("(BITBUCKET_API_URL on the server)")).toHaveCount(0);

    await testConnection(page, card, ["✓ Connected"], false);
    await expect(card.getByRole("list", { name: "Products" }).getByText("Bitbucket Data Center 9.4", { exact: true })).toBeVisible();

    // An access token instead: no username asked for.
    await option(card, "Sign in with", "Access token").click();
    await expect(card.getByLabel("Username", { exact: true })).toHaveCount(0);
    await expect(secret(card)).toHaveAccessibleName("Access token");
    await secret(card).fill(DC.pat);
    await save(page, card, "Bitbucket");
    await testConnection(page, card, ["✓ Connected"], false);

    await page.goto("/");
    const dashboard = page.getByRole("region", { name: "Bitbucket Integration", exact: true });
    await expect(dashboard.getByText("Bitbucket Data Center 9.4", { exact: true })).toBeVisible();
  });

  test("a test says when the chosen deployment is not the one that answers; under Detect automatically it switches, and the form follows", async ({
    page,
  }) => {
    await openConfiguration(page);
    const card = atlassian(page);
    // Jira Data Center's address saved as Cloud: Cloud's fields, Basic with a username and password.
    await option(card, "Deployment", "Cloud").click();
    await card.getByLabel("Instance URL").fill(DC.jira);
    await card.getByLabel("Email or username").fill(DC.username);
    await secret(card).fill(DC.password);
    await save(page, card, "Atlassian");
    await testConnection(
      page,
      card,
      [/^✗ Jira — Jira Data Center 10\.3\.\d+ answers at this address, but the integration is set to Cloud: choose Data Center/],
      true,
    );
    await expect(card.getByLabel("Instance URL")).toBeVisible();

    // Detect automatically: the entries look like Cloud until the test finds Data Center.
    await option(card, "Deployment", "Detect automatically").click();
    await expect(card.getByText("Looks like Cloud: the test will confirm it.", { exact: true })).toBeVisible();
    await save(page, card, "Atlassian");
    // Jira answers; Confluence has no address yet on Data Center.
    await testConnection(page, card, ["✓ Jira", /^✗ Confluence/], true);
    await expect(card.getByText("Detected by the last connection test: Data Center.", { exact: true })).toBeVisible();
    await expect(card.getByLabel("Jira base URL")).toHaveValue(DC.jira);
    await expect(option(card, "Deployment", "Detect automatically")).toBeChecked();
    await expect(option(card, "Sign in with", "Username and password")).toBeChecked();
    await expect(card.getByLabel("Username", { exact: true })).toHaveValue(DC.username);
    await expect(card.getByRole("list", { name: "Products" }).getByText("Jira Data Center 10.3", { exact: true })).toBeVisible();
  });

  test("each person's own account on Data Center: Jira's and Confluence's incoming application links, saved, and Jira's alone refused", async ({
    page,
    baseURL,
  }) => {
    // Atlassian on Data Center with Confluence: Confluence is a server of its own, with its own link.
    await saveAtlassianDataCenter(page);

    // The identity card follows the saved deployment (no reload): Data Center's words and Confluence's own box.
    const identity = page.getByRole("region", { name: "Who Bridgekeeper acts as in Jira and Confluence", exact: true });
    const jiraBox = identity.getByRole("group", { name: "Incoming application link people link through", exact: true });
    const confluenceBox = identity.getByRole("group", { name: "Confluence's incoming application link", exact: true });
    await expect(confluenceBox).toBeVisible();
    await expect(jiraBox).toContainText("Administration › Applications › Application links");
    await expect(confluenceBox).toContainText("General configuration › Application links");
    await expect(identity.getByRole("switch", { name: "Allow personal access tokens" })).toBeVisible();
    await expect(
      identity.getByText("Enter it as the Redirect URL of each incoming application link, exactly as shown (it is built from PUBLIC_URL)."),
    ).toBeVisible();

    const jiraId = jiraBox.getByLabel("Jira's client ID");
    const jiraSecret = jiraBox.getByLabel("Jira's client secret");
    const confluenceId = confluenceBox.getByLabel("Confluence's client ID");
    const confluenceSecret = confluenceBox.getByLabel("Confluence's client secret");
    await identity.getByRole("radio", { name: "Each person's own account" }).click();
    await jiraId.fill(DC_APPS.jira.clientId);
    await jiraSecret.fill(DC_APPS.jira.clientSecret);
    await confluenceId.fill(DC_APPS.confluence.clientId);
    await confluenceSecret.fill(DC_APPS.confluence.clientSecret);
    await identity.getByRole("button", { name: "Save" }).click();
    await expectToast(page, "Configuration saved", "Jira and Confluence: who Bridgekeeper acts as has been updated.");
    await expect(identity.getByRole("button", { name: "Save" })).toBeEnabled();
    await dismissToasts(page);

    // The secrets are write-only: blank, with the stored one's last characters.
    for (const field of [jiraSecret, confluenceSecret]) {
      await expect(field).toHaveValue("");
      await expect(field).toHaveAccessibleDescription("A secret is stored (•••• cret). Leave blank to keep it.");
    }
    await page.reload();
    await expect(identity.getByRole("radio", { name: "Each person's own account" })).toBeChecked();
    await expect(jiraId).toHaveValue(DC_APPS.jira.clientId);
    await expect(confluenceId).toHaveValue(DC_APPS.confluence.clientId);
    await expect(confluenceSecret).toHaveAttribute("placeholder", "•••• cret");

    // Jira's link alone would leave Confluence out of every link: refused under Confluence's client ID, before sending.
    const writes = recordWrites(page);
    await confluenceId.fill("");
    await identity.getByRole("button", { name: "Save" }).click();
    await expect(confluenceId).toHaveAccessibleDescription(IDENTITY_MESSAGES.confluenceApp);
    await expect(confluenceId).toHaveAttribute("aria-invalid", "true");
    await expect(confluenceId).toBeFocused();
    expect(writes.filter((w) => w.includes("/api/admin/identity"))).toEqual([]);
    // The server refuses it too, with the same message on the same field.
    const refused = await page.request.put("/api/admin/identity/atlassian", {
      data: {
        mode: "per-person",
        allowMachineClients: false,
        allowApiTokens: false,
        oauthClientId: DC_APPS.jira.clientId,
        confluenceOauthClientId: "",
      },
      headers: { Origin: baseURL! },
    });
    expect(refused.status()).toBe(400);
    expect(((await refused.json()) as { error: { fields?: Record<string, string> } }).error.fields?.confluenceOauthClientId).toBe(
      IDENTITY_MESSAGES.confluenceApp,
    );

    // Back to the shared account for the tests after (while on Data Center, so Confluence's link goes too).
    await restoreSharedAccount(baseURL!);
  });

  test("a person links their account on Data Center: Jira's consent, then Confluence's, and both must be the same person", async ({
    page,
    browser,
    baseURL,
  }) => {
    // Atlassian is on Data Center with Confluence (the test before); each person's own account with both links.
    await perPersonWithBothLinks(page, baseURL!);
    const operator = { username: unique("dc-linker"), password: "dc-linker-secret", email: `${unique("dc-linker")}@example.com` };
    const operatorId = await createUserWithRoles(page, baseURL!, operator, ["operator"]);
    const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
    try {
      const person = await context.newPage();
      await person.goto("/account");
      await signIn(person, operator);
      await expect(person.getByRole("heading", { level: 1, name: "My accounts" })).toBeVisible();
      const mine = person.getByRole("region", { name: "Atlassian", exact: true });
      const connect = mine.getByRole("button", { name: "Connect with Jira and Confluence" });

      // Jira's consent, then Confluence's, both as Priya: back on My accounts, linked through the application links.
      await connect.click();
      await allowAtDataCenter(person, "jira", "Priya Raman");
      await allowAtDataCenter(person, "confluence", "Priya Raman");
      await person.waitForURL(`${baseURL}/account`);
      await expectToast(person, "Atlassian account linked");
      await expect(mine.getByText("Working", { exact: true })).toBeVisible();
      await expect(mine.getByText("Priya Raman", { exact: true })).toBeVisible();
      await expect(mine.getByText("OAuth 2.0 (Data Center application link)", { exact: true })).toBeVisible();
      const scopes = mine.getByRole("list", { name: "Scopes granted" });
      await expect(scopes.getByText("jira:WRITE", { exact: true })).toBeVisible();
      await expect(scopes.getByText("confluence:WRITE", { exact: true })).toBeVisible();

      // Unlinked, after a confirmation.
      await dismissToasts(person);
      await mine.getByRole("button", { name: "Unlink" }).click();
      const confirm = person.getByRole("alertdialog", { name: "Unlink your Atlassian account?" });
      await confirm.getByRole("button", { name: "Unlink" }).click();
      await expectToast(person, "Atlassian account unlinked");
      await expect(confirm).toBeHidden();
      await expect(connect).toBeVisible();
      await dismissToasts(person);

      // Jira allowed by Priya, Confluence by Marcus: refused, nothing linked.
      await connect.click();
      await allowAtDataCenter(person, "jira", "Priya Raman");
      await allowAtDataCenter(person, "confluence", "Marcus Chen");
      await person.waitForURL(`${baseURL}/account`);
      const alert = person.getByRole("alert").filter({ hasText: "Atlassian account not linked" });
      await expect(alert).toContainText(linkErrorMessage("other-person", "Atlassian", null));
      await expect(mine.getByText("Not linked", { exact: true })).toBeVisible();
      await expect(connect).toBeVisible();
      await expect(mine.getByText("Linked with", { exact: true })).toHaveCount(0);
    } finally {
      // Nobody's link lingers, the person goes, and the shared account is back (while on Data Center, so Confluence's link goes too).
      const admin = apiClient(page, baseURL!);
      expect([204, 404]).toContain((await admin.delete(`/api/users/${operatorId}/links/atlassian`)).status());
      expect((await admin.delete(`/api/users/${operatorId}`)).status()).toBe(204);
      await context.close();
      await restoreSharedAccount(baseURL!);
    }
  });

  test("screenshots in both deployments, light and dark, desktop and phone; nothing scrolls sideways", async ({ page, baseURL }) => {
    test.slow(); // many sizes and schemes: three times the configured bound
    mkdirSync(SHOTS, { recursive: true });
    // Data Center, both integrations, with a personal access token (Bitbucket kept from the test before).
    const card = await saveAtlassianDataCenter(page);
    await testConnection(page, card, ["✓ Jira", "✓ Confluence"], false);

    const shoot = async (deployment: string, ready: (page: Page) => Promise<void>) => {
      for (const size of SCREEN_SIZES) {
        for (const scheme of COLOR_SCHEMES) {
          await page.setViewportSize({ width: size.width, height: size.height });
          await page.emulateMedia({ colorScheme: scheme, reducedMotion: "reduce" });
          await page.goto("/configuration");
          await ready(page);
          await expect(page.locator("[data-slot='skeleton']")).toHaveCount(0);
          await page.screenshot({ path: `${SHOTS}/configuration-${deployment}-${size.name}-${scheme}.png`, fullPage: true });
          await expectNoSidewaysScroll(page, `/configuration (${deployment}) scrolls sideways`);
          if (deployment === "datacenter" && size.name === "desktop") {
            await page.goto("/");
            await expect(
              page.getByRole("region", { name: "Atlassian Integration", exact: true }).getByText("Jira Data Center 10.3"),
            ).toBeVisible();
            await page.screenshot({ path: `${SHOTS}/dashboard-datacenter-${size.name}-${scheme}.png` });
          }
        }
      }
    };
    await shoot("datacenter", async (p) => {
      await expect(atlassian(p).getByRole("list", { name: "Products" }).getByText("Jira Data Center 10.3")).toBeVisible();
      await expect(bitbucket(p).getByRole("list", { name: "Products" }).getByText("Bitbucket Data Center 9.4")).toBeVisible();
    });

    await restoreCloud(baseURL!);
    await shoot("cloud", async (p) => {
      await expect(atlassian(p).getByLabel("Instance URL")).toHaveValue(E2E_SANDBOX_URL);
      await expect(bitbucket(p).getByLabel("Workspace")).toHaveValue(SANDBOX_INTEGRATIONS.bitbucket.workspace);
      // Saved with "Detect automatically", and tested: Cloud is no longer a guess.
      await expect(atlassian(p).getByText("Detected by the last connection test: Cloud.", { exact: true })).toBeVisible();
    });
  });
});
