import { copyFileSync, mkdirSync } from "node:fs";
import { request, type Locator, type Page } from "@playwright/test";
import {
  AI_MODEL_OPTIONS,
  AI_PROVIDER_DELETE_CONFIRM,
  AI_PROVIDER_MESSAGES,
  CUSTOM_MODEL,
  type AiProvider,
  type AiProviderCreate,
} from "../contract/ai-providers";
import { TOASTS } from "../contract/messages";
import { E2E_FAKE_AI_URL } from "../playwright.config";
import { DOC_SHOTS, expect, test } from "./fixtures";
import {
  ADMIN,
  apiClient,
  COLOR_SCHEMES,
  createUserWithRoles,
  expectFullWidth,
  expectNoSidewaysScroll,
  expectToast,
  recordWrites,
  SCREEN_SIZES,
  signIn,
  unique,
} from "./helpers";

/**
 * AI Providers (spec sections 2, 4, 5 and 8; docs/decisions.md#write-only-secrets, #model-lists)
 * against the real server and the fake AI providers (smart mode, any key): an OpenAI-compatible
 * provider at the fake's /compat/v1 answers the Test action for real.
 */

const LIST_URL = "/api/ai-providers";
const COMPAT_URL = `${E2E_FAKE_AI_URL}/compat/v1`;
const T = TOASTS.aiProviders;

const card = (page: Page, name: string) => page.getByRole("article", { name, exact: true });
const addDialog = (page: Page) => page.getByRole("dialog", { name: "Add AI Provider" });
const editDialog = (page: Page) => page.getByRole("dialog", { name: "Edit AI Provider" });
const field = (dialog: Locator, label: string) => dialog.getByLabel(label, { exact: true });

async function openProviders(page: Page, user = ADMIN): Promise<void> {
  await page.goto("/ai-providers");
  await signIn(page, user, { phone: (page.viewportSize()?.width ?? 1280) < 768 });
  await expect(page.getByRole("heading", { level: 1, name: "AI Providers" })).toBeVisible();
}

/** A provider made by the admin through the API (the page's own admin session). */
async function createViaApi(page: Page, baseURL: string, body: AiProviderCreate): Promise<AiProvider> {
  const res = await apiClient(page, baseURL).post(LIST_URL, body);
  expect(res.status()).toBe(201);
  return (await res.json()) as AiProvider;
}

/** Runs `fn` with a request context of its own signed in as the admin (the test's page may be someone else). */
async function asAdmin<T>(
  baseURL: string,
  fn: (api: {
    post: (url: string, data: unknown) => ReturnType<Page["request"]["post"]>;
    delete: (url: string) => ReturnType<Page["request"]["delete"]>;
  }) => Promise<T>,
): Promise<T> {
  const context = await request.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const headers = { Origin: baseURL };
  try {
    expect((await context.post("/api/login", { data: ADMIN, headers })).status()).toBe(200);
    return await fn({ post: (url, data) => context.post(url, { data, headers }), delete: (url) => context.delete(url, { headers }) });
  } finally {
    await context.dispose();
  }
}

