import { mkdirSync } from "node:fs";
import type { Locator, Page, Route } from "@playwright/test";
import { DOC_SHOTS, expect, openScreen, test } from "./fixtures";
import { ADMIN, apiClient, COLOR_SCHEMES, createUserWithRoles, expectNoSidewaysScroll, SCREEN_SIZES, signIn, unique } from "./helpers";

/**
 * Server Dashboard (spec §2, §3, §7, §9; docs/decisions.md#measured-numbers, #view-documentation)
 * against the real server. Every worker shares one server and the Atlassian/Bitbucket configuration
 * is global (configuration.spec.ts sets it in parallel), so the integration assertions accept
 * either state rather than change it.
 */

/** What the page functions below use of the browser (the e2e project is typed without the DOM library). */
interface PageGlobals {
  document: {
    querySelectorAll(selector: string): ArrayLike<{ getAttribute(name: string): string | null }>;
    getElementById(id: string): { textContent: string | null } | null;
  };
  performance: { now(): number };
  getComputedStyle(element: unknown): { getPropertyValue(name: string): string };
}

const STAT_CARDS = ["Server Status", "Active SSE Connections", "OAuth Clients", "API Requests/hour"] as const;
const card = (page: Page, name: string): Locator => page.getByRole("region", { name, exact: true });
const refreshButton = (page: Page): Locator => page.getByRole("button", { name: /^Refresh(ing\.\.\.)?$/ });
const statValue = (page: Page, name: string): Locator => card(page, name).locator("[data-slot='stat-value']");

/** The card's figure as a number ("1,234" → 1234). */
async function figure(page: Page, name: string): Promise<number> {
  const text = (await statValue(page, name).textContent()) ?? "";
  return Number(text.replace(/[^\d]/g, ""));
}

/** Clicks Refresh and waits until the refresh has finished (the button reads "Refresh" again and is enabled). */
async function refresh(page: Page): Promise<void> {
  await refreshButton(page).click();
  await expect(page.getByRole("button", { name: "Refresh", exact: true })).toBeEnabled();
}

async function openDashboard(page: Page): Promise<void> {
  await openScreen(page, "/", "Server Dashboard");
  for (const name of STAT_CARDS) await expect(statValue(page, name)).toBeVisible();
}

test("shows the spec's title, health, the four stat cards and their captions", async ({ page }) => {
  await openDashboard(page);
  await expect(page.getByText("Monitor and manage your MCP Atlassian integration")).toBeVisible();
  await expect(page.getByText("Healthy", { exact: true })).toBeVisible();
  await expect(page.getByText("Unhealthy", { exact: true })).toHaveCount(0);

  await expect(statValue(page, "Server Status")).toHaveText("Running");
  await expect(card(page, "Server Status")).toContainText(/Uptime: \d+(s|m|h \d+m|d \d+h)/);
  // The instances serving on the database: this test server alone, marked as the one answering.
  const instances = card(page, "Server Status").getByRole("list", { name: "Instances" }).getByRole("listitem");
  await expect(card(page, "Server Status").getByRole("heading", { name: "1 instance" })).toBeVisible();
  await expect(instances).toHaveCount(1);
  await expect(instances.first()).toContainText("(this one)");
  await expect(instances.first()).toContainText(/v\d+\.\d+\.\d+\S* · up \d+(s|m|h \d+m|d \d+h) · \d+ streams?/);
  await expect(card(page, "Active SSE Connections").getByText(/^(Active connections|No active connections)$/)).toBeVisible();
  await expect(statValue(page, "OAuth Clients")).toHaveText(/^[\d,]+$/);
  await expect(card(page, "OAuth Clients").getByText(/^[\d,]+ active sessions?$/)).toBeVisible();
  await expect(statValue(page, "API Requests/hour")).toHaveText(/^[\d,]+$/);
  const limits = card(page, "API Requests/hour").getByText(/^(No rate limits hit|[\d,]+ rate limits? hit)$/);
  await expect(limits).toBeVisible();
  // Hits are in the destructive colour: text and class read together (the figures refresh meanwhile).
  await expect
    .poll(() => limits.evaluate((el) => el.textContent === "No rate limits hit" || el.classList.contains("text-destructive")), {
      message: "rate limit hits are shown in the destructive colour",
    })
    .toBe(true);

  // The grid: four across on a desktop (measured until the cards have their final layout).
  const tops = () => Promise.all(STAT_CARDS.map(async (name) => (await card(page, name).boundingBox())?.y));
  await expect
    .poll(
      async () => {
        const ys = await tops();
        return { laidOut: ys.filter((y) => y !== undefined).length, rows: new Set(ys).size };
      },
      { message: "the four stat cards share one row at 1280 px" },
    )
    .toEqual({ laidOut: 4, rows: 1 });
});

