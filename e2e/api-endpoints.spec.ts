import type { Page } from "@playwright/test";
import { DOC_SHOTS, expect, openScreen, test } from "./fixtures";
import { COLOR_SCHEMES, expectNoSidewaysScroll, SCREEN_SIZES } from "./helpers";

/**
 * API Endpoints (spec section 2; docs/decisions.md#measured-numbers, #view-documentation) against
 * the real server: health from real checks, medians measured.
 */

const SPEC_TEN = [
  "/api/mcp/health",
  "/api/mcp/protocol",
  "/api/sse/stream",
  "/oauth/token",
  "/oauth/authorize",
  "/api/atlassian/jira/*",
  "/api/atlassian/confluence/*",
  "/api/admin/stats",
  "/api/admin/oauth-clients",
  "/api/admin/logs",
];
const row = (page: Page, method: string, path: string) => page.getByRole("listitem", { name: `${method} ${path}`, exact: true });

test("the summary, every endpoint with its health, and a median that appears once requests were made", async ({ page, baseURL }) => {
  for (let i = 0; i < 5; i++) expect((await page.request.get("/api/mcp/health")).status()).toBe(200);
  await openScreen(page, "/api-endpoints", "API Endpoints");
  await expect(page.getByText("Healthy", { exact: true }).first()).toBeVisible();
  for (const title of ["Total Endpoints", "Healthy", "Unhealthy"])
    await expect(page.getByRole("region", { name: title, exact: true })).toContainText(/\d/);
  await expect(page.getByRole("region", { name: "Unhealthy" })).toContainText(/Requires attention|All endpoints healthy/);
  for (const path of SPEC_TEN) await expect(page.getByRole("listitem").filter({ hasText: path }).first()).toBeVisible();
  await expect(row(page, "POST", "/mcp")).toBeVisible();

  // The health check was just called: its median is a number of ms, not the dash.
  await expect
    .poll(async () => {
      await page.getByRole("button", { name: "Refresh" }).click();
      return row(page, "GET", "/api/mcp/health").innerText();
    })
    .toMatch(/\d+ms/);
  await expect(row(page, "GET", "/api/mcp/health")).toContainText("Healthy");
  await expect(row(page, "SSE", "/api/sse/stream")).toContainText(/\d+ connections?/);

  const origin = new URL(baseURL!).origin;
  const protocol = page.getByRole("region", { name: "MCP protocol call" });
  await expect(protocol).toContainText(`${origin}/api/mcp/protocol`);
  await expect(protocol).toContainText('"method": "tools/list"');
  await expect(page.getByRole("region", { name: "SSE connection" })).toContainText(`${origin}/api/sse/stream`);
  await expect(page.getByRole("region", { name: "OAuth token request" })).toContainText("grant_type=authorization_code");
  // How to point an AI client here: connect.spec.ts.
  await expect(page.getByRole("region", { name: "Connect an AI client" })).toContainText(`${origin}/mcp`);
  for (const name of ["mcp protocol call", "sse connection", "oauth token request"])
    await expect(page.getByRole("button", { name: `Copy the ${name} example` })).toBeVisible();
});

test("the Jira and Confluence entries follow the Atlassian status", async ({ page }) => {
  await page.route("**/api/admin/atlassian-status", (route) =>
    route.fulfill({
      status: 200,
      contentType: "application/json",
      body: JSON.stringify({
        configured: true,
        isActive: true,
        jiraConnected: true,
        jiraLastSync: null,
        jiraError: null,
        confluenceConnected: false,
        confluenceLastSync: null,
        confluenceError: "down",
        apiRateLimit: { used: 0, total: 1000 },
      }),
    }),
  );
  await openScreen(page, "/api-endpoints", "API Endpoints");
  await expect(row(page, "GET", "/api/atlassian/jira/*")).toContainText("Healthy");
  await expect(row(page, "GET", "/api/atlassian/confluence/*")).toContainText("Unhealthy");
  await expect(page.getByRole("region", { name: "Unhealthy" })).toContainText("Requires attention");
});

test("a failed load of the figures offers Retry and the list stays", async ({ page }) => {
  let fail = true;
  await page.route("**/api/admin/endpoint-stats", (route) =>
    fail
      ? route.fulfill({
          status: 503,
          contentType: "application/json",
          body: JSON.stringify({ error: { code: "unavailable", message: "Figures unavailable" } }),
        })
      : route.fallback(),
  );
  await openScreen(page, "/api-endpoints", "API Endpoints");
  await expect(page.getByRole("alert")).toContainText("Figures unavailable");
  await expect(row(page, "GET", "/api/mcp/health")).toContainText("—");
  fail = false;
  await page.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByRole("alert")).toHaveCount(0);
});

for (const size of SCREEN_SIZES) {
  for (const scheme of COLOR_SCHEMES) {
    test(`screenshot at ${size.name} in ${scheme}`, async ({ page }) => {
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: "reduce" });
      await openScreen(page, "/api-endpoints", "API Endpoints");
      await expect(page.getByRole("region", { name: "Total Endpoints" })).toContainText(/\d/);
      await expectNoSidewaysScroll(page);
      await page.screenshot({ path: `${DOC_SHOTS}/api-endpoints-${size.name}-${scheme}.png`, fullPage: true });
    });
  }
}

test("a service nobody has set up reads a grey Not configured, here and on the Dashboard: unhealthy by the spec's count, but no alarm", async ({
  page,
}) => {
  const notConfigured = {
    configured: false,
    isActive: false,
    jiraConnected: false,
    jiraLastSync: null,
    jiraError: null,
    confluenceConnected: false,
    confluenceLastSync: null,
    confluenceError: null,
    apiRateLimit: { used: 0, total: 1000 },
  };
  await page.route(/\/api\/(admin\/)?atlassian-status$/, (route) => route.fulfill({ json: notConfigured }));
  await page.route("**/api/bitbucket-status", (route) =>
    route.fulfill({
      json: {
        configured: false,
        isActive: false,
        connected: false,
        lastSync: null,
        error: null,
        workspaceName: null,
        repositoryCount: null,
        apiRateLimit: { used: 0, total: 1000 },
      },
    }),
  );
  await openScreen(page, "/api-endpoints", "API Endpoints");
  for (const path of ["/api/atlassian/jira/*", "/api/atlassian/confluence/*", "/api/bitbucket/*"])
    await expect(row(page, "GET", path)).toContainText("Not configured");
  await expect(row(page, "GET", "/api/mcp/health")).toContainText("Healthy");
  const unhealthy = page.getByRole("region", { name: "Unhealthy" });
  await expect(unhealthy).toContainText("3");
  await expect(unhealthy).toContainText("Requires attention");
  await expect(unhealthy.locator("[data-slot='stat-value']")).toHaveAttribute("data-tone", "default");

  await page.goto("/");
  const rows = page
    .getByRole("region", { name: "API Endpoints", exact: true })
    .getByRole("list", { name: "Endpoints" })
    .getByRole("listitem");
  for (const path of ["/api/atlassian/jira/*", "/api/atlassian/confluence/*", "/api/bitbucket/*"]) {
    await expect(rows.filter({ hasText: path })).toContainText("Not configured");
    await expect(rows.filter({ hasText: path }).locator("[data-tone='muted']")).toHaveCount(1);
  }
  await expect(page.getByText("Offline", { exact: true })).toHaveCount(0);
});