test("an OpenAI-compatible provider: created, tested, revealed (the hint, never the key), edited with a blank key, switched off and on, deleted", async ({
  page,
}) => {
  const name = unique("e2e-compat-");
  const key = `sk-e2e-${unique("")}-KQ7Z`;
  await openProviders(page);

  // Add: the keyboard opens the dialog; the new provider is active by default.
  await page.getByRole("button", { name: "Add Provider" }).focus();
  await page.keyboard.press("Enter");
  const add = addDialog(page);
  await expect(field(add, "Name")).toBeFocused();
  await expect(add.getByText("A friendly name for this provider configuration.")).toBeVisible();
  await expect(add.getByRole("switch", { name: "Active" })).toBeChecked();
  await expect(field(add, "Base URL")).toHaveCount(0);
  await field(add, "Name").fill(name);
  await field(add, "Provider").selectOption({ label: "OpenAI-compatible" });
  // Beyond the three hosted kinds: a base URL, and a model id typed (such a server names its own).
  await field(add, "Base URL").fill(COMPAT_URL);
  await field(add, "Model").fill("llama3.1:8b");
  await field(add, "API Key").fill(key);
  await expect(field(add, "API Key")).toHaveAttribute("type", "password");
  await add.getByRole("button", { name: "Create Provider" }).click();
  await expectToast(page, T.created);
  await expect(add).toBeHidden();
  await expect(page.getByRole("button", { name: "Add Provider" })).toBeFocused();

  const c = card(page, name);
  await expect(c.getByText("Active", { exact: true }).first()).toBeVisible();
  await expect(c.getByText("OPENAI-COMPATIBLE", { exact: true })).toBeVisible();
  await expect(c.getByText("llama3.1:8b", { exact: true })).toBeVisible();
  await expect(c.getByText(COMPAT_URL, { exact: true })).toBeVisible();
  await expect(c.locator("time")).toBeVisible();

  // Reveal shows the stored hint (the key's last four characters) and never the key.
  await expect(c.locator("[data-secret-mask]")).toBeVisible();
  await expect(c.getByText("KQ7Z")).toHaveCount(0);
  await c.getByRole("button", { name: `Show API key hint of ${name}` }).click();
  await expect(c.locator("[data-key-hint]")).toContainText("KQ7Z");
  expect(await page.content()).not.toContain(key);
  await c.getByRole("button", { name: `Hide API key hint of ${name}` }).click();
  await expect(c.locator("[data-secret-mask]")).toBeVisible();

  // Test: busy while the call is under way, then the model's answer on the card.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/ai-providers/*/test", async (route) => {
    await held;
    await route.continue();
  });
  const testButton = c.getByRole("button", { name: `Test ${name}` });
  await testButton.click();
  await expect(c.getByRole("button", { name: `Testing... ${name}` })).toBeDisabled();
  release();
  const result = c.getByRole("status", { name: `Test result of ${name}` });
  await expect(result).toContainText(/Answered in \d+(\.\d)?m?s: “.+”/);
  await page.unroute("**/api/ai-providers/*/test");

  // Edit with a blank key: the stored key is kept (the hint is unchanged, and Test still works).
  await c.getByRole("button", { name: `Edit ${name}` }).click();
  const edit = editDialog(page);
  await expect(field(edit, "Name")).toHaveValue(name);
  await expect(field(edit, "Provider")).toHaveValue("openai-compatible");
  await expect(field(edit, "Base URL")).toHaveValue(COMPAT_URL);
  await expect(field(edit, "Model")).toHaveValue("llama3.1:8b");
  await expect(field(edit, "API Key")).toHaveValue("");
  await expect(edit.getByText("Leave blank to keep the current key (•••• KQ7Z).")).toBeVisible();
  const renamed = `${name}-ed`;
  await field(edit, "Name").fill(renamed);
  await field(edit, "Model").fill("qwen2.5:7b");
  await edit.getByRole("button", { name: "Update Provider" }).click();
  await expectToast(page, T.updated);
  await expect(edit).toBeHidden();
  const c2 = card(page, renamed);
  await expect(c2.getByText("qwen2.5:7b", { exact: true })).toBeVisible();
  // The earlier result was about the provider before the edit: it is gone.
  await expect(c2.getByRole("status", { name: `Test result of ${renamed}` })).toBeEmpty();
  await expect(c2.getByRole("button", { name: `Edit ${renamed}` })).toBeFocused();
  await c2.getByRole("button", { name: `Show API key hint of ${renamed}` }).click();
  await expect(c2.locator("[data-key-hint]")).toContainText("KQ7Z");
  await c2.getByRole("button", { name: `Test ${renamed}` }).click();
  await expect(c2.getByRole("status", { name: `Test result of ${renamed}` })).toContainText("Answered in");
  await expect(c2.getByRole("button", { name: `Test ${renamed}` })).toBeFocused();

  // The status switch: off, then on again, each with the spec's toast.
  const status = c2.getByRole("switch", { name: `Active status of ${renamed}` });
  await expect(status).toBeChecked();
  await status.click();
  await expectToast(page, T.statusUpdated);
  await expect(status).not.toBeChecked();
  await expect(c2.getByText("Inactive", { exact: true }).first()).toBeVisible();
  await expect(status).not.toHaveAttribute("aria-busy");
  // By keyboard: Space switches it, and focus stays on the switch while and after it saves.
  await status.press("Space");
  await expect(status).toBeChecked();
  await expect(c2.getByText("Active", { exact: true }).first()).toBeVisible();
  await expect(status).toBeFocused();

  // Delete: the browser's confirmation, first dismissed (nothing happens), then accepted.
  const dialogs: string[] = [];
  page.once("dialog", (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
  await c2.getByRole("button", { name: `Delete ${renamed}` }).click();
  await expect.poll(() => dialogs).toEqual([`confirm: ${AI_PROVIDER_DELETE_CONFIRM}`]);
  await expect(c2).toBeVisible();
  const listed = (await (await page.request.get(LIST_URL)).json()) as AiProvider[];
  expect(listed.some((p) => p.name === renamed)).toBe(true);
  page.once("dialog", (d) => void d.accept());
  await c2.getByRole("button", { name: `Delete ${renamed}` }).click();
  await expectToast(page, T.deleted);
  await expect(c2).toHaveCount(0);
});

