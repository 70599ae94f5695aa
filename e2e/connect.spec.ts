import { createHash, randomBytes } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ClientCredentialsProvider } from "@modelcontextprotocol/sdk/client/auth-extensions.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Page } from "@playwright/test";
import { CLIENT_PRESETS, clientSetup, originMismatch, type McpConnectionDto } from "../contract/connect";
import type { OAuthClientDto } from "../contract/oauth";
import { expect, test } from "./fixtures";
import { ADMIN, apiClient, expectNoSidewaysScroll, signIn, unique } from "./helpers";

/**
 * "Connect an AI client" (issue 25) against the real server, whose PUBLIC_URL is the address the
 * tests open it at and whose dynamic registration is on (playwright.config.ts).
 */

const region = (page: Page) => page.getByRole("region", { name: "Connect an AI client" });
const clipboardText = (page: Page) => page.evaluate<string>("navigator.clipboard.readText()");

async function open(page: Page, path: string, heading: string): Promise<void> {
  await page.goto(path);
  await signIn(page, ADMIN, { phone: (page.viewportSize()?.width ?? 1280) < 768 });
  await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
}

for (const [path, heading] of [
  ["/", "Server Dashboard"],
  ["/oauth-clients", "OAuth Clients"],
  ["/api-endpoints", "API Endpoints"],
] as const) {
  test(`${heading}: the MCP URL from PUBLIC_URL, a tab per client with its snippet, and how sign-in works here`, async ({
    page,
    baseURL,
  }) => {
    await open(page, path, heading);
    const connect = region(page);
    const mcpUrl = `${baseURL}/mcp`;
    await expect(connect.getByText(mcpUrl, { exact: true })).toBeVisible();
    await expect(connect.getByRole("button", { name: "Copy the MCP server URL" })).toBeVisible();
    await expect(connect.getByRole("tab")).toHaveText(["Claude Desktop", "Claude Code", "Cursor", "VS Code"]);
    for (const client of ["claude-desktop", "claude-code", "cursor", "vscode"] as const) {
      const setup = clientSetup(client, mcpUrl);
      await connect.getByRole("tab", { name: setup.label }).click();
      await expect(connect.getByRole("tab", { name: setup.label })).toHaveAttribute("aria-selected", "true");
      const panel = connect.getByRole("tabpanel");
      await expect(panel.getByText(setup.where)).toBeVisible();
      await expect(panel.getByLabel(`${setup.label} configuration`, { exact: true })).toHaveText(setup.snippet);
    }
    // This installation has dynamic registration on: the line says so, and needs no OAuth Clients link.
    await expect(
      connect.getByText(/^Sign-in: the AI client registers itself with this server \(dynamic registration is on\)/),
    ).toBeVisible();
    // Opened at PUBLIC_URL: no warning.
    await expect(connect.getByRole("note")).toHaveCount(0);
  });
}

test("the copied snippets work: the SDK client connects with exactly the Cursor snippet's URL, and Claude Code's command names it", async ({
  page,
  context,
  baseURL,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL! });
  await open(page, "/oauth-clients", "OAuth Clients");
  const connect = region(page);

  await connect.getByRole("tab", { name: "Cursor" }).click();
  await connect.getByRole("button", { name: "Copy the Cursor configuration" }).click();
  await expect.poll(() => clipboardText(page)).toContain('"mcpServers"');
  const cursor = JSON.parse(await clipboardText(page)) as { mcpServers: Record<string, { url: string }> };
  const url = cursor.mcpServers.bridgekeeper!.url;

  await connect.getByRole("tab", { name: "Claude Code" }).click();
  await connect.getByRole("button", { name: "Copy the Claude Code configuration" }).click();
  await expect.poll(() => clipboardText(page)).toBe(`claude mcp add --transport http bridgekeeper ${url}`);

  // A client to sign in with (client credentials: no browser in the loop), then the SDK with exactly that URL.
  const api = apiClient(page, baseURL!);
  const created = await api.post("/api/admin/oauth-clients", {
    name: unique("e2e-snippet-"),
    redirectUris: ["https://app.example.com/callback"],
    scopes: ["read"],
    isActive: true,
    clientType: "confidential",
  });
  expect(created.status()).toBe(201);
  const client = (await created.json()) as OAuthClientDto;
  const sdk = new Client({ name: "e2e-snippet", version: "1.0.0" });
  try {
    await sdk.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        authProvider: new ClientCredentialsProvider({
          clientId: client.clientId,
          clientSecret: client.clientSecret!,
          scope: "read",
          expectedIssuer: baseURL!,
        }),
      }),
    );
    expect(sdk.getServerVersion()?.name).toMatch(/bridgekeeper/i);
    expect(Array.isArray((await sdk.listTools()).tools)).toBe(true);
  } finally {
    await sdk.close();
    expect((await api.delete(`/api/admin/oauth-clients/${client.clientId}`)).status()).toBe(204);
  }
});