test("the integration cards show each service's state, last sync and rate limit", async ({ page }) => {
  await openDashboard(page);
  const atlassian = card(page, "Atlassian Integration");
  await expect(atlassian.getByText("Jira", { exact: true })).toBeVisible();
  await expect(atlassian.getByText("Confluence", { exact: true })).toBeVisible();
  await expect(atlassian.getByText(/^(Connected|Disconnected)$/)).toHaveCount(2);
  await expect(atlassian.getByText(/^(Never synced|Last sync .+)$/)).toHaveCount(2);
  await expect(atlassian.getByText(/^[\d,]+\/[\d,]+ requests\/hour$/)).toBeVisible();
  const bar = atlassian.getByRole("progressbar", { name: "API rate limit used" });
  await expect(bar).toHaveAttribute("aria-valuenow", /^\d+(\.\d)?$/);
  await expect(bar).toHaveAttribute("aria-valuemax", "100");

  const bitbucket = card(page, "Bitbucket Integration");
  await expect(bitbucket.getByText(/^(Connected|Disconnected)$/)).toHaveCount(1);
  // The workspace's name, or the placeholder (the Configuration tests change the configuration meanwhile).
  await expect(bitbucket.getByRole("definition").first()).toHaveText(/^(No workspace configured|[\w.-]+)$/);
  await expect(bitbucket.getByRole("term").filter({ hasText: "Repositories" })).toBeVisible();
  await expect(bitbucket.getByText(/^[\d,]+\/[\d,]+ requests\/hour$/)).toBeVisible();
  await expect(bitbucket.getByRole("progressbar", { name: "API rate limit used" })).toHaveAttribute("aria-valuenow", /^\d+(\.\d)?$/);

  // The bar is used over total: check the figure it shows against its own numbers, both read from
  // one rendering (a refetch between two reads could change one and not the other).
  await expect(async () => {
    const [used, total] = ((await atlassian.getByText(/requests\/hour$/).textContent()) ?? "").replace(/,/g, "").match(/\d+/g)!.map(Number);
    const expected = total! > 0 ? Math.min(100, Math.round((used! / total!) * 1000) / 10) : used! > 0 ? 100 : 0;
    expect(Number(await bar.getAttribute("aria-valuenow"))).toBe(expected);
  }).toPass();
});

test("API Requests/hour moves as logged requests happen, after Refresh", async ({ page }) => {
  await openDashboard(page);
  const before = await figure(page, "API Requests/hour");
  const N = 6;
  for (let i = 0; i < N; i++) expect((await page.request.get("/api/mcp/health")).status()).toBe(200);
  // The log is written in batches (every 250 ms): refresh until the figure has taken them in.
  await expect
    .poll(
      async () => {
        await refresh(page);
        return figure(page, "API Requests/hour");
      },
      { timeout: 20_000 },
    )
    .toBeGreaterThanOrEqual(before + N);
});