test("the hosted kinds: each kind's models, latest first, a custom model id, and the cards", async ({ page, baseURL }) => {
  const suffix = unique("");
  await openProviders(page);

  // OpenAI with a listed model other than the latest.
  await page.getByRole("button", { name: "Add Provider" }).click();
  let add = addDialog(page);
  await expect(field(add, "Model")).toBeDisabled();
  await field(add, "Provider").selectOption({ label: "OpenAI" });
  const models = field(add, "Model");
  await expect(models).toHaveValue("gpt-4o");
  await expect(models.locator("option")).toHaveText(["gpt-4o (Latest)", ...AI_MODEL_OPTIONS.openai.slice(1), "Custom model ID..."]);
  await field(add, "Provider").selectOption({ label: "Anthropic" });
  await expect(models.locator("option")).toHaveText([
    `${AI_MODEL_OPTIONS.anthropic[0]} (Latest)`,
    ...AI_MODEL_OPTIONS.anthropic.slice(1),
    "Custom model ID...",
  ]);
  await field(add, "Provider").selectOption({ label: "Google (Gemini)" });
  await expect(models.locator("option")).toHaveText([
    `${AI_MODEL_OPTIONS.google[0]} (Latest)`,
    ...AI_MODEL_OPTIONS.google.slice(1),
    "Custom model ID...",
  ]);
  await field(add, "Provider").selectOption({ label: "OpenAI" });
  await field(add, "Name").fill(`e2e-openai-${suffix}`);
  await models.selectOption("gpt-4-turbo");
  await field(add, "API Key").fill("sk-openai-e2e-0001");
  await add.getByRole("button", { name: "Create Provider" }).click();
  await expectToast(page, T.created);
  const openai = card(page, `e2e-openai-${suffix}`);
  await expect(openai.getByText("OPENAI", { exact: true })).toBeVisible();
  await expect(openai.getByText("gpt-4-turbo", { exact: true })).toBeVisible();

  // Anthropic with a custom model id, created inactive.
  await page.getByRole("button", { name: "Add Provider" }).click();
  add = addDialog(page);
  await field(add, "Name").fill(`e2e-anthropic-${suffix}`);
  await field(add, "Provider").selectOption({ label: "Anthropic" });
  await expect(field(add, "Model")).toHaveValue(AI_MODEL_OPTIONS.anthropic[0]!);
  await field(add, "Model").selectOption({ label: "Custom model ID..." });
  await expect(field(add, "Custom model ID")).toBeFocused();
  await field(add, "Custom model ID").fill("claude-3-5-haiku-20241022");
  await field(add, "API Key").fill("sk-ant-e2e-0002");
  await add.getByRole("switch", { name: "Active" }).click();
  await add.getByRole("button", { name: "Create Provider" }).click();
  await expectToast(page, T.created);
  const anthropic = card(page, `e2e-anthropic-${suffix}`);
  await expect(anthropic.getByText("ANTHROPIC", { exact: true })).toBeVisible();
  await expect(anthropic.getByText("claude-3-5-haiku-20241022", { exact: true })).toBeVisible();
  await expect(anthropic.getByText("Inactive", { exact: true }).first()).toBeVisible();
  await expect(anthropic.getByRole("switch", { name: /^Active status of / })).not.toBeChecked();

  // Editing it opens on the custom id; Google with its latest model.
  await anthropic.getByRole("button", { name: `Edit e2e-anthropic-${suffix}` }).click();
  const edit = editDialog(page);
  await expect(field(edit, "Model")).toHaveValue(CUSTOM_MODEL);
  await expect(field(edit, "Custom model ID")).toHaveValue("claude-3-5-haiku-20241022");
  await expect(edit.getByRole("switch", { name: "Active" })).not.toBeChecked();
  await page.keyboard.press("Escape");
  await expect(edit).toBeHidden();

  await page.getByRole("button", { name: "Add Provider" }).click();
  add = addDialog(page);
  await field(add, "Name").fill(`e2e-google-${suffix}`);
  await field(add, "Provider").selectOption({ label: "Google (Gemini)" });
  await field(add, "API Key").fill("AIza-e2e-0003");
  await add.getByRole("button", { name: "Create Provider" }).click();
  await expectToast(page, T.created);
  const google = card(page, `e2e-google-${suffix}`);
  await expect(google.getByText("GOOGLE", { exact: true })).toBeVisible();
  await expect(google.getByText("gemini-1.5-pro", { exact: true })).toBeVisible();

  const all = (await (await page.request.get(LIST_URL)).json()) as AiProvider[];
  for (const p of all.filter((p) => p.name.endsWith(suffix)))
    expect((await apiClient(page, baseURL!).delete(`${LIST_URL}/${p.id}`)).status()).toBe(204);
});