test("the Claude preset fills its redirect URIs and type; the new client shows how to connect, signs in through consent and connects", async ({
  page,
  baseURL,
}) => {
  await open(page, "/oauth-clients", "OAuth Clients");
  await page.getByRole("button", { name: "Create Client" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Create Client" });
  const claude = CLIENT_PRESETS.find((p) => p.id === "claude")!;
  await dialog.getByRole("button", { name: "Claude", exact: true }).click();
  await expect(dialog.getByRole("button", { name: "Claude", exact: true })).toHaveAttribute("aria-pressed", "true");
  await expect(dialog.getByLabel("Name")).toHaveValue("Claude");
  await expect(dialog.getByLabel("Redirect URIs")).toHaveValue(claude.redirectUris.join("\n"));
  await expect(dialog.getByRole("radio", { name: "Confidential" })).toBeChecked();
  // Cursor's preset: its own scheme, a public client.
  await dialog.getByRole("button", { name: "Cursor", exact: true }).click();
  await expect(dialog.getByLabel("Name")).toHaveValue("Cursor");
  await expect(dialog.getByLabel("Redirect URIs")).toHaveValue("cursor://anysphere.cursor-retrieval/oauth/callback");
  await expect(dialog.getByRole("radio", { name: "Public" })).toBeChecked();
  await dialog.getByRole("button", { name: "Claude", exact: true }).click();
  const name = unique("e2e-claude-");
  await dialog.getByLabel("Name").fill(name);
  // The scope checkboxes edit the spec's text field.
  await dialog.getByRole("checkbox", { name: "write" }).click();
  await expect(dialog.getByLabel("Scopes", { exact: true })).toHaveValue("read");
  await dialog.getByRole("button", { name: "Create Client" }).click();

  const howTo = page.getByRole("dialog", { name: "How to connect" });
  await expect(howTo.getByRole("tab", { name: "Claude Desktop" })).toHaveAttribute("aria-selected", "true");
  await expect(howTo.getByText(`${baseURL}/mcp`, { exact: true })).toBeVisible();
  const client = ((await (await page.request.get("/api/admin/oauth-clients")).json()) as OAuthClientDto[]).find((c) => c.name === name)!;
  expect(client).toMatchObject({ clientType: "confidential", scopes: ["read"], redirectUris: [...claude.redirectUris] });
  await expect(howTo.getByText(client.clientId)).toBeVisible();
  await howTo.getByRole("button", { name: "Done" }).click();
  await expect(howTo).toBeHidden();

  // Sign in as Claude would: to consent, back to Anthropic's callback (held here), the code redeemed.
  const verifier = randomBytes(32).toString("base64url");
  const authorize = new URL("/oauth/authorize", baseURL);
  for (const [k, v] of Object.entries({
    response_type: "code",
    client_id: client.clientId,
    redirect_uri: claude.redirectUris[0]!,
    scope: "read",
    state: "s1",
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
    resource: `${baseURL}/mcp`,
  }))
    authorize.searchParams.set(k, v);
  let callback: URL | undefined;
  await page.route("https://claude.ai/**", async (route) => {
    callback = new URL(route.request().url());
    await route.fulfill({ status: 200, contentType: "text/plain", body: "back at Claude" });
  });
  await page.goto(authorize.toString());
  await page.getByRole("button", { name: "Authorize" }).click();
  await expect(page.getByText("back at Claude")).toBeVisible();
  const token = await page.request.post("/oauth/token", {
    form: {
      grant_type: "authorization_code",
      code: callback!.searchParams.get("code")!,
      code_verifier: verifier,
      redirect_uri: claude.redirectUris[0]!,
      resource: `${baseURL}/mcp`,
    },
    headers: { authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString("base64")}` },
  });
  expect(token.status()).toBe(200);
  const { access_token: accessToken } = (await token.json()) as { access_token: string };
  const sdk = new Client({ name: "e2e-claude", version: "1.0.0" });
  try {
    await sdk.connect(
      new StreamableHTTPClientTransport(new URL(`${baseURL}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${accessToken}` } },
      }),
    );
    expect(sdk.getServerVersion()?.name).toMatch(/bridgekeeper/i);
  } finally {
    await sdk.close();
    expect((await apiClient(page, baseURL!).delete(`/api/admin/oauth-clients/${client.clientId}`)).status()).toBe(204);
  }
});

test("opened at another address than PUBLIC_URL, the console warns wherever the address is shown, and Server Settings shows PUBLIC_URL", async ({
  page,
  baseURL,
}) => {
  const elsewhere: McpConnectionDto = {
    mcpUrl: "https://bk.example.com/mcp",
    publicUrl: "https://bk.example.com",
    publicUrlConfigured: true,
    dynamicRegistration: false,
    metadataDocuments: true,
  };
  await page.route("**/api/mcp-connection", (route) => route.fulfill({ json: elsewhere }));
  await open(page, "/", "Server Dashboard");
  const warning = originMismatch(new URL(baseURL!).origin, elsewhere.publicUrl)!;
  await expect(region(page).getByRole("note")).toHaveText(warning);
  await expect(region(page).getByText("https://bk.example.com/mcp", { exact: true })).toBeVisible();
  // Registration off: the line says to create a client first, with the way there.
  await expect(region(page).getByText(/dynamic registration is off/)).toBeVisible();
  await region(page).getByRole("link", { name: "Go to OAuth Clients" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "OAuth Clients" })).toBeVisible();

  await page.goto("/configuration");
  const settings = page.getByRole("region", { name: "Server Settings" });
  await expect(settings.getByRole("note")).toHaveText(warning);
  await page.unroute("**/api/mcp-connection");
  await page.reload();
  await expect(page.getByRole("region", { name: "Server Settings" }).getByText(baseURL!, { exact: true })).toBeVisible();
  await expect(page.getByRole("region", { name: "Server Settings" }).getByRole("note")).toHaveCount(0);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });
  test("the card fits: the tabs wrap, the snippet scrolls inside its block, the page never sideways", async ({ page }) => {
    await open(page, "/oauth-clients", "OAuth Clients");
    await expect(region(page).getByRole("tab", { name: "VS Code" })).toBeVisible();
    await region(page).getByRole("tab", { name: "VS Code" }).click();
    await expect(region(page).getByLabel("VS Code configuration", { exact: true })).toBeVisible();
    await expectNoSidewaysScroll(page);
  });
});
