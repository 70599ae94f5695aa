import { createHash, randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { ADMIN, apiClient, createUserWithRoles, unique } from "./helpers";

/**
 * OAuth consent in the browser (docs/decisions.md#oauth-authorization-server): an MCP client sends
 * the user to /oauth/authorize; signed out, they sign in on the same address; the consent page
 * names the client and its scopes; the answer sends the browser back to the client's redirect URI
 * with a code (or access_denied).
 */
const CALLBACK = "http://127.0.0.1:45999/callback";

async function makeClient(page: Page, baseURL: string): Promise<{ clientId: string; clientSecret: string; name: string }> {
  const api = apiClient(page, baseURL);
  expect((await api.login(ADMIN)).status()).toBe(200);
  const name = unique("Consent client ");
  const created = await api.post("/api/admin/oauth-clients", { name, redirectUris: [CALLBACK], scopes: ["read", "write"], isActive: true });
  expect(created.status()).toBe(201);
  const body = (await created.json()) as { clientId: string; clientSecret: string };
  expect((await api.logout()).status()).toBeLessThan(300);
  await page.context().clearCookies();
  return { ...body, name };
}

/** Signs in on the login form the consent address shows a signed-out visitor (the address stays). */
async function signInOnConsent(page: Page, user: { username: string; password: string }): Promise<void> {
  await page.getByLabel("Username").fill(user.username);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign In" }).click();
}

function authorizeUrl(baseURL: string, clientId: string, state: string) {
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const url = new URL("/oauth/authorize", baseURL);
  for (const [k, v] of Object.entries({
    response_type: "code",
    client_id: clientId,
    redirect_uri: CALLBACK,
    scope: "read write",
    state,
    code_challenge: challenge,
    code_challenge_method: "S256",
  }))
    url.searchParams.set(k, v);
  return { url: url.toString(), verifier };
}

test("sign in, approve, and the client gets a code it can redeem", async ({ page, baseURL }) => {
  const client = await makeClient(page, baseURL!);
  const { url, verifier } = authorizeUrl(baseURL!, client.clientId, "xyz-state");
  let callback: URL | undefined;
  await page.route(`${CALLBACK}**`, async (route) => {
    callback = new URL(route.request().url());
    await route.fulfill({ status: 200, contentType: "text/plain", body: "back at the client" });
  });

  await page.goto(url);
  await expect(page).toHaveURL(/\/oauth-consent\/[\w-]+$/);
  await signInOnConsent(page, ADMIN);
  await expect(page.getByRole("heading", { name: "Authorize access" })).toBeVisible();
  await expect(page.getByText(`${client.name} wants to use Jira, Confluence and Bitbucket through Bridgekeeper.`)).toBeVisible();
  // Who acts: the integrations' accounts (or none configured yet; the Configuration tests change them meanwhile).
  await expect(page.getByRole("region", { name: "Who acts" })).toContainText(/not as you|No integration is configured yet/);
  await expect(page.getByText(CALLBACK)).toBeVisible();
  await page.screenshot({ path: "e2e/screenshots/oauth-consent-desktop-light.png" });
  await page.getByRole("button", { name: "Authorize" }).click();
  await expect(page.getByText("back at the client")).toBeVisible();

  expect(callback?.searchParams.get("state")).toBe("xyz-state");
  expect(callback?.searchParams.get("iss")).toBe(new URL(baseURL!).origin);
  const code = callback!.searchParams.get("code")!;
  const token = await page.request.post("/oauth/token", {
    form: { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: CALLBACK },
    headers: { authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString("base64")}` },
  });
  expect(token.status()).toBe(200);
  expect(await token.json()).toMatchObject({ token_type: "Bearer", scope: "read write" });
});

test("deny sends access_denied back to the client", async ({ page, baseURL }) => {
  const client = await makeClient(page, baseURL!);
  const { url } = authorizeUrl(baseURL!, client.clientId, "deny-state");
  let callback: URL | undefined;
  await page.route(`${CALLBACK}**`, async (route) => {
    callback = new URL(route.request().url());
    await route.fulfill({ status: 200, contentType: "text/plain", body: "denied at the client" });
  });
  await page.goto(url);
  await signInOnConsent(page, ADMIN);
  await page.getByRole("button", { name: "Deny" }).click();
  await expect(page.getByText("denied at the client")).toBeVisible();
  expect(callback?.searchParams.get("error")).toBe("access_denied");
  expect(callback?.searchParams.get("state")).toBe("deny-state");
});

test("an unknown or used request says so instead of offering consent", async ({ page }) => {
  await page.goto("/oauth-consent/not-a-real-request-id");
  await signInOnConsent(page, ADMIN);
  await expect(page.getByRole("alert")).toHaveText("This authorization request has expired or was already answered");
  await expect(page.getByRole("button", { name: "Authorize" })).toHaveCount(0);
});

test("a viewer is told the write scope is withheld, and the client gets read only", async ({ page, baseURL }) => {
  const client = await makeClient(page, baseURL!);
  const viewer = { username: unique("consentviewer"), password: "viewer-password-1", email: `${unique("cv")}@example.com` };
  await createUserWithRoles(page, baseURL!, viewer, ["viewer"]);
  await page.context().clearCookies();
  const { url, verifier } = authorizeUrl(baseURL!, client.clientId, "viewer-state");
  let callback: URL | undefined;
  await page.route(`${CALLBACK}**`, async (route) => {
    callback = new URL(route.request().url());
    await route.fulfill({ status: 200, contentType: "text/plain", body: "back at the client" });
  });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto(url);
  await signInOnConsent(page, viewer);
  await expect(page.getByText("Not granted:")).toContainText("write");
  await page.screenshot({ path: "e2e/screenshots/oauth-consent-withheld-desktop-dark.png" });
  await page.getByRole("button", { name: "Authorize" }).click();
  await expect(page.getByText("back at the client")).toBeVisible();
  const token = await page.request.post("/oauth/token", {
    form: { grant_type: "authorization_code", code: callback!.searchParams.get("code")!, code_verifier: verifier, redirect_uri: CALLBACK },
    headers: { authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString("base64")}` },
  });
  expect(await token.json()).toMatchObject({ scope: "read" });
});