test("a provider that cannot be reached: the Test action shows the reason on the card", async ({ page, baseURL }) => {
  const created = await createViaApi(page, baseURL!, {
    name: unique("e2e-down-"),
    provider: "openai-compatible",
    model: "llama3",
    apiKey: "",
    baseUrl: "http://127.0.0.1:9/v1",
    isActive: true,
  });
  await openProviders(page);
  const c = card(page, created.name);
  await expect(c.getByText("No API key stored")).toBeVisible();
  await c.getByRole("button", { name: `Test ${created.name}` }).click();
  await expect(c.getByRole("status", { name: `Test result of ${created.name}` })).toContainText(
    "Test failed: OpenAI-compatible could not be reached",
  );
  expect((await apiClient(page, baseURL!).delete(`${LIST_URL}/${created.id}`)).status()).toBe(204);
});

test("bad input: an empty form shows all four of spec §5's messages at once, the key's and base URL's rules follow the kind, and the server refuses a forbidden base URL", async ({
  page,
}) => {
  await openProviders(page);
  await page.getByRole("button", { name: "Add Provider" }).click();
  const add = addDialog(page);
  const writes = recordWrites(page);
  await add.getByRole("button", { name: "Create Provider" }).click();
  // All four at once, each under its own field (not the key's only after the others are put right).
  const expected: [label: string, message: string][] = [
    ["Name", AI_PROVIDER_MESSAGES.name],
    ["Provider", AI_PROVIDER_MESSAGES.provider],
    ["Model", AI_PROVIDER_MESSAGES.model],
    ["API Key", AI_PROVIDER_MESSAGES.apiKey],
  ];
  for (const [label, message] of expected) {
    await expect(add.getByText(message, { exact: true })).toBeVisible();
    await expect(field(add, label)).toHaveAttribute("aria-invalid", "true");
    await expect(field(add, label)).toHaveAccessibleDescription(new RegExp(`^${message}`));
  }
  await expect(field(add, "Name")).toBeFocused();
  expect(writes, "nothing is sent").toEqual([]);

  // A hosted kind needs a key (the kind's message goes as it is chosen).
  await field(add, "Name").fill(unique("e2e-bad-"));
  await field(add, "Provider").selectOption({ label: "OpenAI" });
  await expect(add.getByText(AI_PROVIDER_MESSAGES.provider, { exact: true })).toHaveCount(0);
  await add.getByRole("button", { name: "Create Provider" }).click();
  await expect(add.getByText(AI_PROVIDER_MESSAGES.apiKey)).toBeVisible();
  await expect(add.getByText(AI_PROVIDER_MESSAGES.provider)).toHaveCount(0);
  await expect(add.getByText(AI_PROVIDER_MESSAGES.model)).toHaveCount(0);

  // An OpenAI-compatible server needs no key (its message goes with the kind), but a base URL, a
  // valid one, and a model id typed.
  await field(add, "Provider").selectOption({ label: "OpenAI-compatible" });
  await expect(add.getByText(AI_PROVIDER_MESSAGES.apiKey, { exact: true })).toHaveCount(0);
  await add.getByRole("button", { name: "Create Provider" }).click();
  await expect(add.getByText(AI_PROVIDER_MESSAGES.baseUrlRequired)).toBeVisible();
  await expect(add.getByText(AI_PROVIDER_MESSAGES.model)).toBeVisible();
  await expect(add.getByText(AI_PROVIDER_MESSAGES.apiKey)).toHaveCount(0);
  await field(add, "Base URL").fill("not a url");
  await field(add, "Model").fill("llama3");
  await add.getByRole("button", { name: "Create Provider" }).click();
  await expect(add.getByText(AI_PROVIDER_MESSAGES.baseUrl)).toBeVisible();

  // The cloud metadata address: the server's host rule, under the field, and the spec's failure toast.
  await field(add, "Base URL").fill("http://169.254.169.254/v1");
  await add.getByRole("button", { name: "Create Provider" }).click();
  await expect(
    add.getByText(/169\.254\.169\.254 resolves to 169\.254\.169\.254, a loopback, private, link-local or metadata address/),
  ).toBeVisible();
  await expect(field(add, "Base URL")).toHaveAttribute("aria-invalid", "true");
  await expect(field(add, "Base URL")).toBeFocused();
  await expectToast(page, T.createFailed);
  await expect(add).toBeVisible();
  await expect(add.getByRole("button", { name: "Create Provider" })).toBeEnabled();
});