test("Recent Activity shows the newest requests, with method, endpoint, a coloured dot beside the code, time and ms", async ({ page }) => {
  await openDashboard(page);
  const activity = card(page, "Recent Activity");
  // A path of this test's own (an unknown MCP path: logged, answered 404, the amber band).
  const path = `/api/mcp/${unique("dash-")}`;
  // The newest of this path's requests: other specs' traffic may push an older one out of the five.
  const row = activity.getByRole("listitem").filter({ hasText: path }).first();
  // A request each attempt, then a refresh until the batched log has one among the newest five.
  await expect(async () => {
    expect((await page.request.get(path)).status()).toBe(404);
    await refresh(page);
    await expect(row).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 60_000 });
  await expect(row).toContainText("GET");
  await expect(row).toContainText("404");
  await expect(row.locator("[data-tone='warning']")).toHaveCount(1);
  await expect(row.getByText("Client error")).toBeAttached();
  await expect(row.locator("time")).toHaveText(/^(Just now|\d+m ago)$/);
  await expect(row).toContainText(/\d+(\.\d+)?(ms|s)$/);
  await expect.poll(() => activity.getByRole("listitem").count(), { message: "at most five recent requests" }).toBeLessThanOrEqual(5);

  // A 200 is green.
  await expect(async () => {
    await page.request.get("/api/mcp/health");
    await refresh(page);
    const ok = activity.getByRole("listitem").filter({ hasText: "/api/mcp/health" }).first();
    await expect(ok).toContainText("200", { timeout: 1_000 });
    await expect(ok.locator("[data-tone='success']")).toHaveCount(1);
  }).toPass({ timeout: 30_000 });
});

test("Refresh reads Refreshing... while it runs and ends enabled, with data", async ({ page }) => {
  await openDashboard(page);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/stats", async (route) => {
    await held;
    await route.fallback();
  });
  await refreshButton(page).click();
  await expect(page.getByRole("button", { name: "Refreshing..." })).toBeDisabled();
  release();
  await expect(page.getByRole("button", { name: "Refresh", exact: true })).toBeEnabled();
  await expect(statValue(page, "Server Status")).toHaveText("Running");
});

test("the integration cards show what the status says: Connected or Disconnected, last sync, workspace, repositories, the budget bar", async ({
  page,
}) => {
  // Five minutes before each answer is sent (not before the test began): "5m ago" however slow the run.
  const lastSync = () => new Date(Date.now() - 5 * 60_000).toISOString();
  await page.route("**/api/atlassian-status", (route) =>
    route.fulfill({
      json: {
        configured: true,
        isActive: true,
        jiraConnected: true,
        jiraLastSync: lastSync(),
        jiraError: null,
        confluenceConnected: false,
        confluenceLastSync: null,
        confluenceError: "Confluence answered 401",
        apiRateLimit: { used: 250, total: 1000 },
      },
    }),
  );
  await page.route("**/api/bitbucket-status", (route) =>
    route.fulfill({
      json: {
        configured: true,
        isActive: true,
        connected: true,
        lastSync: lastSync(),
        error: null,
        workspaceName: "bridgekeeper",
        repositoryCount: 12,
        apiRateLimit: { used: 990, total: 1000 },
      },
    }),
  );
  await openDashboard(page);
  const atlassian = card(page, "Atlassian Integration");
  const jira = atlassian.getByText("Jira", { exact: true }).locator("xpath=../..");
  await expect(jira).toContainText("Connected");
  await expect(jira).toContainText("Last sync 5m ago");
  const confluence = atlassian.getByText("Confluence", { exact: true }).locator("xpath=../..");
  await expect(confluence).toContainText("Disconnected");
  await expect(confluence).toContainText("Never synced");
  await expect(confluence).toContainText("Confluence answered 401");
  await expect(atlassian.getByText("250/1,000 requests/hour")).toBeVisible();
  await expect(atlassian.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "25");

  const bitbucket = card(page, "Bitbucket Integration");
  await expect(bitbucket.getByText("Connected", { exact: true })).toBeVisible();
  await expect(bitbucket.getByRole("definition").nth(0)).toHaveText("bridgekeeper");
  await expect(bitbucket.getByRole("definition").nth(1)).toHaveText("12");
  await expect(bitbucket.getByText("990/1,000 requests/hour")).toBeVisible();
  await expect(bitbucket.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "99");

  // The endpoint card's dots follow the same checks: Jira up, Confluence down, Bitbucket up.
  const rows = card(page, "API Endpoints").getByRole("listitem");
  await expect(rows.filter({ hasText: "/api/atlassian/jira/*" })).toContainText("Online");
  await expect(rows.filter({ hasText: "/api/atlassian/confluence/*" })).toContainText("Offline");
  await expect(rows.filter({ hasText: "/api/atlassian/confluence/*" }).locator("[data-tone='destructive']")).toHaveCount(1);
  await expect(rows.filter({ hasText: "/api/bitbucket/*" })).toContainText("Online");
});