test("a read-only client limited to a project: the consent lists only what it will be able to do, and where", async ({ page, baseURL }) => {
  const client = await makeClient(page, baseURL!);
  const api = apiClient(page, baseURL!);
  expect((await api.login(ADMIN)).status()).toBe(200);
  expect((await api.put(`/api/admin/oauth-clients/${client.clientId}/policy`, { readOnly: true, jiraProjects: ["BK"] })).status()).toBe(
    200,
  );
  const { url } = authorizeUrl(baseURL!, client.clientId, "policy-state");
  await page.goto(url);
  await expect(page.getByRole("heading", { name: "Authorize access" })).toBeVisible();
  const rights = page.getByRole("region", { name: "It will be able to" }).getByRole("listitem");
  await expect(rights).toHaveCount(1);
  await expect(rights).toContainText("read");
  await expect(page.getByText("Also granted, unused for now: write. An administrator made this client read-only.")).toBeVisible();
  await expect(page.getByText("Only within Jira projects BK, as an administrator set it.")).toBeVisible();
  await page.getByRole("button", { name: "Deny" }).click();
  expect((await api.delete(`/api/admin/oauth-clients/${client.clientId}`)).status()).toBe(204);
});

// Each test below spends /oauth requests from the per-address budget (10 per 15 minutes, the
// default the Configuration test reads): this file stays within it.
test("a user without a role is told they may not authorize, and can only send the client back", async ({ page, baseURL }) => {
  const client = await makeClient(page, baseURL!);
  const nobody = { username: unique("consentnobody"), password: "nobody-password-1", email: `${unique("cn")}@example.com` };
  await createUserWithRoles(page, baseURL!, nobody, []);
  await page.context().clearCookies();
  const { url } = authorizeUrl(baseURL!, client.clientId, "nobody-state");
  let callback: URL | undefined;
  await page.route(`${CALLBACK}**`, async (route) => {
    callback = new URL(route.request().url());
    await route.fulfill({ status: 200, contentType: "text/plain", body: "sent back" });
  });
  await page.goto(url);
  await signInOnConsent(page, nobody);
  await expect(page.getByRole("alert")).toContainText("it needs the mcp.read permission");
  await expect(page.getByRole("button", { name: "Authorize" })).toHaveCount(0);
  await expect(page.getByText("It will be able to")).toHaveCount(0);
  await page.screenshot({ path: "e2e/screenshots/oauth-consent-refused-desktop-light.png" });
  await page.getByRole("button", { name: "Deny" }).click();
  await expect(page.getByText("sent back")).toBeVisible();
  expect(callback?.searchParams.get("error")).toBe("access_denied");
});

test("a self-registered client is marked unverified, with where it returns to shown large", async ({ page, baseURL }) => {
  const registered = await page.request.post("/oauth/register", {
    data: { client_name: "Bridgekeeper Console (official)", redirect_uris: [CALLBACK], token_endpoint_auth_method: "none" },
  });
  expect(registered.status()).toBe(201);
  const { client_id: clientId } = (await registered.json()) as { client_id: string };
  const { url } = authorizeUrl(baseURL!, clientId, "dyn-state");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(url);
  await signInOnConsent(page, ADMIN);
  const note = page.getByRole("note");
  await expect(note).toContainText("Unverified client");
  await expect(note).toContainText("It registered itself: no administrator vouched for its name.");
  await expect(note).toContainText("127.0.0.1:45999");
  await page.screenshot({ path: "e2e/screenshots/oauth-consent-unverified-phone-light.png", fullPage: true });
});