test("a failing write shows the spec's failure toast (the status switch)", async ({ page, baseURL }) => {
  const created = await createViaApi(page, baseURL!, {
    name: unique("e2e-fail-"),
    provider: "openai",
    model: "gpt-4o",
    apiKey: "sk-fail-1234",
    isActive: true,
  });
  await openProviders(page);
  await page.route(`**${LIST_URL}/${created.id}`, (route) =>
    route.request().method() === "PATCH"
      ? route.fulfill({
          status: 503,
          contentType: "application/json",
          body: JSON.stringify({ error: { code: "unavailable", message: "The database is busy" } }),
        })
      : route.fallback(),
  );
  const status = card(page, created.name).getByRole("switch", { name: `Active status of ${created.name}` });
  await status.click();
  await expectToast(page, T.statusFailed, "The database is busy");
  await expect(status).toBeChecked();
  await page.unroute(`**${LIST_URL}/${created.id}`);
  expect((await apiClient(page, baseURL!).delete(`${LIST_URL}/${created.id}`)).status()).toBe(204);
});

test("a failing edit or delete shows the spec's failure toast with the server's reason, and changes nothing", async ({ page, baseURL }) => {
  const created = await createViaApi(page, baseURL!, {
    name: unique("e2e-refused-"),
    provider: "openai",
    model: "gpt-4o",
    apiKey: "sk-refused-1234",
    isActive: true,
  });
  const url = `**${LIST_URL}/${created.id}`;
  const refuse = (method: "PATCH" | "DELETE", message: string) =>
    page.route(url, (route) =>
      route.request().method() === method
        ? route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ error: { code: "unavailable", message } }) })
        : route.fallback(),
    );
  await openProviders(page);
  const c = card(page, created.name);

  await refuse("PATCH", "The database is busy");
  await c.getByRole("button", { name: `Edit ${created.name}` }).click();
  const edit = editDialog(page);
  await field(edit, "Name").fill(`${created.name}-ed`);
  await edit.getByRole("button", { name: "Update Provider" }).click();
  await expectToast(page, T.updateFailed, "The database is busy");
  await expect(field(edit, "Name")).toHaveValue(`${created.name}-ed`);
  await edit.getByRole("button", { name: "Cancel" }).click();
  await expect(edit).toBeHidden();
  await expect(c).toBeVisible();
  await page.unroute(url);

  await refuse("DELETE", "The provider is in use");
  page.once("dialog", (d) => void d.accept());
  await c.getByRole("button", { name: `Delete ${created.name}` }).click();
  await expectToast(page, T.deleteFailed, "The provider is in use");
  await expect(c).toBeVisible();
  await page.unroute(url);
  expect((await apiClient(page, baseURL!).delete(`${LIST_URL}/${created.id}`)).status()).toBe(204);
});

