import { mkdirSync } from "node:fs";
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { SECRET_MASK, type OAuthClientDto } from "../contract/oauth";
import {
  ADMIN,
  apiClient,
  COLOR_SCHEMES,
  createUserWithRoles,
  expectNoSidewaysScroll,
  expectToast,
  SCREEN_SIZES,
  signIn,
  unique,
} from "./helpers";

/**
 * OAuth Clients (spec sections 2, 4, 5, 7, 8 and 9; docs/decisions.md#oauth-client-secrets,
 * #oauth-authorization-server) against the real server. Tests run in parallel against one server:
 * every client has a unique name, and no test assumes the list is empty (the empty state is checked
 * with the list answered by the test itself).
 */

const LIST_URL = "/api/admin/oauth-clients";

const card = (page: Page, name: string) => page.getByRole("article", { name, exact: true });
const mask = (scope: Locator) => scope.getByText(SECRET_MASK, { exact: true });
const createDialog = (page: Page) => page.getByRole("dialog", { name: "Create Client" });
const clipboardText = (page: Page) => page.evaluate<string>("navigator.clipboard.readText()");
const isPhone = (page: Page) => (page.viewportSize()?.width ?? 1280) < 768;

async function openClients(page: Page, user = ADMIN): Promise<void> {
  await page.goto("/oauth-clients");
  await signIn(page, user, { phone: isPhone(page) });
  await expect(page.getByRole("heading", { level: 1, name: "OAuth Clients" })).toBeVisible();
  await expect(page.getByText("Manage OAuth 2.0 clients for MCP server access")).toBeVisible();
}

/** The client as the server lists it to the signed-in user of this page. */
async function fetchClient(page: Page, name: string): Promise<OAuthClientDto> {
  const response = await page.request.get(LIST_URL);
  expect(response.status()).toBe(200);
  const client = ((await response.json()) as OAuthClientDto[]).find((c) => c.name === name);
  if (!client) throw new Error(`no OAuth client named ${name}`);
  return client;
}

/** Creates a client through the API as the admin (the page's cookies: signs the page in as admin). */
async function createClientViaApi(page: Page, baseURL: string, body: Record<string, unknown>): Promise<OAuthClientDto> {
  const api = apiClient(page, baseURL);
  expect((await api.login(ADMIN)).status()).toBe(200);
  const created = await api.post(LIST_URL, {
    isActive: true,
    scopes: ["read", "write"],
    redirectUris: ["https://app.example.com/callback"],
    ...body,
  });
  expect(created.status()).toBe(201);
  return (await created.json()) as OAuthClientDto;
}

/** Types entries into a policy picker and adds them with Enter (free entry: the list need not have them). */
async function addEntries(dialog: Locator, label: string, text: string): Promise<void> {
  const picker = dialog.getByRole("combobox", { name: label, exact: true });
  await picker.fill(text);
  await picker.press("Enter");
  await expect(picker).toHaveValue("");
}

async function menuAction(page: Page, name: string, item: string): Promise<void> {
  await page.getByRole("button", { name: `More actions for ${name}` }).click();
  await page.getByRole("menuitem", { name: item }).click();
  await expect(page.getByRole("menu")).toBeHidden();
}