test("with nothing configured the integration cards read Disconnected, Never synced and No workspace configured", async ({ page }) => {
  const none = { used: 0, total: 1000 };
  await page.route("**/api/atlassian-status", (route) =>
    route.fulfill({
      json: {
        configured: false,
        isActive: false,
        jiraConnected: false,
        jiraLastSync: null,
        jiraError: null,
        confluenceConnected: false,
        confluenceLastSync: null,
        confluenceError: null,
        apiRateLimit: none,
      },
    }),
  );
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
        apiRateLimit: none,
      },
    }),
  );
  await openDashboard(page);
  const atlassian = card(page, "Atlassian Integration");
  await expect(atlassian.getByText("Disconnected", { exact: true })).toHaveCount(2);
  await expect(atlassian.getByText("Never synced", { exact: true })).toHaveCount(2);
  await expect(atlassian.getByText("0/1,000 requests/hour")).toBeVisible();
  await expect(atlassian.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "0");
  await expect(atlassian.getByRole("link", { name: "Set it up" })).toHaveAttribute("href", "/configuration");
  const bitbucket = card(page, "Bitbucket Integration");
  await expect(bitbucket.getByText("Disconnected", { exact: true })).toBeVisible();
  await expect(bitbucket.getByText("No workspace configured")).toBeVisible();
});

test("the API Endpoints card lists the spec's shorter set, and View Documentation opens /api-endpoints", async ({ page }) => {
  await openDashboard(page);
  const endpoints = card(page, "API Endpoints");
  const rows = endpoints.getByRole("listitem");
  await expect(rows).toHaveCount(7);
  const expected = [
    "GET/api/mcp/health",
    "POST/api/mcp/protocol",
    "SSE/api/sse/stream",
    "POST/oauth/token",
    "GET/api/atlassian/jira/*",
    "GET/api/atlassian/confluence/*",
    "GET/api/bitbucket/*",
  ];
  for (let i = 0; i < expected.length; i++) await expect(rows.nth(i)).toContainText(expected[i]!);
  // The server's own endpoints are Online while it runs.
  for (let i = 0; i < 4; i++) {
    await expect(rows.nth(i)).toContainText("Online");
    await expect(rows.nth(i).locator("[data-tone='success']")).toHaveCount(1);
  }

  await endpoints.getByRole("link", { name: "View Documentation" }).click();
  await expect(page).toHaveURL(/\/api-endpoints$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});

test("the traffic charts load lazily, after the cards, and each has a title and a text alternative", async ({ page }) => {
  // Hold uPlot's chunk back: the cards must fill without it.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/traffic-chart-[\w-]+\.js$/, async (route) => {
    await held;
    await route.fallback();
  });
  await openDashboard(page);
  await expect(card(page, "Recent Activity").getByRole("listitem").first()).toBeVisible();
  const traffic = card(page, "Traffic");
  const requests = traffic.getByRole("figure", { name: "Requests per minute" });
  await expect(requests).toBeVisible();
  await expect(requests).toHaveAccessibleDescription(
    /^(No requests in the last hour\.|[\d,]+ requests? in the last hour, (no errors|[\d,]+ errors? \([\d.]+ %\))\..*)$/,
  );
  await expect(requests.locator("canvas")).toHaveCount(0);
  // Its headline is a per-minute figure (the busiest minute's), not the hour's total.
  await expect(requests.getByText(/^(–|peak [\d,]+\/min)$/)).toHaveCount(1);
  release();

  await expect(requests.locator("canvas").first()).toBeVisible();
  await expect(traffic.getByRole("figure", { name: "Error rate" })).toHaveAccessibleDescription(/error rate/i);
  await expect(traffic.getByRole("figure", { name: "Upstream calls per minute" })).toHaveAccessibleDescription(
    /^Upstream calls in the last hour: Jira [\d,]+, Confluence [\d,]+, Bitbucket [\d,]+\.$/,
  );
  await expect(traffic.locator(".bk-chart canvas")).toHaveCount(3);

  // A theme change redraws the charts in the new theme's colours.
  const axisColour = () =>
    traffic
      .locator(".bk-chart")
      .first()
      .evaluate((el) => (globalThis as unknown as PageGlobals).getComputedStyle(el).getPropertyValue("--muted-foreground").trim());
  // The light theme's value once the chart is styled (not an empty value read while it mounts).
  await expect.poll(axisColour).not.toBe("");
  const light = await axisColour();
  await page.emulateMedia({ colorScheme: "dark" });
  await expect.poll(axisColour).not.toBe(light);
  await expect(traffic.locator(".bk-chart canvas")).toHaveCount(3);
});