test("skeleton cards while loading, then the empty state: No AI Providers, and its button opens the dialog", async ({ page }) => {
  // Other tests add providers to the same server meanwhile: the list is answered empty here,
  // once the skeleton has been seen.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**${LIST_URL}`, async (route) => {
    if (route.request().method() !== "GET") return route.fallback();
    await held;
    return route.fulfill({ status: 200, contentType: "application/json", body: "[]" });
  });
  await openProviders(page);
  await expect(page.getByRole("status", { name: "Loading AI providers" })).toBeVisible();
  await expect(page.locator("[data-skeleton-card]")).toHaveCount(3);
  mkdirSync("e2e/screenshots", { recursive: true });
  await page.screenshot({ path: "e2e/screenshots/ai-providers-loading-desktop-light.png" });
  release();
  await expect(page.getByRole("heading", { name: "No AI Providers" })).toBeVisible();
  await page.screenshot({ path: "e2e/screenshots/ai-providers-empty-desktop-light.png" });
  await expect(page.locator("[data-skeleton-card]")).toHaveCount(0);
  const first = page.getByRole("button", { name: "Add Your First Provider" });
  await first.click();
  await expect(addDialog(page)).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(addDialog(page)).toBeHidden();
  await expect(first).toBeFocused();
});

test("a viewer sees the providers but no write action; a user without ai-providers.read is told so", async ({ page, baseURL }) => {
  const created = await createViaApi(page, baseURL!, {
    name: unique("e2e-viewed-"),
    provider: "anthropic",
    model: AI_MODEL_OPTIONS.anthropic[0]!,
    apiKey: "sk-ant-viewed-9876",
    isActive: true,
  });
  const viewer = { username: unique("viewer"), password: "viewer-secret", email: `${unique("v")}@example.com` };
  await createUserWithRoles(page, baseURL!, viewer, ["viewer"]);
  const roleName = unique("no-ai-");
  await asAdmin(baseURL!, async (api) =>
    expect(
      (await api.post("/api/roles", { name: roleName, description: null, isActive: true, permissions: ["stats.read"] })).status(),
    ).toBe(201),
  );
  const plain = { username: unique("plain"), password: "plain-secret", email: `${unique("p")}@example.com` };
  await createUserWithRoles(page, baseURL!, plain, [roleName]);

  await openProviders(page, viewer);
  const c = card(page, created.name);
  await expect(c).toBeVisible();
  await expect(page.getByRole("button", { name: "Add Provider" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^(Edit|Delete|Test) / })).toHaveCount(0);
  await expect(c.getByRole("switch", { name: `Active status of ${created.name}` })).toBeDisabled();
  await c.getByRole("button", { name: `Show API key hint of ${created.name}` }).click();
  await expect(c.locator("[data-key-hint]")).toContainText("9876");
  const refused = await apiClient(page, baseURL!).post(`${LIST_URL}/${created.id}/test`, {});
  expect(refused.status()).toBe(403);

  await openProviders(page, plain);
  await expect(page.getByText("You do not have permission to view AI providers.")).toBeVisible();
  await expect(page.getByRole("article")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Add Provider" })).toHaveCount(0);

  await asAdmin(baseURL!, async (api) => expect((await api.delete(`${LIST_URL}/${created.id}`)).status()).toBe(204));
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("nothing scrolls sideways and the dialog takes the full width", async ({ page, baseURL }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    const created = await createViaApi(page, baseURL!, {
      name: unique("e2e-phone-with-a-rather-long-name-"),
      provider: "openai-compatible",
      model: "llama3.1:8b",
      apiKey: "sk-phone-5555",
      baseUrl: `${COMPAT_URL}/and/a/long/path/segment`,
      isActive: true,
    });
    await openProviders(page);
    await expect(card(page, created.name)).toBeVisible();
    await expectNoSidewaysScroll(page);
    await page.getByRole("button", { name: "Add Provider" }).click();
    const dialog = addDialog(page);
    await field(dialog, "Provider").selectOption({ label: "OpenAI-compatible" });
    await expect(field(dialog, "Base URL")).toBeVisible();
    await expectFullWidth(page, dialog);
    await expectNoSidewaysScroll(page);
    await page.keyboard.press("Escape");
    expect((await apiClient(page, baseURL!).delete(`${LIST_URL}/${created.id}`)).status()).toBe(204);
  });
});

/** Screenshots with a few providers, light and dark, desktop and phone (UI.md "Check it yourself"). */
test("screenshots of the AI Providers screen, light and dark, desktop and phone", async ({ page, baseURL }) => {
  test.slow(); // many screens, sizes or rows: three times the configured bound
  mkdirSync("e2e/screenshots", { recursive: true });
  mkdirSync(DOC_SHOTS, { recursive: true });
  // Plain names for the README; the list below is filtered to these rows, so no other test's show.
  const samples = [
    await createViaApi(page, baseURL!, {
      name: "Local Llama",
      provider: "openai-compatible",
      model: "llama3.1:8b",
      apiKey: "",
      baseUrl: COMPAT_URL,
      isActive: true,
    }),
    await createViaApi(page, baseURL!, {
      name: "Claude for support",
      provider: "anthropic",
      model: AI_MODEL_OPTIONS.anthropic[0]!,
      apiKey: "sk-ant-sample-key-7Qx2",
      isActive: false,
    }),
    await createViaApi(page, baseURL!, {
      name: "Production OpenAI",
      provider: "openai",
      model: "gpt-4o",
      apiKey: "sk-proj-sample-key-a9F3",
      isActive: true,
    }),
  ];
  const ids = new Set(samples.map((s) => s.id));
  // Only these three, whatever other tests add meanwhile: the real list, filtered.
  await page.route(`**${LIST_URL}`, async (route) => {
    if (route.request().method() !== "GET") return route.fallback();
    const response = await route.fetch();
    const list = ((await response.json()) as AiProvider[]).filter((p) => ids.has(p.id));
    return route.fulfill({ response, json: list });
  });
  const [local, , openai] = samples as [AiProvider, AiProvider, AiProvider];

  for (const size of SCREEN_SIZES) {
    for (const scheme of COLOR_SCHEMES) {
      const path = (what: string) => `e2e/screenshots/ai-providers${what}-${size.name}-${scheme}.png`;
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: "reduce" });
      await page.goto("/ai-providers");
      for (const s of samples) await expect(card(page, s.name)).toBeVisible();
      await card(page, local.name)
        .getByRole("button", { name: `Test ${local.name}` })
        .click();
      await expect(card(page, local.name).getByRole("status")).toContainText("Answered in");
      await card(page, openai.name)
        .getByRole("button", { name: `Show API key hint of ${openai.name}` })
        .click();
      await expect(card(page, openai.name).locator("[data-key-hint]")).toBeVisible();
      await page.screenshot({ path: path(""), fullPage: true });
      await expectNoSidewaysScroll(page, "/ai-providers scrolls sideways");

      await page.getByRole("button", { name: "Add Provider" }).click();
      const add = addDialog(page);
      await field(add, "Provider").selectOption({ label: "OpenAI-compatible" });
      await add.getByRole("button", { name: "Create Provider" }).click();
      await expect(add.getByText(AI_PROVIDER_MESSAGES.name)).toBeVisible();
      await page.screenshot({ path: path("-add-dialog") });
      await page.keyboard.press("Escape");
      await expect(add).toBeHidden();

      await card(page, openai.name)
        .getByRole("button", { name: `Edit ${openai.name}` })
        .click();
      await expect(editDialog(page)).toBeVisible();
      await page.screenshot({ path: path("-edit-dialog") });
      await page.keyboard.press("Escape");
      await expect(editDialog(page)).toBeHidden();
    }
  }
  for (const shot of ["desktop-light", "desktop-dark", "phone-light"])
    copyFileSync(`e2e/screenshots/ai-providers-${shot}.png`, `${DOC_SHOTS}/ai-providers-${shot}.png`);
  await page.unroute(`**${LIST_URL}`);
  const api = apiClient(page, baseURL!);
  for (const s of samples) expect((await api.delete(`${LIST_URL}/${s.id}`)).status()).toBe(204);
});