test("create (with validation), reveal and copy the secret, copy the ID, deactivate, activate, regenerate and delete", async ({
  page,
  context,
  baseURL,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL! });
  const name = unique("e2e-client-");
  await openClients(page);

  // An empty submit shows the spec's three messages under the fields (section 5).
  await page.getByRole("button", { name: "Create Client" }).first().click();
  const dialog = createDialog(page);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("Scopes")).toHaveValue("read write");
  await expect(dialog.getByRole("switch", { name: "Active" })).toBeChecked();
  await expect(dialog.getByRole("radio", { name: "Confidential" })).toBeChecked();
  await dialog.getByLabel("Scopes").fill("   ");
  await dialog.getByRole("button", { name: "Create Client" }).click();
  await expect(dialog.getByText("Name is required")).toBeVisible();
  await expect(dialog.getByText("At least one redirect URI is required")).toBeVisible();
  await expect(dialog.getByText("At least one scope is required")).toBeVisible();
  await expect(dialog.getByLabel("Name")).toBeFocused();

  // A plain-http redirect URI other than localhost is refused with the contract's sentence.
  await dialog.getByLabel("Redirect URIs").fill("http://example.com/cb");
  await dialog.getByRole("button", { name: "Create Client" }).click();
  await expect(dialog.getByText('"http://example.com/cb" must use https (http only for localhost)')).toBeVisible();

  // Cancel, reopen: the form starts afresh with the default scopes.
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole("button", { name: "Create Client" }).first().click();
  await expect(dialog.getByLabel("Name")).toHaveValue("");
  await expect(dialog.getByLabel("Scopes")).toHaveValue("read write");
  await expect(dialog.getByText("Name is required")).toHaveCount(0);

  // URIs one per line: trimmed, blank lines dropped (section 5).
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByLabel("Redirect URIs").fill("  https://app.example.com/oauth/callback   \n\n   \n\thttp://localhost:3000/callback\n");
  await dialog.getByRole("button", { name: "Create Client" }).click();
  await expectToast(page, "Client created", "OAuth client has been created successfully.");
  await expect(dialog).toBeHidden();
  // Then how to connect it: Done closes it.
  const howTo = page.getByRole("dialog", { name: "How to connect" });
  await expect(howTo.getByRole("button", { name: "Copy the MCP server URL" })).toBeVisible();
  await howTo.getByRole("button", { name: "Done" }).click();
  await expect(howTo).toBeHidden();

  const client = card(page, name);
  await expect(client).toBeVisible();
  await expect(client.getByText("Active", { exact: true })).toBeVisible();
  await expect(client.getByText("Confidential", { exact: true })).toBeVisible();
  await expect(client.getByText("0 active grants")).toBeVisible();
  await expect(client.getByRole("list", { name: `Redirect URIs of ${name}` }).getByRole("listitem")).toHaveText([
    "https://app.example.com/oauth/callback",
    "http://localhost:3000/callback",
  ]);
  await expect(client.getByRole("list", { name: `Scopes of ${name}` }).getByRole("listitem")).toHaveText(["read", "write"]);

  const stored = await fetchClient(page, name);
  expect(stored.redirectUris).toEqual(["https://app.example.com/oauth/callback", "http://localhost:3000/callback"]);
  expect(stored.scopes).toEqual(["read", "write"]);
  expect(stored.isActive).toBe(true);
  expect(stored.clientSecret).toBeTruthy();
  const secret = stored.clientSecret!;
  await expect(client.locator("time")).toHaveAttribute("datetime", stored.createdAt);

  // The client ID is shown in full in the DOM (shortened in the middle only visually).
  await expect(client.getByTitle(stored.clientId, { exact: true })).toHaveText(stored.clientId);

  // The secret: 32 bullets, revealed per client, copied either way (sections 4, 8, 9).
  expect(SECRET_MASK).toHaveLength(32);
  await expect(mask(client)).toBeVisible();
  await expect(client.getByTitle(secret, { exact: true })).toHaveCount(0);
  await client.getByRole("button", { name: `Show Client Secret of ${name}` }).click();
  await expect(client.getByTitle(secret, { exact: true })).toHaveText(secret);
  await expect(mask(client)).toHaveCount(0);
  await client.getByRole("button", { name: `Copy Client Secret of ${name}` }).click();
  await expectToast(page, "Copied", "Client Secret copied to clipboard.");
  await expect.poll(() => clipboardText(page)).toBe(secret);
  await client.getByRole("button", { name: `Hide Client Secret of ${name}` }).click();
  await expect(mask(client)).toBeVisible();

  await client.getByRole("button", { name: `Copy Client ID of ${name}` }).click();
  await expectToast(page, "Client ID copied to clipboard.");
  await expect.poll(() => clipboardText(page)).toBe(stored.clientId);

  // Deactivate (confirmed), then activate again (beyond the spec).
  await menuAction(page, name, "Deactivate");
  const deactivate = page.getByRole("alertdialog", { name: "Deactivate OAuth Client" });
  await expect(deactivate).toContainText(`${name} will get no new tokens`);
  await deactivate.getByRole("button", { name: "Deactivate", exact: true }).click();
  await expectToast(page, "Client deactivated");
  await expect(deactivate).toBeHidden();
  await expect(client.getByText("Inactive", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: `More actions for ${name}` })).toBeFocused();
  expect((await fetchClient(page, name)).isActive).toBe(false);
  await menuAction(page, name, "Activate");
  await expectToast(page, "Client activated");
  await expect(client.getByText("Active", { exact: true })).toBeVisible();
  expect((await fetchClient(page, name)).isActive).toBe(true);

  // Regenerate (confirmed): the new secret is shown at once, the old one is gone.
  await menuAction(page, name, "Regenerate secret");
  const regenerate = page.getByRole("alertdialog", { name: "Regenerate Client Secret" });
  await expect(regenerate).toContainText("The current secret and every token issued with it are revoked at once");
  await regenerate.getByRole("button", { name: "Regenerate", exact: true }).click();
  await expectToast(page, "Secret regenerated");
  await expect(regenerate).toBeHidden();
  const renewed = (await fetchClient(page, name)).clientSecret!;
  expect(renewed).toBeTruthy();
  expect(renewed).not.toBe(secret);
  await expect(client.getByTitle(renewed, { exact: true })).toHaveText(renewed);
  await expect(client.getByRole("button", { name: `Hide Client Secret of ${name}` })).toBeVisible();

  // Delete through the confirmation dialog (section 8's toast); the card is gone after the refetch.
  await client.getByRole("button", { name: `Delete client ${name}` }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete OAuth Client" });
  await expect(confirm).toContainText(`Are you sure you want to delete ${name}?`);
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  await expect(client.getByRole("button", { name: `Delete client ${name}` })).toBeFocused();
  await client.getByRole("button", { name: `Delete client ${name}` }).click();
  await confirm.getByRole("button", { name: "Delete", exact: true }).click();
  await expectToast(page, "Client deleted", "OAuth client has been deleted successfully.");
  await expect(confirm).toBeHidden();
  await expect(card(page, name)).toHaveCount(0);
  const after = (await (await page.request.get(LIST_URL)).json()) as OAuthClientDto[];
  expect(after.some((c) => c.name === name)).toBe(false);
});

