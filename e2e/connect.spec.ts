import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ClientCredentialsProvider } from "@modelcontextprotocol/sdk/client/auth-extensions.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Page } from "@playwright/test";
import { clientSetup, originMismatch, type McpConnectionDto } from "../contract/connect";
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
  test(`${heading}: the MCP URL from PUBLIC_URL, a tab per client with its snippet, and how sign-in works here`, async ({ page, baseURL }) => {
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
    await expect(connect.getByText(/^Sign-in: the AI client registers itself with this server \(dynamic registration is on\)/)).toBeVisible();
    // Opened at PUBLIC_URL: no warning.
    await expect(connect.getByRole("note")).toHaveCount(0);
  });
}

test("the copied snippets work: the SDK client connects with exactly the Cursor snippet's URL, and Claude Code's command names it", async ({ page, context, baseURL }) => {
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
  const created = await api.post("/api/admin/oauth-clients", { name: unique("e2e-snippet-"), redirectUris: ["https://app.example.com/callback"], scopes: ["read"], isActive: true, clientType: "confidential" });
  expect(created.status()).toBe(201);
  const client = (await created.json()) as OAuthClientDto;
  const sdk = new Client({ name: "e2e-snippet", version: "1.0.0" });
  try {
    await sdk.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: new ClientCredentialsProvider({ clientId: client.clientId, clientSecret: client.clientSecret!, scope: "read", expectedIssuer: baseURL! }) }));
    expect(sdk.getServerVersion()?.name).toMatch(/bridgekeeper/i);
    expect(Array.isArray((await sdk.listTools()).tools)).toBe(true);
  } finally {
    await sdk.close();
    expect((await api.delete(`/api/admin/oauth-clients/${client.clientId}`)).status()).toBe(204);
  }
});

test("opened at another address than PUBLIC_URL, the console warns wherever the address is shown, and Server Settings shows PUBLIC_URL", async ({ page, baseURL }) => {
  const elsewhere: McpConnectionDto = { mcpUrl: "https://bk.example.com/mcp", publicUrl: "https://bk.example.com", publicUrlConfigured: true, dynamicRegistration: false, metadataDocuments: true };
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
