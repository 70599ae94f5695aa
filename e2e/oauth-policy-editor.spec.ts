import { request, type Locator, type Page } from "@playwright/test";
import type { OAuthClientDto } from "../contract/oauth";
import { DEFAULT_TOOLSETS } from "../contract/policy";
import { isToolOffered, type PolicyOptionsDto } from "../contract/policy-options";
import { E2E_PORT } from "../playwright.config";
import { expect, test } from "./fixtures";
import { ADMIN, apiClient, expectNoSidewaysScroll, expectToast, unique, pointIntegrationsAtSandbox } from "./helpers";

/**
 * The policy editor checks its input (issue 25 item 5), against the real server and the sandbox:
 * pickers filled from the live integrations, a warning for a key Jira cannot confirm, an error
 * for a tool this server does not have, the live tool count, and Save in view at phone width.
 * The integrations are global to the server all specs share; the Configuration screen's tests
 * start from "Not configured", so this spec runs after them (its own project, like the chat's).
 */

const BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
const LIST_URL = "/api/admin/oauth-clients";
const OPTIONS_URL = "/api/admin/policy-options";

test.beforeAll(async () => {
  const api = await request.newContext({
    baseURL: BASE_URL,
    storageState: { cookies: [], origins: [] },
    extraHTTPHeaders: { Origin: BASE_URL },
  });
  try {
    expect((await api.post("/api/login", { data: ADMIN })).status()).toBe(200);
    // The tools answer from the sandbox.
    await pointIntegrationsAtSandbox(api);
  } finally {
    await api.dispose();
  }
});

const picker = (dialog: Locator, label: string) => dialog.getByRole("combobox", { name: label, exact: true });
const chips = (dialog: Locator, label: string) => dialog.getByRole("list", { name: `${label} picked` });

async function createClient(page: Page, baseURL: string, name: string): Promise<OAuthClientDto> {
  const created = await apiClient(page, baseURL).post(LIST_URL, {
    name,
    isActive: true,
    scopes: ["read", "write"],
    redirectUris: ["https://app.example.com/callback"],
  });
  expect(created.status()).toBe(201);
  return (await created.json()) as OAuthClientDto;
}

/** The count the dialog should show, by the server's own rule, from the options the server answers. */
function expectedCount(options: PolicyOptionsDto, policy: { readOnly: boolean; disabledTools: string[] }): string {
  const ctx = {
    services: new Set(options.services),
    scopes: ["read", "write"],
    policy: { ...policy, toolsets: [...DEFAULT_TOOLSETS] },
    destructive: options.destructiveTools,
  };
  return `This client will have ${options.tools.filter((t) => isToolOffered(t, ctx)).length} of ${options.tools.length} tools.`;
}

/**
 * The server's lists for the policy editor once every integration's are in: a busy machine may
 * answer "not available" while the sandbox is slow, and its late answer fills the server's cache.
 */
async function livePolicyOptions(page: Page): Promise<PolicyOptionsDto> {
  let options: PolicyOptionsDto | undefined;
  await expect
    .poll(async () => {
      options = (await (await page.request.get(OPTIONS_URL)).json()) as PolicyOptionsDto;
      return options.jira.available && options.confluence.available && options.bitbucket.available;
    })
    .toBe(true);
  return options!;
}

async function openPolicy(page: Page, name: string): Promise<Locator> {
  await page.goto("/oauth-clients");
  await expect(page.getByRole("heading", { level: 1, name: "OAuth Clients" })).toBeVisible();
  const card = page.getByRole("article", { name, exact: true });
  // The server's lists filled first (on a busy machine it may give up waiting for the sandbox once and
  // answer "not available"; the late answer fills its cache), so the dialog reads the integrations' lists.
  await livePolicyOptions(page);
  const options = page.waitForResponse((r) => r.url().endsWith(OPTIONS_URL) && r.status() === 200);
  await card.getByRole("button", { name: `Edit policy of ${name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Policy for ${name}` });
  await expect(dialog).toBeVisible();
  await options;
  return dialog;
}