test("a public client has no secret and needs PKCE; an inactive one is created inactive", async ({ page, baseURL }) => {
  const name = unique("e2e-public-");
  await openClients(page);
  await page.getByRole("button", { name: "Create Client" }).first().click();
  const dialog = createDialog(page);
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByLabel("Redirect URIs").fill("com.example.app:/oauth2redirect");
  await dialog.getByLabel("Scopes").fill("read");
  await dialog.getByRole("radio", { name: "Public" }).check();
  await dialog.getByRole("switch", { name: "Active" }).click();
  await expect(dialog.getByRole("switch", { name: "Active" })).not.toBeChecked();
  // Hold the create back until the pending state is seen: the button reads "Creating..." and the form is disabled.
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**${LIST_URL}`, async (route) => {
    if (route.request().method() === "POST") await gate;
    await route.fallback();
  });
  await dialog.getByRole("button", { name: "Create Client" }).click();
  await expect(dialog.getByRole("button", { name: "Creating..." })).toBeDisabled();
  await expect(dialog.getByLabel("Name")).toBeDisabled();
  release();
  await expectToast(page, "Client created");
  await expect(dialog).toBeHidden();
  await page.getByRole("dialog", { name: "How to connect" }).getByRole("button", { name: "Done" }).click();

  const client = card(page, name);
  await expect(client.getByText("Public client: no secret, PKCE required")).toBeVisible();
  await expect(client.getByText("Inactive", { exact: true })).toBeVisible();
  await expect(client.getByText("Public", { exact: true })).toBeVisible();
  await expect(mask(client)).toHaveCount(0);
  await expect(client.getByRole("button", { name: /Client Secret of/ })).toHaveCount(0);
  await expect(client.getByRole("list", { name: `Scopes of ${name}` }).getByRole("listitem")).toHaveText(["read"]);
  await page.getByRole("button", { name: `More actions for ${name}` }).click();
  await expect(page.getByRole("menuitem", { name: "Activate" })).toBeVisible();
  await expect(page.getByRole("menuitem", { name: "Regenerate secret" })).toHaveCount(0);
  await page.keyboard.press("Escape");

  const stored = await fetchClient(page, name);
  expect(stored.clientType).toBe("public");
  expect(stored.clientSecret).toBeNull();
  expect(stored.isActive).toBe(false);
  expect((await apiClient(page, baseURL!).delete(`${LIST_URL}/${encodeURIComponent(stored.clientId)}`)).status()).toBe(204);
});

test("the server's field errors show under the fields, with an Error toast", async ({ page }) => {
  await openClients(page);
  // The form already refuses what the server would; answer this one create with a 400 instead.
  await page.route(`**${LIST_URL}`, (route) =>
    route.request().method() === "POST"
      ? route.fulfill({
          status: 400,
          contentType: "application/json",
          body: JSON.stringify({
            error: {
              code: "validation_failed",
              message: "Some fields are not valid",
              fields: { name: "A client with this name already exists" },
            },
          }),
        })
      : route.fallback(),
  );
  await page.getByRole("button", { name: "Create Client" }).first().click();
  const dialog = createDialog(page);
  await dialog.getByLabel("Name").fill(unique("dup-"));
  await dialog.getByLabel("Redirect URIs").fill("https://app.example.com/cb");
  await dialog.getByRole("button", { name: "Create Client" }).click();
  await expect(dialog.getByText("A client with this name already exists")).toBeVisible();
  await expectToast(page, "Error", "Some fields are not valid");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("Name")).toBeEnabled();
  await expect(dialog.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
});

test("three skeleton cards while loading, then the empty state with its Create Client button", async ({ page }) => {
  await page.goto("/oauth-clients");
  await signIn(page);
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**${LIST_URL}`, async (route) => {
    if (route.request().method() !== "GET") return route.fallback();
    await held;
    return route.fulfill({ status: 200, contentType: "application/json", body: "[]" });
  });
  await page.reload();
  await expect(page.getByRole("status", { name: "Loading OAuth clients" })).toBeVisible();
  await expect(page.locator("[data-skeleton-card]")).toHaveCount(3);
  mkdirSync("e2e/screenshots", { recursive: true });
  await page.screenshot({ path: "e2e/screenshots/oauth-clients-loading-desktop-light.png" });
  release();
  await expect(page.getByRole("heading", { name: "No OAuth clients" })).toBeVisible();
  await page.screenshot({ path: "e2e/screenshots/oauth-clients-empty-desktop-light.png" });
  await expect(page.getByText("Create your first OAuth client to enable MCP server access.")).toBeVisible();
  await expect(page.locator("[data-skeleton-card]")).toHaveCount(0);
  const buttons = page.getByRole("button", { name: "Create Client" });
  await expect(buttons).toHaveCount(2);
  await buttons.last().click();
  await expect(createDialog(page)).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(createDialog(page)).toBeHidden();
  await expect(buttons.last()).toBeFocused();
});