test.describe("when the server fails", () => {
  const fail = (status: number) => (route: Route) =>
    route.fulfill({
      status,
      contentType: "application/json",
      body: JSON.stringify({ error: { code: "internal", message: "Something went wrong on the server." } }),
    });
  const path = (p: string) => (url: URL) => url.pathname === p;

  test("every card shows its unavailable state or Retry, and the page is never blank", async ({ page }) => {
    await page.route(path("/api/stats"), fail(500));
    await page.route(path("/api/atlassian-status"), (route) => route.abort("connectionrefused"));
    await page.route(path("/api/bitbucket-status"), fail(503));
    await page.route(path("/api/admin/stats/traffic"), (route) => route.abort("connectionrefused"));
    await page.route(path("/api/admin/logs"), fail(500));
    await openScreen(page, "/", "Server Dashboard");

    await expect(page.getByText("Unhealthy", { exact: true })).toBeVisible();
    for (const name of STAT_CARDS) await expect(card(page, name).getByText("No data available")).toBeVisible();
    await expect(page.getByRole("alert").filter({ hasText: "The server's statistics could not be loaded." })).toContainText(
      "Something went wrong on the server.",
    );
    await expect(card(page, "Atlassian Integration").getByText("Atlassian status unavailable")).toBeVisible();
    await expect(card(page, "Atlassian Integration")).toContainText("Could not reach the server.");
    await expect(card(page, "Bitbucket Integration").getByText("Bitbucket status unavailable")).toBeVisible();
    await expect(card(page, "Recent Activity").getByRole("button", { name: "Retry" })).toBeVisible();
    await expect(card(page, "Traffic").getByRole("button", { name: "Retry" })).toBeVisible();
    // The endpoints follow the failed checks: the server's own are Offline.
    await expect(card(page, "API Endpoints").getByRole("listitem").first()).toContainText("Offline");
    await expect(page.getByRole("button", { name: "Retry" })).toHaveCount(5);

    // The server is back: Retry on each brings its card back.
    await page.unrouteAll();
    await page
      .getByRole("alert")
      .filter({ hasText: "The server's statistics could not be loaded." })
      .getByRole("button", { name: "Retry" })
      .click();
    await expect(statValue(page, "Server Status")).toHaveText("Running");
    await expect(page.getByText("Healthy", { exact: true })).toBeVisible();
    await card(page, "Atlassian Integration").getByRole("button", { name: "Retry" }).click();
    await expect(card(page, "Atlassian Integration").getByText(/^(Connected|Disconnected)$/)).toHaveCount(2);
    await refresh(page);
    await expect(page.getByRole("button", { name: "Retry" })).toHaveCount(0);
  });

  test("a refresh that fails after a good answer turns the header Unhealthy and shows no stale figures", async ({ page }) => {
    await openDashboard(page);
    await expect(page.getByText("Healthy", { exact: true })).toBeVisible();
    await page.route(path("/api/stats"), fail(500));
    await refresh(page);
    await expect(page.getByText("Unhealthy", { exact: true })).toBeVisible();
    for (const name of STAT_CARDS) await expect(card(page, name).getByText("No data available")).toBeVisible();
    await expect(page.getByRole("alert").filter({ hasText: "The server's statistics could not be loaded." })).toBeVisible();
  });

  test("with the database down the figures read No data available and the header Unhealthy", async ({ page }) => {
    // What /api/stats answers when its database does not (server/modules/stats/stats.presenter.ts).
    await page.route(path("/api/stats"), (route) =>
      route.fulfill({
        json: {
          serverStatus: "Database unavailable",
          uptime: 4000,
          activeSSEConnections: null,
          totalOAuthClients: null,
          activeOAuthSessions: null,
          apiRequestsPerHour: null,
          rateLimitHits: null,
        },
      }),
    );
    await openScreen(page, "/", "Server Dashboard");
    await expect(page.getByText("Unhealthy", { exact: true })).toBeVisible();
    await expect(statValue(page, "Server Status")).toHaveText("Database unavailable");
    await expect(card(page, "Server Status")).toContainText("Uptime: 1h 6m");
    for (const name of STAT_CARDS.slice(1)) await expect(card(page, name).getByText("No data available")).toBeVisible();
    await expect(card(page, "API Endpoints").getByRole("listitem").first()).toContainText("Offline");
  });
});

