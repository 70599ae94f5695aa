import { expect, request, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import type { AtlassianConfigDto, BitbucketConfigDto } from "../contract/integrations";
import { E2E_ADMIN_PASSWORD, E2E_SANDBOX_URL } from "../playwright.config";

export const ADMIN = { username: "admin", password: E2E_ADMIN_PASSWORD };

/**
 * Signs in on the login page; on a phone the Logout button is inside the closed drawer, so wait
 * for its toggle. A page that starts signed in as the admin (e2e/fixtures.ts) stays so for the
 * admin; for anyone else its cookies are dropped first and the login form is used.
 */
export async function signIn(page: Page, user = ADMIN, { phone = false } = {}): Promise<void> {
  const signedIn = page.getByRole("button", { name: phone ? "Open navigation" : "Logout" });
  const form = page.getByLabel("Username");
  await expect(form.or(signedIn).first()).toBeVisible();
  if (await signedIn.isVisible()) {
    if (user.username === ADMIN.username) return;
    await page.context().clearCookies();
    await page.reload();
  }
  await page.getByLabel("Username").fill(user.username);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByRole("button", { name: phone ? "Open navigation" : "Logout" })).toBeVisible();
}

/** How far the page scrolls sideways (0 when it does not). */
const horizontalOverflow = (page: Page): Promise<number> =>
  page.evaluate<number>("document.documentElement.scrollWidth - document.documentElement.clientWidth");

/**
 * Waits until the page does not scroll sideways: measured until it holds, never once (a dialog
 * still opening, a toast sliding in or a table still laying out can widen the page for a frame).
 */
export const expectNoSidewaysScroll = (page: Page, message = "the page scrolls sideways"): Promise<void> =>
  expect.poll(() => horizontalOverflow(page), { message }).toBeLessThanOrEqual(0);

/**
 * Waits until the dialog takes the viewport's full width (less a pixel of rounding): measured
 * until it holds, not once, as it opens from 97 % (even with reduced motion, for a frame or two on
 * a busy machine).
 */
export async function expectFullWidth(page: Page, dialog: Locator): Promise<void> {
  const viewport = page.viewportSize();
  if (!viewport) throw new Error("expectFullWidth needs a page with a fixed viewport size");
  await expect
    .poll(async () => (await dialog.boundingBox())?.width ?? 0, { message: "the dialog takes the full width" })
    .toBeGreaterThanOrEqual(viewport.width - 1);
}

/** Records, from now on, every request the page sends that is not a GET ("METHOD url"): for "nothing is sent". */
export function recordWrites(page: Page): string[] {
  const writes: string[] = [];
  page.on("request", (request) => {
    if (request.method() !== "GET") writes.push(`${request.method()} ${request.url()}`);
  });
  return writes;
}

// Toasts are found by CSS, not by role: while a modal dialog is open, Radix hides the rest of the
// page (the toast region included) from the accessibility tree, and Radix Toast announces through
// a live region of its own.
const toastRegion = (page: Page): Locator => page.locator("[aria-label^='Notifications']");

/** Every toast on screen, one list item each (for "no toast": `expect(toasts(page)).toHaveCount(0)`). */
export const toasts = (page: Page): Locator => toastRegion(page).locator("ol > li");

/** A line of a toast (its title or its description), by its exact text. */
export const toast = (page: Page, text: string): Locator => toastRegion(page).getByText(text, { exact: true });

/**
 * Waits until one toast shows every line given (its title, its description, the server's reason:
 * each by its exact text, all in the same toast) and answers that toast.
 */
export async function expectToast(page: Page, first: string, ...more: string[]): Promise<Locator> {
  const shown = toasts(page).filter({ has: page.getByText(first, { exact: true }) });
  await expect(shown).toBeVisible();
  for (const line of more) await expect(shown.getByText(line, { exact: true })).toBeVisible();
  return shown;
}

/**
 * Closes whatever toasts show, as a user would, until none is left. A toast also closes by itself
 * (after 5 s, paused while hovered), so a click may find it gone: each round looks again.
 */