test("Refresh refetches the list: a client created elsewhere appears", async ({ page, baseURL }) => {
  await openClients(page);
  const name = unique("e2e-refresh-");
  await expect(page.getByRole("button", { name: "Refresh" })).toBeEnabled();
  const created = await createClientViaApi(page, baseURL!, { name });
  await expect(card(page, name)).toHaveCount(0);
  await page.getByRole("button", { name: "Refresh" }).click();
  await expect(card(page, name)).toBeVisible();
  expect((await apiClient(page, baseURL!).delete(`${LIST_URL}/${encodeURIComponent(created.clientId)}`)).status()).toBe(204);
});

test("a viewer sees clients without secrets and no write action, and the server refuses one", async ({ page, baseURL }) => {
  const name = unique("e2e-viewed-");
  const created = await createClientViaApi(page, baseURL!, { name });
  expect(created.clientSecret).toBeTruthy();
  const viewer = { username: unique("viewer"), password: "viewer-secret", email: `${unique("v")}@example.com` };
  await createUserWithRoles(page, baseURL!, viewer, ["viewer"]);

  await openClients(page, viewer);
  const client = card(page, name);
  await expect(client).toBeVisible();
  await expect(client.getByText("Hidden: requires permission to manage clients")).toBeVisible();
  await expect(mask(client)).toHaveCount(0);
  await expect(client.getByRole("button", { name: `Copy Client ID of ${name}` })).toBeVisible();
  await expect(client.getByRole("button", { name: /Client Secret of/ })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Create Client" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Delete client / })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^More actions for / })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Edit policy of / })).toHaveCount(0);
  await expect(client.getByText("Default toolsets, as its scopes allow")).toBeVisible();
  await expect(page.getByText(created.clientSecret!)).toHaveCount(0);

  const listed = await fetchClient(page, name);
  expect(listed.clientSecret).toBeNull();
  const api = apiClient(page, baseURL!);
  const refused = await api.post(LIST_URL, {
    name: unique("nope-"),
    redirectUris: ["https://app.example.com/cb"],
    scopes: ["read"],
    isActive: true,
  });
  expect(refused.status()).toBe(403);
  expect((await api.delete(`${LIST_URL}/${encodeURIComponent(created.clientId)}`)).status()).toBe(403);

  expect((await api.login(ADMIN)).status()).toBe(200);
  expect((await api.delete(`${LIST_URL}/${encodeURIComponent(created.clientId)}`)).status()).toBe(204);
});

test("the Policy section: read-only, toolsets and allow-lists, checked per field, saved and shown on the card", async ({
  page,
  baseURL,
}) => {
  await openClients(page);
  const name = unique("e2e-policy-");
  const created = await createClientViaApi(page, baseURL!, { name });
  await page.getByRole("button", { name: "Refresh" }).click();
  const client = card(page, name);
  await expect(client.getByText("Default toolsets, as its scopes allow")).toBeVisible();

  const edit = client.getByRole("button", { name: `Edit policy of ${name}` });
  await edit.click();
  const dialog = page.getByRole("dialog", { name: `Policy for ${name}` });
  await expect(dialog.getByRole("checkbox")).toHaveCount(17);
  await expect(dialog.getByRole("checkbox", { name: /Jira work logs/ })).not.toBeChecked();
  await expect(dialog.getByRole("checkbox", { name: /Jira issues/ })).toBeChecked();
  await dialog.getByRole("switch", { name: "Read-only" }).click();
  await dialog.getByRole("checkbox", { name: /Bitbucket pull requests/ }).click();
  await dialog.getByRole("checkbox", { name: /Jira work logs/ }).click();
  // Typed entries (the integrations may or may not be configured here: e2e/oauth-policy-editor.spec.ts picks from their lists).
  await addEntries(dialog, "Jira projects", "bk, ops");
  await addEntries(dialog, "Confluence spaces", "ENG, bad space!");
  await dialog.getByRole("button", { name: "Save Policy" }).click();
  await expect(dialog.getByText("each Confluence space key must look like ENG")).toBeVisible();
  await expect(dialog.getByLabel("Confluence spaces", { exact: true })).toHaveAttribute("aria-invalid", "true");

  await dialog.getByRole("button", { name: "Remove bad", exact: true }).click();
  await dialog.getByRole("button", { name: "Remove space!", exact: true }).click();
  await expect(dialog.getByText("each Confluence space key must look like ENG")).toHaveCount(0);
  mkdirSync("e2e/screenshots", { recursive: true });
  await page.screenshot({ path: "e2e/screenshots/oauth-client-policy-dialog.png" });
  await dialog.getByRole("button", { name: "Save Policy" }).click();
  await expectToast(page, "Policy saved");
  await expect(dialog).toBeHidden();
  await expect(edit).toBeFocused();
  const policy = client.getByRole("list", { name: `Policy of ${name}` });
  await expect(policy.getByText("Read-only", { exact: true })).toBeVisible();
  await expect(policy.getByText("Toolsets: jira-issues, jira-worklogs, jira-projects, confluence-pages, bitbucket-code")).toBeVisible();
  await expect(policy.getByText("Jira projects: BK, OPS")).toBeVisible();
  await expect(policy.getByText("Confluence spaces: ENG")).toBeVisible();
  await client.screenshot({ path: "e2e/screenshots/oauth-client-policy-card.png" });

  const stored = await page.request.get(`${LIST_URL}/${encodeURIComponent(created.clientId)}/policy`);
  expect(await stored.json()).toEqual({
    readOnly: true,
    toolsets: ["jira-issues", "jira-worklogs", "jira-projects", "confluence-pages", "bitbucket-code"],
    disabledTools: [],
    jiraProjects: ["BK", "OPS"],
    confluenceSpaces: ["ENG"],
    bitbucketRepositories: null,
  });

  // Back to unrestricted: the default toolsets, the lists blank.
  await edit.click();
  await dialog.getByRole("switch", { name: "Read-only" }).click();
  await dialog.getByRole("checkbox", { name: /Bitbucket pull requests/ }).click();
  await dialog.getByRole("checkbox", { name: /Jira work logs/ }).click();
  for (const key of ["BK", "OPS", "ENG"]) await dialog.getByRole("button", { name: `Remove ${key}`, exact: true }).click();
  await dialog.getByRole("button", { name: "Save Policy" }).click();
  await expect(dialog).toBeHidden();
  await expect(client.getByText("Default toolsets, as its scopes allow")).toBeVisible();
  expect((await apiClient(page, baseURL!).delete(`${LIST_URL}/${encodeURIComponent(created.clientId)}`)).status()).toBe(204);
});

test("keyboard: the create dialog opens with Enter, the client type moves with the arrow keys, focus returns", async ({ page }) => {
  await openClients(page);
  await page.getByRole("button", { name: "Create Client" }).first().focus();
  await page.keyboard.press("Enter");
  const dialog = createDialog(page);
  await expect(dialog.getByLabel("Name")).toBeFocused();
  await dialog.getByRole("radio", { name: "Confidential" }).focus();
  // Held down as a person would: Radix moves focus a tick after keydown and checks the radio
  // only while an arrow key is pressed.
  await page.keyboard.down("ArrowDown");
  await expect(dialog.getByRole("radio", { name: "Public" })).toBeFocused();
  await page.keyboard.up("ArrowDown");
  await expect(dialog.getByRole("radio", { name: "Public" })).toBeChecked();
  await expect(dialog.getByRole("radio", { name: "Confidential" })).not.toBeChecked();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("button", { name: "Create Client" }).first()).toBeFocused();
});

