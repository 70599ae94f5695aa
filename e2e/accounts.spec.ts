import { createHash, randomBytes } from "node:crypto";
import { request, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { IDENTITY_MESSAGES, linkErrorMessage } from "../contract/accounts";
import { E2E_PORT, E2E_SANDBOX_URL } from "../playwright.config";
import { expect, test } from "./fixtures";
import {
  ADMIN,
  COLOR_SCHEMES,
  createUserWithRoles,
  dismissToasts,
  expectNoSidewaysScroll,
  expectToast,
  pointIntegrationsAtSandbox,
  recordWrites,
  SCREEN_SIZES,
  signIn,
  unique,
} from "./helpers";

/**
 * Acting as the person (issue 27, docs/decisions.md D25) in the browser: an administrator switches
 * Atlassian to each person's own account (its OAuth app is the sandbox's imitation of Atlassian's
 * 3LO), and a person links their account on My accounts through the service's consent page, sees
 * it working, and unlinks it; cancelling, a personal API token, the chat's warning, the consent
 * page's offer to link first, the Users screen's view, and the Configuration card.
 *
 * The identity mode is global to the one server every spec shares, and in per-person mode every
 * other spec's Jira and Confluence calls would need a link: this spec is its own Playwright project
 * ("accounts"), run after all the others, its tests one after another, and it puts the shared
 * account back at the end.
 */

const BASE_URL = `http://127.0.0.1:${E2E_PORT}`;

interface SandboxAccounts {
  atlassianApp: { clientId: string; clientSecret: string };
  people: { accountId: string; displayName: string; email: string; apiToken: string; nickname: string }[];
}

test.describe.configure({ mode: "serial" });
// Each test signs its own person in on the login form.
test.use({ storageState: { cookies: [], origins: [] } });

let admin: APIRequestContext;
let sandbox: SandboxAccounts;
/** A person with the built-in viewer role (config.read, not config.write), made for this file. */
const person = { username: unique("linker"), password: "linker-secret", email: `${unique("linker")}@example.com` };
let personId: string;

const SHARED = { mode: "shared", allowMachineClients: false, allowApiTokens: false, oauthClientId: "" } as const;

test.beforeAll(async ({ browser }) => {
  admin = await request.newContext({
    baseURL: BASE_URL,
    storageState: { cookies: [], origins: [] },
    extraHTTPHeaders: { Origin: BASE_URL },
  });
  expect((await admin.post("/api/login", { data: ADMIN })).status()).toBe(200);
  await pointIntegrationsAtSandbox(admin);
  const accounts = await fetch(`${E2E_SANDBOX_URL}/__sandbox/accounts`);
  expect(accounts.status).toBe(200);
  sandbox = (await accounts.json()) as SandboxAccounts;
  const perPerson = await admin.put("/api/admin/identity/atlassian", {
    data: {
      mode: "per-person",
      allowMachineClients: false,
      allowApiTokens: true,
      oauthClientId: sandbox.atlassianApp.clientId,
      oauthClientSecret: sandbox.atlassianApp.clientSecret,
    },
  });
  expect(perPerson.status(), await perPerson.text()).toBe(200);
  const page = await browser.newPage({ baseURL: BASE_URL });
  personId = await createUserWithRoles(page, BASE_URL, person, ["viewer"]);
  await page.close();
});

test.afterAll(async () => {
  // The other specs assume the shared account (and nobody's link lingers).
  if (personId) for (const integration of ["atlassian", "bitbucket"]) await admin.delete(`/api/users/${personId}/links/${integration}`);
  for (const integration of ["atlassian", "bitbucket"]) {
    const restored = await admin.put(`/api/admin/identity/${integration}`, { data: SHARED });
    expect(restored.status(), await restored.text()).toBe(200);
  }
  await admin.dispose();
});

const card = (page: Page, name: "Atlassian" | "Bitbucket"): Locator => page.getByRole("region", { name, exact: true });
const badge = (region: Locator): Locator => region.locator("[data-slot='badge']").first();

async function openMyAccounts(page: Page): Promise<void> {
  await page.goto("/account");
  await signIn(page, person);
  await expect(page.getByRole("heading", { level: 1, name: "My accounts" })).toBeVisible();
  await expect(card(page, "Atlassian")).toBeVisible();
}

/** On the sandbox's imitation of Atlassian's consent page: who the person is, then Accept or Cancel. */
async function atAtlassianConsent(page: Page, choice: { person?: string; button: "Accept" | "Cancel" }): Promise<void> {
  await page.waitForURL((url) => url.origin === E2E_SANDBOX_URL && url.pathname === "/authorize");
  if (choice.person) await page.getByLabel(choice.person).check();
  await page.getByRole("button", { name: choice.button, exact: true }).click();
}

test("a person links their Atlassian account through its consent page, sees it working, and unlinks it", async ({ page, browser }) => {
  const priya = sandbox.people[0]!;
  await openMyAccounts(page);
  await expect(page).toHaveTitle("My accounts · Bridgekeeper");

  // The sidebar's user block is the way here.
  await expect(page.getByRole("link", { name: /^My accounts, signed in as / })).toHaveAttribute("aria-current", "page");

  const atlassian = card(page, "Atlassian");
  await expect(badge(atlassian)).toHaveText("Not linked");
  await expect(atlassian.getByText("Jira and Confluence answer as you here")).toBeVisible();
  // Bitbucket stays on the shared account: nothing to link there.
  await expect(
    card(page, "Bitbucket").getByText("Bitbucket uses the shared account an administrator set up: there is nothing to link."),
  ).toBeVisible();

  await atlassian.getByRole("button", { name: "Connect with Atlassian" }).click();
  await atAtlassianConsent(page, { person: priya.displayName, button: "Accept" });

  // Back on My accounts: the toast, a clean address, the account and its state.
  await page.waitForURL(`${BASE_URL}/account`);
  await expectToast(page, "Atlassian account linked");
  await expect(badge(atlassian)).toHaveText("Working");
  await expect(atlassian.getByText(priya.displayName, { exact: true })).toBeVisible();
  await expect(atlassian.getByText(E2E_SANDBOX_URL, { exact: true })).toBeVisible();
  await expect(atlassian.getByText("OAuth 2.0 (3LO)", { exact: true })).toBeVisible();
  await expect(atlassian.getByText("Never", { exact: true })).toBeVisible();
  // A 3LO grant's many scopes sit behind a disclosure.
  const scopes = atlassian.getByRole("list", { name: "Scopes granted" });
  await expect(scopes).toBeHidden();
  await atlassian.getByText(/^\d+ scopes granted$/).click();
  await expect(scopes.getByText("read:jira-work", { exact: true })).toBeVisible();
  await expectNoSidewaysScroll(page);

  // An administrator sees the link's state on the Users screen (never a token).
  const adminPage = await browser.newPage({ baseURL: BASE_URL });
  await adminPage.goto("/users");
  await signIn(adminPage, ADMIN);
  await adminPage.getByPlaceholder("Search users by email, username, or name...").fill(person.username);
  await adminPage.getByRole("button", { name: `Actions for ${person.username}` }).click();
  await adminPage.getByRole("menuitem", { name: "Linked accounts" }).click();
  const dialog = adminPage.getByRole("dialog", { name: "Linked accounts" });
  await expect(dialog.getByText(priya.displayName, { exact: true })).toBeVisible();
  await expect(dialog.getByText("Working", { exact: true })).toBeVisible();
  await adminPage.keyboard.press("Escape");
  await expect(adminPage.getByRole("button", { name: `Actions for ${person.username}` })).toBeFocused();
  await adminPage.close();

  // Unlink, after a confirmation.
  await dismissToasts(page);
  await atlassian.getByRole("button", { name: "Unlink" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Unlink your Atlassian account?" });
  await expect(confirm).toContainText(priya.displayName);
  await confirm.getByRole("button", { name: "Unlink" }).click();
  await expectToast(page, "Atlassian account unlinked");
  await expect(confirm).toBeHidden();
  await expect(badge(atlassian)).toHaveText("Not linked");
  await expect(atlassian.getByRole("button", { name: "Connect with Atlassian" })).toBeVisible();
});

test("cancelling at Atlassian links nothing, and My accounts says so until dismissed", async ({ page }) => {
  await openMyAccounts(page);
  await card(page, "Atlassian").getByRole("button", { name: "Connect with Atlassian" }).click();
  await atAtlassianConsent(page, { button: "Cancel" });

  await page.waitForURL(`${BASE_URL}/account`);
  const alert = page.getByRole("alert").filter({ hasText: "Atlassian account not linked" });
  await expect(alert).toContainText(linkErrorMessage("denied", "Atlassian", null));
  await expect(badge(card(page, "Atlassian"))).toHaveText("Not linked");
  await alert.getByRole("button", { name: "Dismiss" }).click();
  await expect(alert).toBeHidden();
});

test("a personal API token: a wrong one is refused under its field, the person's own links", async ({ page }) => {
  const marcus = sandbox.people[1]!;
  await openMyAccounts(page);
  const atlassian = card(page, "Atlassian");
  await atlassian.getByRole("button", { name: "Use a personal API token instead" }).click();
  const form = atlassian.getByRole("form", { name: "Link with a personal API token" });

  // Empty: the contract's messages, nothing sent.
  const writes = recordWrites(page);
  await form.getByRole("button", { name: "Link account" }).click();
  await expect(form.getByText(IDENTITY_MESSAGES.email)).toBeVisible();
  await expect(form.getByText(IDENTITY_MESSAGES.apiToken)).toBeVisible();
  expect(writes).toEqual([]);

  await form.getByLabel("Email").fill(marcus.email);
  await form.getByLabel("API token").fill("not-the-token");
  await form.getByRole("button", { name: "Link account" }).click();
  await expect(form.getByText("Atlassian refused this e-mail and API token")).toBeVisible();
  await expect(form.getByLabel("API token")).toBeFocused();

  await form.getByLabel("API token").fill(marcus.apiToken);
  await form.getByRole("button", { name: "Link account" }).click();
  await expectToast(page, "Atlassian account linked");
  await expect(badge(atlassian)).toHaveText("Working");
  await expect(atlassian.getByText(marcus.displayName, { exact: true })).toBeVisible();
  await expect(atlassian.getByText("Personal API token", { exact: true })).toBeVisible();
  expect((await admin.delete(`/api/users/${personId}/links/atlassian`)).status()).toBe(204);
});

test("the chat warns a person without a link, and the consent page offers to link first and comes back", async ({ page, baseURL }) => {
  const elena = sandbox.people[2]!;
  await page.goto("/chat");
  await signIn(page, person);
  const warning = page.getByRole("status").filter({ hasText: "answer as you" });
  await expect(warning).toHaveText("Jira and Confluence answer as you: link your Atlassian account on My accounts first.");
  await expect(warning.getByRole("link", { name: "My accounts" })).toHaveAttribute("href", "/account");

  // An MCP client asks this person's consent.
  const created = await admin.post("/api/admin/oauth-clients", {
    data: { name: unique("Accounts client "), redirectUris: ["http://127.0.0.1:45998/callback"], scopes: ["read"], isActive: true },
  });
  expect(created.status()).toBe(201);
  const { clientId } = (await created.json()) as { clientId: string };
  const authorize = new URL("/oauth/authorize", baseURL);
  const challenge = createHash("sha256").update(randomBytes(32).toString("base64url")).digest("base64url");
  for (const [k, v] of Object.entries({
    response_type: "code",
    client_id: clientId,
    redirect_uri: "http://127.0.0.1:45998/callback",
    scope: "read",
    state: "accounts-state",
    code_challenge: challenge,
    code_challenge_method: "S256",
  }))
    authorize.searchParams.set(k, v);
  await page.goto(authorize.toString());
  await expect(page).toHaveURL(/\/oauth-consent\/[\w-]+$/);
  const consentUrl = page.url();
  await expect(page.getByRole("heading", { name: "Authorize access" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Who acts" })).toContainText(
    "Jira and Confluence as you, once you link your Atlassian account.",
  );
  const linkFirst = page.getByRole("region", { name: "Link your account first" });
  await expect(linkFirst).toContainText("You can still authorize it now.");
  await expect(page.getByRole("button", { name: "Authorize" })).toBeEnabled();

  await linkFirst.getByRole("button", { name: "Link your Atlassian account first" }).click();
  await atAtlassianConsent(page, { person: elena.displayName, button: "Accept" });
  // Back on the same consent page, the link made.
  await page.waitForURL(consentUrl);
  await expect(page.getByRole("region", { name: "Who acts" })).toContainText(`Jira and Confluence as you (${elena.displayName})`);
  await expect(linkFirst).toBeHidden();

  // The chat no longer warns: asserted once the chat has the person's links (before, no warning would prove nothing).
  const links = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/account/links" && r.ok());
  await page.goto("/chat");
  await links;
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByText("answer as you:")).toHaveCount(0);
  expect((await admin.delete(`/api/users/${personId}/links/atlassian`)).status()).toBe(204);
});

test("Configuration: who Bridgekeeper acts as, saved by an administrator, read-only for a viewer", async ({ page, browser }) => {
  // The viewer (config.read) sees the settings and cannot change them.
  await page.goto("/configuration");
  await signIn(page, person);
  const viewerCard = page.getByRole("region", { name: "Who Bridgekeeper acts as in Jira and Confluence" });
  await expect(viewerCard.getByRole("radio", { name: "Each person's own account" })).toBeChecked();
  await expect(viewerCard.getByRole("radio", { name: "Each person's own account" })).toBeDisabled();
  await expect(viewerCard.getByText("Read-only: changing who Bridgekeeper acts as needs the config.write permission.")).toBeVisible();
  await expect(viewerCard.getByRole("button", { name: "Save" })).toHaveCount(0);

  const adminPage = await browser.newPage({ baseURL: BASE_URL });
  await adminPage.goto("/configuration");
  await signIn(adminPage, ADMIN);
  const atlassian = adminPage.getByRole("region", { name: "Who Bridgekeeper acts as in Jira and Confluence" });
  await expect(atlassian.getByLabel("OAuth client ID")).toHaveValue(sandbox.atlassianApp.clientId);
  await expect(atlassian.getByLabel("OAuth client secret")).toHaveValue("");
  await expect(atlassian.getByLabel("OAuth client secret")).toHaveAttribute(
    "placeholder",
    `•••• ${sandbox.atlassianApp.clientSecret.slice(-4)}`,
  );
  await expect(atlassian.getByText(`${BASE_URL}/api/account/links/atlassian/callback`, { exact: true })).toBeVisible();
  await expect(atlassian.getByRole("button", { name: "Copy the callback URL" })).toBeEnabled();

  // Bitbucket, each person's own account without any way to link: refused before sending.
  const bitbucket = adminPage.getByRole("region", { name: "Who Bridgekeeper acts as in Bitbucket" });
  const writes = recordWrites(adminPage);
  await bitbucket.getByRole("radio", { name: "Each person's own account" }).click();
  await bitbucket.getByRole("button", { name: "Save" }).click();
  await expect(bitbucket.getByText(IDENTITY_MESSAGES.noWayToLink)).toBeVisible();
  expect(writes).toEqual([]);
  await bitbucket.getByRole("radio", { name: "Shared account" }).click();
  await expect(bitbucket.getByText(IDENTITY_MESSAGES.noWayToLink)).toBeHidden();

  // A save: the toast, and the value stays after a reload.
  const machines = atlassian.getByRole("switch", { name: "Allow machine clients to use the shared account" });
  await expect(machines).not.toBeChecked();
  await machines.click();
  await atlassian.getByRole("button", { name: "Save" }).click();
  await expectToast(adminPage, "Configuration saved", "Jira and Confluence: who Bridgekeeper acts as has been updated.");
  await adminPage.reload();
  await expect(machines).toBeChecked();
  await machines.click();
  await atlassian.getByRole("button", { name: "Save" }).click();
  await expect(atlassian.getByRole("button", { name: "Save" })).toBeEnabled();
  await adminPage.reload();
  await expect(machines).not.toBeChecked();
  await adminPage.close();
});

test("screenshots of My accounts and the Configuration card, light and dark, desktop and phone", async ({ page, browser }) => {
  test.slow(); // many sizes and schemes
  // A linked account (Priya, through a personal token) so the picture shows the details.
  const priya = sandbox.people[0]!;
  await page.goto("/account");
  await signIn(page, person);
  const atlassian = card(page, "Atlassian");
  await atlassian.getByRole("button", { name: "Use a personal API token instead" }).click();
  const form = atlassian.getByRole("form", { name: "Link with a personal API token" });
  await form.getByLabel("Email").fill(priya.email);
  await form.getByLabel("API token").fill(priya.apiToken);
  await form.getByRole("button", { name: "Link account" }).click();
  await expect(badge(atlassian)).toHaveText("Working");
  await dismissToasts(page);

  const adminPage = await browser.newPage({ baseURL: BASE_URL });
  await adminPage.goto("/configuration");
  await signIn(adminPage, ADMIN);
  for (const size of SCREEN_SIZES) {
    for (const scheme of COLOR_SCHEMES) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: "reduce" });
      await page.goto("/account");
      await expect(badge(card(page, "Atlassian"))).toHaveText("Working");
      await page.screenshot({ path: `e2e/screenshots/account-linked-${size.name}-${scheme}.png`, fullPage: true });
      await expectNoSidewaysScroll(page, "/account scrolls sideways");

      await adminPage.setViewportSize({ width: size.width, height: size.height });
      await adminPage.emulateMedia({ colorScheme: scheme, reducedMotion: "reduce" });
      await adminPage.goto("/configuration");
      const identity = adminPage.getByRole("region", { name: "Who Bridgekeeper acts as in Jira and Confluence" });
      await expect(identity.getByLabel("OAuth client ID")).toHaveValue(sandbox.atlassianApp.clientId);
      await identity.scrollIntoViewIfNeeded();
      await identity.screenshot({ path: `e2e/screenshots/configuration-identity-${size.name}-${scheme}.png` });
      await expectNoSidewaysScroll(adminPage, "/configuration scrolls sideways");
    }
  }
  // The not-linked state, with the token form open, and the cancelled alert.
  expect((await admin.delete(`/api/users/${personId}/links/atlassian`)).status()).toBe(204);
  for (const size of SCREEN_SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.emulateMedia({ colorScheme: "light", reducedMotion: "reduce" });
    await page.goto("/account?integration=atlassian&link_error=denied");
    await expect(page.getByRole("alert").filter({ hasText: "Atlassian account not linked" })).toBeVisible();
    await card(page, "Atlassian").getByRole("button", { name: "Use a personal API token instead" }).click();
    await page.screenshot({ path: `e2e/screenshots/account-not-linked-${size.name}-light.png`, fullPage: true });
    await expectNoSidewaysScroll(page, "/account scrolls sideways");
  }
  await adminPage.close();
});