test.describe("without stats.read", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test("a user with only logs.read is told so for the statistics, sees recent activity, and is never sent a 403", async ({
    page,
    baseURL,
  }) => {
    const api = apiClient(page, baseURL!);
    expect((await api.login(ADMIN)).status()).toBe(200);
    const roleName = unique("logs-only-");
    expect((await api.post("/api/roles", { name: roleName, description: null, isActive: true, permissions: ["logs.read"] })).status()).toBe(
      201,
    );
    expect((await api.logout()).status()).toBeLessThan(300);
    const user = { username: unique("logreader"), password: "logs-secret", email: `${unique("l")}@example.com` };
    await createUserWithRoles(page, baseURL!, user, [roleName]);

    const refused: string[] = [];
    page.on("response", (response) => {
      if (response.status() === 403) refused.push(response.url());
    });
    await page.goto("/");
    await signIn(page, user);
    await expect(page.getByRole("heading", { level: 1, name: "Server Dashboard" })).toBeVisible();
    await expect(page.getByText("You do not have permission to view the server's statistics and integration status.")).toBeVisible();
    await expect(card(page, "Recent Activity").getByRole("listitem").first()).toBeVisible();
    await expect(page.getByText(/^(Healthy|Unhealthy)$/)).toHaveCount(0);
    await expect(card(page, "API Endpoints").getByRole("listitem").first()).toContainText("Unknown");
    await refresh(page);
    expect(refused).toEqual([]);
  });
});

/** The README's screenshots: desktop and phone, light and dark. */
for (const size of SCREEN_SIZES) {
  for (const scheme of COLOR_SCHEMES) {
    test(`screenshot at ${size.name} in ${scheme}`, async ({ page }) => {
      mkdirSync(DOC_SHOTS, { recursive: true });
      // Some traffic of each band, so the charts and the activity list have something to show.
      for (const p of ["/api/mcp/health", "/api/mcp/health", `/api/mcp/${unique("missing-")}`]) await page.request.get(p);
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: "reduce" });
      await openDashboard(page);
      await expect(card(page, "Atlassian Integration").getByRole("progressbar")).toBeVisible();
      await expect(card(page, "Bitbucket Integration").getByRole("progressbar")).toBeVisible();
      await expect(card(page, "Recent Activity").getByRole("listitem").first()).toBeVisible();
      await expect(card(page, "Traffic").locator(".bk-chart canvas")).toHaveCount(3);
      await expectNoSidewaysScroll(page, "the dashboard scrolls sideways");
      // The whole page, by a viewport as tall as the page rather than fullPage: Chromium's
      // full-page capture draws the canvases at a transient size (the charts spill over their cards).
      const height = await page.evaluate<number>("document.documentElement.scrollHeight");
      await page.setViewportSize({ width: size.width, height });
      await expect(card(page, "Traffic").locator(".bk-chart canvas")).toHaveCount(3);
      await page.screenshot({ path: `${DOC_SHOTS}/dashboard-${size.name}-${scheme}.png` });
    });
  }
}