/** Screenshots with real clients, light and dark, desktop and phone (UI.md "Check it yourself"). */
test("screenshots of the OAuth Clients screen, light and dark, desktop and phone", async ({ page, baseURL }) => {
  test.slow(); // many screens, sizes or rows: three times the configured bound
  mkdirSync("e2e/screenshots", { recursive: true });
  const suffix = unique("");
  const confidential = await createClientViaApi(page, baseURL!, {
    name: `Claude Desktop ${suffix}`,
    redirectUris: ["https://claude.ai/api/mcp/auth_callback", "http://localhost:6274/oauth/callback"],
  });
  const publicClient = await createClientViaApi(page, baseURL!, {
    name: `VS Code ${suffix}`,
    clientType: "public",
    scopes: ["read"],
    redirectUris: ["http://127.0.0.1:33418/callback"],
  });
  await page.goto("/oauth-clients");
  for (const size of SCREEN_SIZES) {
    for (const scheme of COLOR_SCHEMES) {
      const shot = (what: string, fullPage = false) =>
        page.screenshot({ path: `e2e/screenshots/oauth-clients-${what}-${size.name}-${scheme}.png`, fullPage });
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: "reduce" });
      await page.goto("/oauth-clients");
      const first = card(page, confidential.name);
      await expect(first).toBeVisible();
      await expect(card(page, publicClient.name)).toBeVisible();
      await expect(mask(first)).toBeVisible();
      await shot("list", true);
      await expectNoSidewaysScroll(page, "/oauth-clients scrolls sideways");

      await page.getByRole("button", { name: "Create Client" }).first().click();
      await createDialog(page).getByRole("button", { name: "Create Client" }).click();
      await expect(createDialog(page).getByText("Name is required")).toBeVisible();
      await shot("create-dialog");
      await page.keyboard.press("Escape");

      await first.getByRole("button", { name: `Delete client ${confidential.name}` }).click();
      await expect(page.getByRole("alertdialog")).toBeVisible();
      await shot("delete-dialog");
      await page.getByRole("button", { name: "Cancel" }).click();

      await page.getByRole("button", { name: `More actions for ${confidential.name}` }).click();
      await expect(page.getByRole("menu")).toBeVisible();
      await shot("menu");
      await page.keyboard.press("Escape");
    }
  }
  const api = apiClient(page, baseURL!);
  for (const c of [confidential, publicClient]) {
    expect((await api.delete(`${LIST_URL}/${encodeURIComponent(c.clientId)}`)).status()).toBe(204);
  }
});
