import { DOC_SHOTS, expect, openScreen, test } from "./fixtures";
import {
  COLOR_SCHEMES,
  createUserWithRoles,
  expectNoSidewaysScroll,
  expectToast,
  mcpToken,
  openEventStream,
  SCREEN_SIZES,
  signIn,
  unique,
} from "./helpers";

/**
 * SSE Connections (spec sections 2 and 7; docs/decisions.md#mcp-transports) against the real
 * server: a stream this test opens with an MCP client's token shows up, with its user agent; an
 * administrator ends it.
 */

/** An MCP client's stream (its own client and token), open once `connected` arrived. */
async function openStream(baseURL: string, userAgent: string) {
  const { clientId, token } = await mcpToken(baseURL);
  return { clientId, ...(await openEventStream(baseURL, token, userAgent)) };
}

test("a stream opened by an MCP client is listed with its client and user agent; ending it closes the stream", async ({
  page,
  baseURL,
}) => {
  const agent = unique("e2e-sse-agent/");
  const stream = await openStream(baseURL!, agent);
  try {
    await openScreen(page, "/sse-connections", "SSE Connections");
    const row = page.getByRole("row").filter({ hasText: agent });
    await expect(row).toBeVisible();
    await expect(row.getByText("Active", { exact: true })).toBeVisible();
    await expect(row).toContainText(stream.clientId);
    await expect(row.getByText("Just now")).toBeVisible();
    await expect(row.locator("time").last()).toHaveAttribute("title", /\d{4}/);

    for (const title of ["Active Connections", "Total Connections", "Unique Clients"]) {
      await expect(page.getByRole("region", { name: title })).toContainText(/\d/);
    }
    await expect(page.getByRole("region", { name: "Active Connections" })).not.toContainText(/^Active Connections0/);
    const info = page.getByRole("region", { name: "Connecting to the event stream" });
    await expect(info).toContainText(`${new URL(baseURL!).origin}/api/sse/stream`);
    for (const text of [
      "Authorization:",
      "text/event-stream",
      "no-cache",
      "connected",
      "heartbeat",
      "every 30 seconds",
      "mcp-response",
      "error",
    ])
      await expect(info).toContainText(text);

    // The action stays in view without scrolling the table sideways (its column is pinned).
    await expect(row.getByRole("button", { name: /^End connection / })).toBeInViewport({ ratio: 1 });
    await row.getByRole("button", { name: /^End connection / }).click();
    const dialog = page.getByRole("alertdialog", { name: "End this connection?" });
    await expect(dialog).toContainText(stream.clientId);
    await dialog.getByRole("button", { name: "End connection" }).click();
    await expectToast(page, "Connection ended");
    await expect(row.getByText("Inactive", { exact: true })).toBeVisible();
    await expect(row.getByRole("button", { name: /^End connection / })).toHaveCount(0);
    expect(await stream.ended).toContain("event: error");
  } finally {
    stream.close();
  }
});