export async function dismissToasts(page: Page): Promise<void> {
  await expect(async () => {
    const close = toasts(page).getByRole("button", { name: "Close notification" });
    if ((await close.count()) > 0) await close.first().click({ timeout: 2_000 });
    await expect(toasts(page)).toHaveCount(0, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
}

/** A name no other test (or run) uses: tests share one server and run in parallel. */
export const unique = (prefix: string): string => `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** Headers a browser sends with a same-origin write (the server's CSRF check reads Origin). */
const sameOrigin = (baseURL: string) => ({ Origin: baseURL });

/**
 * Writes through the JSON API with the page's cookies (page.request), as a browser would:
 * `const api = apiClient(page, baseURL); await api.login(ADMIN); await api.post("/api/users", body)`.
 */
export function apiClient(page: Page, baseURL: string) {
  const headers = sameOrigin(baseURL);
  return {
    login: (user: { username: string; password: string }) => page.request.post("/api/login", { data: user, headers }),
    logout: () => page.request.post("/api/logout", { headers }),
    get: (url: string) => page.request.get(url),
    post: (url: string, data: unknown) => page.request.post(url, { data, headers }),
    put: (url: string, data: unknown) => page.request.put(url, { data, headers }),
    delete: (url: string) => page.request.delete(url, { headers }),
  };
}

/**
 * A request context with its own, empty cookie jar. Inside a test, `request.newContext()` starts
 * from the test's storage state: the worker's admin session, which a sign-in there would replace
 * and end (the server drops the session a login request carries).
 */
const freshRequestContext = (baseURL: string) => request.newContext({ baseURL, storageState: { cookies: [], origins: [] } });

/** Creates an active user with the given built-in or custom role names, as the admin, through the API. */
export async function createUserWithRoles(
  page: Page,
  baseURL: string,
  user: { username: string; password: string; email: string; firstName?: string; lastName?: string },
  roleNames: string[],
): Promise<string> {
  const context = await freshRequestContext(baseURL);
  const headers = sameOrigin(baseURL);
  const api = {
    login: (u: typeof ADMIN) => context.post("/api/login", { data: u, headers }),
    get: (url: string) => context.get(url),
    post: (url: string, data: unknown) => context.post(url, { data, headers }),
    put: (url: string, data: unknown) => context.put(url, { data, headers }),
  };
  expect((await api.login(ADMIN)).status()).toBe(200);
  const created = await api.post("/api/users", { isActive: true, firstName: null, lastName: null, ...user });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const roles = (await (await api.get("/api/roles")).json()) as { id: string; name: string }[];
  const roleIds = roleNames.map((name) => {
    const role = roles.find((r) => r.name === name);
    if (!role) throw new Error(`no role named ${name}`);
    return role.id;
  });
  expect((await api.put(`/api/users/${id}/roles`, { roleIds })).status()).toBe(200);
  await context.dispose();
  return id;
}

/**
 * A confidential OAuth client made by the admin (its own request context) and a client_credentials
 * access token of it: what an MCP client holds. `scope` "read" by default.
 */
export async function mcpToken(baseURL: string, scope = "read"): Promise<{ clientId: string; token: string }> {
  const context = await freshRequestContext(baseURL);
  try {
    const headers = sameOrigin(baseURL);
    expect((await context.post("/api/login", { data: ADMIN, headers })).status()).toBe(200);
    const created = await context.post("/api/admin/oauth-clients", {
      data: { name: unique("e2e-mcp-"), redirectUris: ["https://app.example.com/callback"], scopes: ["read", "write"], isActive: true },
      headers,
    });
    expect(created.status()).toBe(201);
    const { clientId, clientSecret } = (await created.json()) as { clientId: string; clientSecret: string };
    const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString("base64");
    const tokenResponse = await context.post("/oauth/token", {
      form: { grant_type: "client_credentials", scope },
      headers: { authorization: `Basic ${basic}` },
    });
    expect(tokenResponse.status()).toBe(200);
    return { clientId, token: ((await tokenResponse.json()) as { access_token: string }).access_token };
  } finally {
    await context.dispose();
  }
}

/** The sizes the screenshots are taken at: a desktop window and a phone. */
export const SCREEN_SIZES = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;
/** Both colour schemes, for the screenshots. */
export const COLOR_SCHEMES = ["light", "dark"] as const;

/** The sandbox's credentials, as an administrator would enter them on the Configuration screen. */
export const SANDBOX_INTEGRATIONS = {
  atlassian: { instanceUrl: E2E_SANDBOX_URL, email: "demo@bridgekeeper.test", apiToken: "sandbox-api-token", isActive: true },
  bitbucket: { workspace: "bridgekeeper", username: "demo", appPassword: "sandbox-app-password", isActive: true },
};

/**
 * Points both integrations at the sandbox, as the Configuration screen would, unless they already
 * are: the configuration is global to the server all specs share (e2e/configuration.spec.ts's
 * serial block starts from "Not configured"). `api`: an admin's signed-in request context.
 */
export async function pointIntegrationsAtSandbox(api: APIRequestContext): Promise<void> {
  const hint = (secret: string) => secret.slice(-4);
  const { atlassian: wantA, bitbucket: wantB } = SANDBOX_INTEGRATIONS;
  const atlassian = (await (await api.get("/api/admin/atlassian-config")).json()) as AtlassianConfigDto;
  if (
    !atlassian.configured ||
    !atlassian.isActive ||
    !atlassian.instanceUrl.startsWith(E2E_SANDBOX_URL) ||
    atlassian.apiTokenHint !== hint(wantA.apiToken)
  ) {
    expect((await api.post("/api/admin/atlassian-config", { data: wantA })).status()).toBe(200);
  }
  const bitbucket = (await (await api.get("/api/admin/bitbucket-config")).json()) as BitbucketConfigDto;
  if (
    !bitbucket.configured ||
    !bitbucket.isActive ||
    bitbucket.workspace !== wantB.workspace ||
    bitbucket.appPasswordHint !== hint(wantB.appPassword)
  ) {
    expect((await api.post("/api/admin/bitbucket-config", { data: wantB })).status()).toBe(200);
  }
}

/**
 * Opens `GET /api/sse/stream` as an MCP client would, from this process, and answers once the
 * `connected` event arrived. It keeps reading (heartbeats never back up); `ended` answers
 * everything read once the server ends the stream; `close` ends it from this side.
 */
export async function openEventStream(
  baseURL: string,
  token: string,
  userAgent: string,
): Promise<{ ended: Promise<string>; close: () => void }> {
  const controller = new AbortController();
  const response = await fetch(`${baseURL}/api/sse/stream`, {
    headers: { authorization: `Bearer ${token}`, accept: "text/event-stream", "cache-control": "no-cache", "user-agent": userAgent },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (!text.includes("event: connected")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the stream ended before `connected`");
    text += decoder.decode(value, { stream: true });
  }
  const ended = (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return text;
      text += decoder.decode(value, { stream: true });
    }
  })();
  return { ended, close: () => controller.abort() };
}