test("pick from the live lists, warned about a key Jira cannot confirm, stopped by an unknown tool; the count follows; saved", async ({
  page,
  baseURL,
}, testInfo) => {
  const name = unique("e2e-policy-editor-");
  const client = await createClient(page, baseURL!, name);
  const options = await livePolicyOptions(page);
  expect(options.jira.projects.map((p) => p.key)).toContain("BK");

  const dialog = await openPolicy(page, name);
  const count = dialog.getByTestId("policy-tool-count");
  await expect(count).toHaveText(expectedCount(options, { readOnly: false, disabledTools: [] }));

  // A project from the list, by pointer.
  const jira = picker(dialog, "Jira projects");
  await jira.fill("bk");
  await expect(jira).toHaveAttribute("aria-expanded", "true");
  await dialog.getByRole("option", { name: "BK", exact: true }).click();
  await expect(chips(dialog, "Jira projects").getByRole("listitem")).toHaveText(["BK"]);
  await expect(jira).toHaveValue("");

  // A key Jira does not have: added (free entry), with a warning that does not block saving.
  await jira.fill("nope");
  await jira.press("Enter");
  await expect(chips(dialog, "Jira projects").getByRole("listitem")).toHaveText(["BK", "NOPE (not confirmed)"]);
  await expect(dialog.getByText("Jira cannot confirm NOPE: no such project, or not visible to the integration's account.")).toBeVisible();

  // A space by keyboard: type, arrow down to the match, Enter.
  const spaces = picker(dialog, "Confluence spaces");
  await spaces.fill("ENG");
  await spaces.press("ArrowDown");
  await expect(spaces).toHaveAttribute("aria-activedescendant", /.+/);
  await spaces.press("Enter");
  await expect(chips(dialog, "Confluence spaces").getByRole("listitem")).toHaveText(["ENG"]);
  await expect(dialog.getByText(/Confluence cannot confirm/)).toHaveCount(0);

  // A tool this server does not have is an error, and Save is refused until it is gone.
  const tools = picker(dialog, "Tools switched off");
  await tools.fill("jira_delete_everything");
  await tools.press("Enter");
  const unknownTool = dialog.getByText("jira_delete_everything is not a tool of this server");
  await expect(unknownTool).toBeVisible();
  await expect(tools).toHaveAttribute("aria-invalid", "true");
  await dialog.getByRole("button", { name: "Save Policy" }).click();
  // Refused in the browser: the field with the error takes focus, the dialog stays.
  await expect(tools).toBeFocused();
  await expect(unknownTool).toBeVisible();
  await expect(dialog).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("policy-editor-checks.png") });
  await dialog.getByRole("button", { name: "Remove jira_delete_everything" }).click();
  await expect(unknownTool).toHaveCount(0);
  await tools.fill("jira_sea");
  await dialog.getByRole("option", { name: "jira_search", exact: true }).click();
  await expect(count).toHaveText(expectedCount(options, { readOnly: false, disabledTools: ["jira_search"] }));

  // Read-only takes the writing tools away: the count says so at once.
  await dialog.getByRole("switch", { name: "Read-only" }).click();
  const readOnly = expectedCount(options, { readOnly: true, disabledTools: ["jira_search"] });
  expect(readOnly).not.toBe(expectedCount(options, { readOnly: false, disabledTools: ["jira_search"] }));
  await expect(count).toHaveText(readOnly);

  const saved = page.waitForResponse(
    (r) => r.url().endsWith(`${encodeURIComponent(client.clientId)}/policy`) && r.request().method() === "PUT",
  );
  await dialog.getByRole("button", { name: "Save Policy" }).click();
  expect((await saved).status()).toBe(200);
  await expectToast(page, "Policy saved");
  await expect(dialog).toBeHidden();
  const stored = await page.request.get(`${LIST_URL}/${encodeURIComponent(client.clientId)}/policy`);
  expect(await stored.json()).toEqual({
    readOnly: true,
    toolsets: null,
    disabledTools: ["jira_search"],
    jiraProjects: ["BK", "NOPE"],
    confluenceSpaces: ["ENG"],
    bitbucketRepositories: null,
  });

  // Reopened: the saved entries are chips again, the warning with them.
  const again = await openPolicy(page, name);
  await expect(chips(again, "Jira projects").getByRole("listitem")).toHaveText(["BK", "NOPE (not confirmed)"]);
  await expect(again.getByText("Jira cannot confirm NOPE: no such project, or not visible to the integration's account.")).toBeVisible();
  await again.getByRole("button", { name: "Cancel" }).click();
  await expect(again).toBeHidden();
  expect((await apiClient(page, baseURL!).delete(`${LIST_URL}/${encodeURIComponent(client.clientId)}`)).status()).toBe(204);
});

test("Save stays in view while the form scrolls, at desktop and at phone width", async ({ page, baseURL }, testInfo) => {
  const name = unique("e2e-policy-scroll-");
  const client = await createClient(page, baseURL!, name);
  for (const size of [
    { name: "desktop", width: 1440, height: 900 },
    { name: "phone", width: 390, height: 844 },
  ]) {
    await page.setViewportSize({ width: size.width, height: size.height });
    const dialog = await openPolicy(page, name);
    const save = dialog.getByRole("button", { name: "Save Policy" });
    await expect(save).toBeInViewport({ ratio: 1 });
    // The last field, scrolled to: Save is still in view, and the page does not scroll sideways.
    await picker(dialog, "Tools switched off").scrollIntoViewIfNeeded();
    await picker(dialog, "Tools switched off").click();
    await expect(dialog.getByRole("listbox", { name: "Tools switched off to pick from" })).toBeVisible();
    await expect(save).toBeInViewport({ ratio: 1 });
    await expect(dialog.getByTestId("policy-tool-count")).toBeInViewport();
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: testInfo.outputPath(`policy-editor-${size.name}.png`) });
    await page.keyboard.press("Escape"); // closes the list first
    await expect(dialog.getByRole("listbox", { name: "Tools switched off to pick from" })).toBeHidden();
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
  }
  expect((await apiClient(page, baseURL!).delete(`${LIST_URL}/${encodeURIComponent(client.clientId)}`)).status()).toBe(204);
});