test("no connection: the spec's empty text; a failed load: Retry, which loads again", async ({ page }) => {
  let fail = true;
  await page.route("**/api/admin/sse-connections", (route) =>
    fail
      ? route.fulfill({
          status: 500,
          contentType: "application/json",
          body: JSON.stringify({ error: { code: "internal", message: "The registry is unavailable" } }),
        })
      : route.fulfill({ status: 200, contentType: "application/json", body: "[]" }),
  );
  await openScreen(page, "/sse-connections", "SSE Connections");
  await expect(page.getByRole("alert")).toContainText("The registry is unavailable");
  await expect(page.getByRole("region", { name: "Active Connections" })).toContainText("No data available");
  fail = false;
  await page.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByRole("heading", { name: "No SSE connections" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Total Connections" })).toContainText("0");
});

test.describe("as a viewer", () => {
  test.use({ storageState: { cookies: [], origins: [] } });
  test("a viewer sees the connections but cannot end one", async ({ page, baseURL }) => {
    const agent = unique("e2e-sse-viewer/");
    const stream = await openStream(baseURL!, agent);
    try {
      const viewer = { username: unique("viewer"), password: "viewer-secret", email: `${unique("v")}@example.com` };
      await createUserWithRoles(page, baseURL!, viewer, ["viewer"]);
      await page.goto("/sse-connections");
      await signIn(page, viewer);
      const row = page.getByRole("row").filter({ hasText: agent });
      await expect(row).toBeVisible();
      await expect(page.getByRole("button", { name: /^End connection / })).toHaveCount(0);
    } finally {
      stream.close();
    }
  });
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('a connection is a card: each value under its column\'s name, "End connection" at its foot; nothing scrolls sideways', async ({
    page,
    baseURL,
  }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    const agent = unique("e2e-sse-phone/");
    const stream = await openStream(baseURL!, agent);
    try {
      await openScreen(page, "/sse-connections", "SSE Connections");
      const card = page.getByRole("row").filter({ hasText: agent });
      await expect(card).toBeVisible();
      await expect(card.getByText("Active", { exact: true })).toBeVisible();
      await expectNoSidewaysScroll(page);
      const cell = (label: string) => card.getByRole("cell").filter({ has: page.getByText(label, { exact: true }) });
      for (const [label, value] of [
        ["Client ID", stream.clientId],
        ["Connected", /\d{4}/],
        ["Last heartbeat", "Just now"],
        ["IP address", /\d/],
        ["User agent", agent],
      ] as const) {
        await expect(cell(label).getByText(label, { exact: true })).toBeVisible();
        await expect(cell(label)).toContainText(value);
      }
      // The user agent is shown whole on a phone, not cut off.
      await expect(cell("User agent").getByText(agent)).toBeVisible();
      const cardBox = (await card.boundingBox())!;
      expect(cardBox.x + cardBox.width).toBeLessThanOrEqual(390);
      // A screen reader still has the table: its column headers (only visually hidden) name the cells.
      for (const name of ["Connection", "Status", "Client ID", "Connected", "Last heartbeat", "IP address", "User agent"])
        await expect(page.getByRole("columnheader", { name, exact: true })).toHaveCount(1);

      // The card's controls in order by keyboard: the id's copy button, then "End connection".
      const end = card.getByRole("button", { name: /^End connection / });
      await card.getByRole("button", { name: /^Copy connection ID / }).focus();
      await page.keyboard.press("Tab");
      await expect(end).toBeFocused();
      await expect(end).toBeInViewport({ ratio: 1 });
      const endBox = (await end.boundingBox())!;
      expect(endBox.x).toBeGreaterThanOrEqual(cardBox.x);
      expect(endBox.x + endBox.width).toBeLessThanOrEqual(cardBox.x + cardBox.width);

      await page.keyboard.press("Enter");
      const dialog = page.getByRole("alertdialog", { name: "End this connection?" });
      await expect(dialog).toContainText(stream.clientId);
      await dialog.getByRole("button", { name: "End connection" }).click();
      await expectToast(page, "Connection ended");
      await expect(card.getByText("Inactive", { exact: true })).toBeVisible();
      await expect(card.getByRole("button", { name: /^End connection / })).toHaveCount(0);
      expect(await stream.ended).toContain("event: error");
      await expectNoSidewaysScroll(page);
    } finally {
      stream.close();
    }
  });
});

for (const size of SCREEN_SIZES) {
  for (const scheme of COLOR_SCHEMES) {
    test(`screenshot at ${size.name} in ${scheme}`, async ({ page, baseURL }) => {
      const agent = `Claude/1.0 (e2e ${unique("")})`;
      const stream = await openStream(baseURL!, agent);
      try {
        await page.setViewportSize({ width: size.width, height: size.height });
        await page.emulateMedia({ colorScheme: scheme, reducedMotion: "reduce" });
        await openScreen(page, "/sse-connections", "SSE Connections");
        await expect(page.getByRole("row").filter({ hasText: agent })).toBeVisible();
        await expectNoSidewaysScroll(page);
        await page.screenshot({ path: `${DOC_SHOTS}/sse-connections-${size.name}-${scheme}.png`, fullPage: true });
      } finally {
        stream.close();
      }
    });
  }
}
