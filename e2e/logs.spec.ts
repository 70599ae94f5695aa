import { mkdirSync, readFileSync } from "node:fs";
import type { Locator, Page } from "@playwright/test";
import { LOG_CSV_COLUMNS, type LogEntryDetailDto, type LogEntryDto, type LogSummaryDto } from "../contract/logs";
import { DOC_SHOTS, expect, openScreen, test } from "./fixtures";
import { COLOR_SCHEMES, createUserWithRoles, expectNoSidewaysScroll, expectToast, mcpToken, SCREEN_SIZES, signIn, unique } from "./helpers";

/**
 * Request Logs (spec sections 2, 7, 8 and 9; docs/decisions.md#request-log, #csv-export) against
 * the real server. Other suites run beside these on the same server, so no test assumes a total:
 * each makes its own traffic under a tag no one else uses (the request log records the path, so the
 * tag is in the path) and searches for it. Paths: `/.well-known/oauth-protected-resource/<tag>/…`
 * answers 200 to anyone, and `/api/admin/<tag>/…` is 404 for every method; both are logged
 * (docs/decisions.md#request-log). The second are the console's own API calls, which the screen
 * shows with its "Console API calls" switch on (`console=1` in the address).
 */

const PLACEHOLDER = "Search endpoints, methods, or client IDs...";
const logRegion = (page: Page) => page.getByRole("region", { name: "Request log" });
const rows = (page: Page) => logRegion(page).locator("[data-log-id]");
const searchBox = (page: Page) => page.getByPlaceholder(PLACEHOLDER);
const statusSelect = (page: Page) => page.getByRole("combobox", { name: "Filter by status" });
const methodSelect = (page: Page) => page.getByRole("combobox", { name: "Filter by method" });
const outcomeSelect = (page: Page) => page.getByRole("combobox", { name: "Filter by MCP outcome" });
const consoleSwitch = (page: Page) => page.getByRole("switch", { name: "Console API calls" });
const footer = (page: Page) => page.getByText(/^Showing [\d,]+ (of [\d,]+ )?requests$/);
/** A stat card's big number. */
const statValue = (page: Page, title: string): Locator =>
  page
    .getByRole("region", { name: "Request totals" })
    .locator("div")
    .filter({ has: page.getByRole("heading", { name: title, exact: true }) })
    .locator("p")
    .first();
const statCaption = (page: Page, title: string): Locator =>
  page
    .getByRole("region", { name: "Request totals" })
    .locator("div")
    .filter({ has: page.getByRole("heading", { name: title, exact: true }) })
    .locator("p")
    .nth(1);
const numberIn = async (locator: Locator): Promise<number> => Number((await locator.innerText()).replace(/[^\d]/g, ""));

/** Requests the log records under `tag`: `ok` answered 200, the others 404. */
async function makeTraffic(
  page: Page,
  baseURL: string,
  tag: string,
  counts: { ok?: number; getErrors?: number; postErrors?: number },
  headers: Record<string, string> = {},
): Promise<void> {
  // Each call made only when its batch starts (a request starts as soon as it is asked for): a few
  // hundred at once on a busy, shared machine queue past the server's header timeout and are reset.
  const calls: (() => Promise<unknown>)[] = [];
  for (let i = 0; i < (counts.ok ?? 0); i++)
    calls.push(() => expectStatus(page.request.get(`/.well-known/oauth-protected-resource/${tag}/ok-${i}`, { headers }), 200));
  for (let i = 0; i < (counts.getErrors ?? 0); i++)
    calls.push(() => expectStatus(page.request.get(`/api/admin/${tag}/missing-${i}`, { headers }), 404));
  for (let i = 0; i < (counts.postErrors ?? 0); i++)
    calls.push(() => expectStatus(page.request.post(`/api/admin/${tag}/missing-${i}`, { headers: { Origin: baseURL, ...headers } }), 404));
  for (let i = 0; i < calls.length; i += 25) await Promise.all(calls.slice(i, i + 25).map((call) => call()));
}

/**
 * The address the server logs for this process's requests: the server listens on 127.0.0.1 (HOST
 * in playwright.config.ts) and trusts no proxy, so `req.ip` is the IPv4 loopback, never ::1 or
 * ::ffff:127.0.0.1.
 */
const TEST_IP = "127.0.0.1";

/** The fields of one CSV record, unquoted (RFC 4180: a quoted field may hold commas, "" is a quote). */
function csvFields(line: string): string[] {
  const field = /(?:"((?:[^"]|"")*)"|([^,"]*))(,|$)/y;
  const fields: string[] = [];
  for (;;) {
    const match = field.exec(line);
    if (!match) throw new Error(`not a CSV record: ${line}`);
    fields.push(match[1] !== undefined ? match[1].replaceAll('""', '"') : match[2]!);
    if (match[3] === "") return fields;
  }
}

async function expectStatus(response: Promise<{ status(): number }>, status: number): Promise<void> {
  expect((await response).status()).toBe(status);
}

/** The log is written in batches off the request path: wait until the server counts `total` rows under the tag. */
async function logged(page: Page, tag: string, total: number): Promise<void> {
  await expect
    .poll(
      async () =>
        ((await (await page.request.get(`/api/admin/logs/summary?search=${encodeURIComponent(tag)}`)).json()) as LogSummaryDto).total,
    )
    .toBe(total);
}

test("the spec's texts, and the totals grow after new requests and a refresh", async ({ page, baseURL }) => {
  await openScreen(page, "/logs?console=1", "Request Logs");
  await expect(searchBox(page)).toBeVisible();
  await expect(statusSelect(page).locator("option")).toHaveText(["All Status", "Success (2xx-3xx)", "Errors (4xx-5xx)"]);
  await expect(methodSelect(page).locator("option")).toHaveText(["All Methods", "GET", "POST", "PUT", "DELETE"]);
  await expect(statusSelect(page)).toHaveValue("all");
  await expect(page.getByRole("button", { name: "Export CSV" })).toBeVisible();
  for (const title of ["Total Requests", "Successful", "Errors", "Avg Response Time"])
    await expect(page.getByRole("heading", { name: title, exact: true })).toBeVisible();
  await expect(statCaption(page, "Avg Response Time")).toHaveText(
    /^(Fast \(under 100ms\)|Moderate \(under 500ms\)|Slow \(500ms or more\))$/,
  );
  await expect(statValue(page, "Avg Response Time")).toHaveText(/^[\d,]+ms$/);
  await expect(statCaption(page, "Successful")).toHaveText(/(% success rate|No requests)$/);
  await expect(rows(page).first()).toBeVisible();

  // The figure as loaded (a number, not the placeholder shown while the summary is on its way).
  await expect(statValue(page, "Total Requests")).toHaveText(/^[\d,]+$/);
  const before = await numberIn(statValue(page, "Total Requests"));
  const tag = unique("logs-grow-");
  await makeTraffic(page, baseURL!, tag, { ok: 4, getErrors: 3 });
  await logged(page, tag, 7);
  await page.getByRole("button", { name: "Refresh" }).click();
  await expect.poll(() => numberIn(statValue(page, "Total Requests"))).toBeGreaterThanOrEqual(before + 7);
  await expect(page.getByRole("button", { name: "Refresh" })).toBeEnabled();
});

test("search narrows to the tagged rows; status and method filters; the address keeps them", async ({ page, baseURL }) => {
  const tag = unique("logs-filter-");
  await makeTraffic(page, baseURL!, tag, { ok: 3, getErrors: 2, postErrors: 1 });
  await logged(page, tag, 6);

  await openScreen(page, "/logs", "Request Logs");
  await searchBox(page).fill(tag);
  await expect(page).toHaveURL(new RegExp(`[?&]search=${tag}`));
  // By default only client traffic: the three answered requests; the console's own calls (the 404s under /api/admin) one switch away.
  await expect(consoleSwitch(page)).not.toBeChecked();
  await expect(rows(page)).toHaveCount(3);
  await expect(statValue(page, "Total Requests")).toHaveText("3");
  await consoleSwitch(page).check();
  await expect(page).toHaveURL(/[?&]console=1/);
  await expect(rows(page)).toHaveCount(6);
  await expect(rows(page).locator("td:nth-child(3) button")).toHaveText(
    Array.from({ length: 6 }, () => new RegExp(tag)),
    { useInnerText: true },
  );
  await expect(statValue(page, "Total Requests")).toHaveText("6");
  await expect(statValue(page, "Successful")).toHaveText("3");
  await expect(statCaption(page, "Successful")).toHaveText("50% success rate");
  await expect(statValue(page, "Errors")).toHaveText("3");
  await expect(statCaption(page, "Errors")).toHaveText("50% error rate");
  await expect(footer(page)).toHaveText("Showing 6 of 6 requests");

  await statusSelect(page).selectOption({ label: "Errors (4xx-5xx)" });
  await expect(rows(page)).toHaveCount(3);
  await expect(rows(page).locator("td:nth-child(4)")).toHaveText(["404", "404", "404"]);
  await expect(rows(page).getByText("Error", { exact: true })).toHaveCount(3);
  await expect(statCaption(page, "Successful")).toHaveText("0% success rate");

  await statusSelect(page).selectOption({ label: "Success (2xx-3xx)" });
  await expect(rows(page)).toHaveCount(3);
  await expect(rows(page).locator("td:nth-child(4)")).toHaveText(["200", "200", "200"]);
  await expect(statCaption(page, "Errors")).toHaveText("No errors");

  await statusSelect(page).selectOption({ label: "All Status" });
  await methodSelect(page).selectOption({ label: "POST" });
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).locator("td:nth-child(2)")).toHaveText("POST");

  await methodSelect(page).selectOption({ label: "GET" });
  await statusSelect(page).selectOption({ label: "Errors (4xx-5xx)" });
  await expect(rows(page)).toHaveCount(2);
  await expect(page).toHaveURL(/status=error/);
  await expect(page).toHaveURL(/method=GET/);

  // A reload (or a shared link) shows the same view.
  await page.reload();
  await expect(searchBox(page)).toHaveValue(tag);
  await expect(statusSelect(page)).toHaveValue("error");
  await expect(methodSelect(page)).toHaveValue("GET");
  await expect(rows(page)).toHaveCount(2);

  // Values the screen does not know fall back to All.
  await page.goto(`/logs?search=${tag}&status=teapot&method=TRACE&console=1`);
  await expect(statusSelect(page)).toHaveValue("all");
  await expect(methodSelect(page)).toHaveValue("all");
  await expect(rows(page)).toHaveCount(6);
});

test("both empty texts: no match for the filters, and nothing logged yet", async ({ page, baseURL }) => {
  // At least one row of client traffic for the cleared view, whichever tests ran before.
  const tag = unique("logs-empty-");
  await makeTraffic(page, baseURL!, tag, { ok: 1 });
  await logged(page, tag, 1);
  await openScreen(page, `/logs?search=${unique("nothing-here-")}`, "Request Logs");
  await expect(page.getByText("No logs found", { exact: true })).toBeVisible();
  await expect(page.getByText("No logs match your current filters.", { exact: true })).toBeVisible();
  await expect(statCaption(page, "Successful")).toHaveText("No requests");
  await expect(statCaption(page, "Errors")).toHaveText("No errors");
  await expect(statValue(page, "Avg Response Time")).toHaveText("—");
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(searchBox(page)).toHaveValue("");
  await expect(rows(page).first()).toBeVisible();

  // A fresh server with an empty log: answered here, since this server has logged plenty already.
  await page.route(
    (url) => url.pathname === "/api/admin/logs",
    (route) => route.fulfill({ json: [] }),
  );
  await page.route(
    (url) => url.pathname === "/api/admin/logs/summary",
    (route) => route.fulfill({ json: { total: 0, successful: 0, errors: 0, averageResponseTime: null } }),
  );
  await openScreen(page, "/logs", "Request Logs");
  await expect(page.getByText("No logs found", { exact: true })).toBeVisible();
  await expect(page.getByText("No API requests have been logged yet.", { exact: true })).toBeVisible();
  await expect(statValue(page, "Total Requests")).toHaveText("0");
});

test("a row opens its details: the safe headers, never a cookie or a credential; keyboard too", async ({ page }) => {
  const tag = unique("logs-detail-");
  const response = await page.request.get(`/api/admin/${tag}/detail`, {
    headers: {
      Accept: "application/json",
      "X-Connection-Id": `conn-${tag}`,
      Authorization: `Bearer leak-${tag}`,
      "User-Agent": `DetailProbe/1.0 ${tag}`,
    },
  });
  expect(response.status()).toBeGreaterThanOrEqual(400);
  await logged(page, tag, 1);

  await openScreen(page, `/logs?search=${tag}&console=1`, "Request Logs");
  await expect(rows(page)).toHaveCount(1);
  // A click anywhere on the row opens it.
  await rows(page).first().locator("td").nth(4).click();
  const panel = page.getByRole("dialog", { name: "Request details" });
  await expect(panel).toBeVisible();
  await expect(panel.getByText(`GET /api/admin/${tag}/detail`)).toBeVisible();
  await expect(panel.getByText(`DetailProbe/1.0 ${tag}`)).toBeVisible();
  const headers = panel.locator("section").filter({ has: page.getByRole("heading", { name: "Headers" }) });
  await expect(headers.locator("dt", { hasText: /^accept$/ })).toBeVisible();
  await expect(headers.locator("dd", { hasText: /^application\/json$/ })).toBeVisible();
  await expect(headers.locator("dd", { hasText: `conn-${tag}` })).toBeVisible();
  await expect(panel.locator("dt", { hasText: /^(cookie|authorization)$/i })).toHaveCount(0);
  await expect(panel).not.toContainText(`leak-${tag}`);
  await expect(panel.locator("dt", { hasText: /^Request ID$/ })).toBeVisible();

  // Escape closes it and gives focus back to the row; Enter and Space open it from the keyboard.
  await page.keyboard.press("Escape");
  await expect(panel).toBeHidden();
  const rowButton = rows(page)
    .first()
    .getByRole("button", { name: `View details of GET /api/admin/${tag}/detail` });
  await rowButton.focus();
  await page.keyboard.press("Enter");
  await expect(panel).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(rowButton).toBeFocused();
  await page.keyboard.press("Space");
  await expect(panel).toBeVisible();
});

test("an MCP tool call shows its tool in the row and its audit entry in the panel", async ({ page }) => {
  const entry: LogEntryDto = {
    id: "3f1c1d4e-5b6a-4c7d-8e9f-0a1b2c3d4e5f",
    method: "POST",
    endpoint: "/mcp",
    statusCode: 200,
    responseTime: 184.2,
    clientId: "bk_client_e2e",
    ipAddress: "10.0.0.7",
    userAgent: "claude-ai/0.1",
    createdAt: new Date().toISOString(),
    userId: null,
    rpcMethod: "tools/call",
    toolName: "jira_search",
    clientName: null,
    userName: null,
    outcome: "ok",
    error: null,
  };
  const detail: LogEntryDetailDto = {
    ...entry,
    requestId: "req-e2e-1",
    headers: { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
    toolCall: {
      id: "tc-1",
      at: entry.createdAt,
      clientId: entry.clientId!,
      userId: null,
      tool: "jira_search",
      arguments: { jql: "project = PROJ AND status = Open", maxResults: 20 },
      outcome: "ok",
      error: null,
      durationMs: 172,
      objects: ["jira:PROJ-1", "jira:PROJ-7"],
      requestId: "req-e2e-1",
      upstreamIdentity: "shared",
    },
  };
  await page.route(
    (url) => url.pathname === "/api/admin/logs",
    (route) => route.fulfill({ json: [entry] }),
  );
  await page.route(
    (url) => url.pathname === "/api/admin/logs/summary",
    (route) => route.fulfill({ json: { total: 1, successful: 1, errors: 0, averageResponseTime: 184.2 } }),
  );
  await page.route(
    (url) => url.pathname === `/api/admin/logs/${entry.id}`,
    (route) => route.fulfill({ json: detail }),
  );

  await openScreen(page, "/logs", "Request Logs");
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText("jira_search");
  await expect(statCaption(page, "Avg Response Time")).toHaveText("Moderate (under 500ms)");
  await rows(page).first().getByRole("button").click();
  const panel = page.getByRole("dialog", { name: "Request details" });
  const toolCall = panel.locator("section").filter({ has: page.getByRole("heading", { name: "Tool call" }) });
  await expect(toolCall).toBeVisible();
  await expect(toolCall.getByText("Succeeded").first()).toBeVisible();
  await expect(toolCall.getByText("172ms")).toBeVisible();
  await expect(toolCall.getByText("project = PROJ AND status = Open")).toBeVisible();
  await expect(toolCall.getByText("jira:PROJ-7")).toBeVisible();
  await expect(panel.getByText("mcp-protocol-version")).toBeVisible();
  await expect(panel.getByText("tools/call")).toBeVisible();
});

/** A tools/call whose tool answered with isError, as the server lists it. */
const FAILED_CALL: LogEntryDto = {
  id: "7a1c1d4e-5b6a-4c7d-8e9f-0a1b2c3d4e5f",
  method: "POST",
  endpoint: "/mcp",
  statusCode: 200,
  responseTime: 95,
  clientId: "bk_client_claude",
  ipAddress: "10.0.0.7",
  userAgent: "claude-ai/0.1",
  createdAt: new Date().toISOString(),
  userId: "5d1c1d4e-5b6a-4c7d-8e9f-0a1b2c3d4e5f",
  rpcMethod: "tools/call",
  toolName: "jira_search",
  clientName: "Claude Desktop",
  userName: "alice",
  outcome: "tool_error",
  error: "Jira refused the JQL: Field 'sprnt' does not exist. Check the field names with jira_search_fields.",
};

/** The list, its totals and the entry's detail answered with `entry` alone. */
async function onlyEntry(page: Page, entry: LogEntryDto): Promise<void> {
  await page.route(
    (url) => url.pathname === "/api/admin/logs",
    (route) => route.fulfill({ json: [entry] }),
  );
  await page.route(
    (url) => url.pathname === "/api/admin/logs/summary",
    (route) => route.fulfill({ json: { total: 1, successful: 1, errors: 0, averageResponseTime: entry.responseTime } }),
  );
  await page.route(
    (url) => url.pathname === `/api/admin/logs/${entry.id}`,
    (route) => route.fulfill({ json: { ...entry, requestId: "req-e2e-2", headers: {}, toolCall: null } }),
  );
}

test("a failed tool call is not a green success: its row and panel show Tool error and the tool's sentence; the client and user are named", async ({
  page,
}) => {
  const failed = FAILED_CALL;
  await onlyEntry(page, failed);

  await openScreen(page, "/logs", "Request Logs");
  const row = rows(page).first();
  await expect(row.locator("td").first()).toHaveText("Tool error");
  await expect(row.getByText("Tool error", { exact: true })).toHaveCount(2);
  await expect(row.getByText(failed.error!, { exact: true })).toBeVisible();
  await expect(row.getByText("Success", { exact: true })).toHaveCount(0);
  await expect(row.getByText("Claude Desktop")).toBeVisible();
  await expect(row.getByText("Claude Desktop")).toHaveAttribute("title", "Client ID: bk_client_claude");
  await expect(row.getByTitle("User: alice")).toBeVisible();
  await row.getByRole("button").click();
  const panel = page.getByRole("dialog", { name: "Request details" });
  await expect(panel.getByRole("note")).toHaveText(`The tool answered: ${failed.error}`);
  await expect(panel.locator("dd", { hasText: /^Claude Desktop$/ })).toBeVisible();
});

test("on a phone the rows are cards: every value on three lines, no sideways scroll, and the card opens its details", async ({ page }) => {
  await onlyEntry(page, FAILED_CALL);
  await page.setViewportSize({ width: 390, height: 844 });
  await openScreen(page, "/logs", "Request Logs");
  const card = logRegion(page).getByRole("list", { name: "Logged requests" }).getByRole("listitem");
  await expect(card).toHaveCount(1);
  await expect(logRegion(page).locator("table")).toHaveCount(0);
  for (const text of ["POST", "/mcp", "200", "jira_search"]) await expect(card.getByText(text, { exact: true })).toBeVisible();
  await expect(card.getByTitle("Client ID: bk_client_claude")).toHaveText("Client: Claude Desktop · alice");
  await expect(card).toContainText("Response time 95ms");
  await expect(card.getByText("Tool error", { exact: true }).last()).toBeVisible();
  await expect(card.getByText(FAILED_CALL.error!, { exact: true })).toBeVisible();
  await expectNoSidewaysScroll(page, "the log's cards scroll sideways");
  await card.getByRole("button", { name: "View details of POST /mcp" }).press("Enter");
  await expect(page.getByRole("dialog", { name: "Request details" }).getByRole("note")).toHaveText(
    `The tool answered: ${FAILED_CALL.error}`,
  );
});

test("a real MCP call to an unknown tool is logged as a JSON-RPC error with its message; the outcome filter finds it", async ({
  page,
  baseURL,
}) => {
  const { token } = await mcpToken(baseURL!);
  const tool = unique("no_such_tool_").replace(/-/g, "_").toLowerCase();
  const answer = await page.request.post("/mcp", {
    headers: { authorization: `Bearer ${token}`, accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
    data: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: tool, arguments: {} } },
  });
  expect(answer.status()).toBe(200);
  const message = /"message":"([^"]+)"/.exec(await answer.text())?.[1];
  expect(message).toContain(tool);
  await logged(page, tool, 1);

  await openScreen(page, `/logs?search=${tool}`, "Request Logs");
  const row = rows(page).first();
  await expect(rows(page)).toHaveCount(1);
  await expect(row.getByText("JSON-RPC error", { exact: true }).first()).toBeVisible();
  await expect(row.getByText(message!, { exact: true })).toBeVisible();
  await expect(row.getByText(/^e2e-mcp-/)).toBeVisible();

  await outcomeSelect(page).selectOption({ label: "MCP: Tool errors" });
  await expect(page).toHaveURL(/[?&]outcome=tool_error/);
  await expect(page.getByText("No logs match your current filters.", { exact: true })).toBeVisible();
  await outcomeSelect(page).selectOption({ label: "MCP: JSON-RPC errors" });
  await expect(rows(page)).toHaveCount(1);
  await outcomeSelect(page).selectOption({ label: "MCP: OK" });
  await expect(page.getByText("No logs match your current filters.", { exact: true })).toBeVisible();
});

test("pages of 200 by cursor, Load more, the CSV has every matching row, and a poll asks for the first page only", async ({
  page,
  baseURL,
}) => {
  test.slow(); // many screens, sizes or rows: three times the configured bound
  const tag = unique("logs-pages-");
  await makeTraffic(page, baseURL!, tag, { ok: 205 });
  await logged(page, tag, 205);

  const listQueries: URLSearchParams[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname === "/api/admin/logs") listQueries.push(url.searchParams);
  });
  await page.clock.install();
  await openScreen(page, `/logs?search=${tag}`, "Request Logs");
  await expect(footer(page)).toHaveText("Showing 200 of 205 requests");
  // Virtualised: far fewer rows in the page than loaded (but some).
  await expect(rows(page).first()).toBeVisible();
  await expect.poll(() => rows(page).count(), { message: "only the rows in view are rendered" }).toBeLessThan(80);
  expect(listQueries.at(-1)?.get("limit")).toBe("200");

  await page.getByRole("button", { name: "Load more" }).click();
  await expect(footer(page)).toHaveText("Showing 205 of 205 requests");
  await expect(page.getByText("End of the log")).toBeVisible();
  expect(listQueries.at(-1)?.get("cursor")).toBeTruthy();
  // Focus moves to the first new row.
  await expect(logRegion(page).locator('tr[data-index="200"] button')).toBeFocused();

  // The export holds every matching row, whatever is loaded (docs/decisions.md#csv-export).
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
  const lines = readFileSync(await download.path(), "utf8")
    .split("\r\n")
    .filter(Boolean);
  expect(lines).toHaveLength(206);

  // New requests; the poll (every 30 s) asks for the first page alone and keeps the loaded ones.
  await makeTraffic(page, baseURL!, `${tag}-new`, { ok: 2 });
  await logged(page, tag, 207);
  listQueries.length = 0;
  await page.clock.fastForward(30_000);
  await expect(footer(page)).toHaveText("Showing 207 of 207 requests");
  expect(listQueries.length).toBeGreaterThan(0);
  expect(listQueries.every((q) => !q.has("cursor"))).toBe(true);
});

test("scrolling to the end of the loaded rows asks for the next page", async ({ page }) => {
  const entry = (i: number): LogEntryDto => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
    method: "GET",
    endpoint: `/api/mcp/health/row-${i}`,
    statusCode: 200,
    responseTime: 2,
    clientId: null,
    ipAddress: "127.0.0.1",
    userAgent: null,
    createdAt: new Date(Date.UTC(2026, 0, 1) - i * 1000).toISOString(),
    userId: null,
    rpcMethod: null,
    toolName: null,
    clientName: null,
    userName: null,
    outcome: null,
    error: null,
  });
  const cursors: (string | null)[] = [];
  await page.route(
    (url) => url.pathname === "/api/admin/logs",
    (route) => {
      const cursor = new URL(route.request().url()).searchParams.get("cursor");
      cursors.push(cursor);
      if (cursor === null)
        return route.fulfill({ json: Array.from({ length: 200 }, (_, i) => entry(i)), headers: { "X-Next-Cursor": "page2.abc" } });
      return route.fulfill({ json: Array.from({ length: 50 }, (_, i) => entry(200 + i)) });
    },
  );
  await page.route(
    (url) => url.pathname === "/api/admin/logs/summary",
    (route) => route.fulfill({ json: { total: 250, successful: 250, errors: 0, averageResponseTime: 2 } }),
  );

  await openScreen(page, "/logs", "Request Logs");
  await expect(footer(page)).toHaveText("Showing 200 of 250 requests");
  // Scrolled to the end as it is when scrolled: the virtualiser measures rows as they come into view,
  // so the end can move after a scroll; scroll again until the next page has been asked for.
  const scrollToEnd = () => logRegion(page).evaluate((box) => box.scrollTo({ top: box.scrollHeight }));
  await expect(async () => {
    await scrollToEnd();
    await expect(footer(page)).toHaveText("Showing 250 of 250 requests", { timeout: 2_000 });
  }).toPass();
  await expect(page.getByText("End of the log")).toBeVisible();
  // The first page, then the second once; a poll (every 30 s, on a slow run) asks for the first
  // page again, which is not what this test is about.
  expect(cursors[0]).toBeNull();
  expect(cursors.filter((cursor) => cursor !== null)).toEqual(["page2.abc"]);
  await expect(async () => {
    await scrollToEnd();
    await expect(logRegion(page).getByText("/api/mcp/health/row-249", { exact: true })).toBeVisible({ timeout: 2_000 });
  }).toPass();
});

test("Export CSV downloads mcp-server-logs-YYYY-MM-DD.csv with the spec's columns and the filtered rows, quoted", async ({
  page,
  baseURL,
}) => {
  const tag = unique("logs-csv-");
  const agent = `Probe, "quoted" ${tag}`;
  await makeTraffic(page, baseURL!, tag, { ok: 2, getErrors: 1 }, { "User-Agent": agent });
  await logged(page, tag, 3);

  await openScreen(page, `/logs?search=${tag}&console=1`, "Request Logs");
  await expect(rows(page)).toHaveCount(3);
  await expect(rows(page).locator("td:nth-child(7)")).toHaveText([TEST_IP, TEST_IP, TEST_IP]);
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^mcp-server-logs-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = readFileSync(await download.path(), "utf8")
    .split("\r\n")
    .filter(Boolean);
  expect(lines[0]).toBe(LOG_CSV_COLUMNS.join(","));
  expect(lines).toHaveLength(4);
  const quoted = `"Probe, ""quoted"" ${tag}"`;
  for (const line of lines.slice(1)) {
    expect(line.endsWith(`,${quoted}`), line).toBe(true);
    const fields = csvFields(line);
    expect(fields, line).toHaveLength(LOG_CSV_COLUMNS.length);
    expect(fields[LOG_CSV_COLUMNS.indexOf("IP Address")], line).toBe(TEST_IP);
    expect(fields[LOG_CSV_COLUMNS.indexOf("User Agent")], line).toBe(agent);
  }
  expect(lines.filter((l) => l.includes(`,GET,/.well-known/oauth-protected-resource/${tag}/ok-`) && l.includes(",200,"))).toHaveLength(2);

  // The export follows the filters.
  await statusSelect(page).selectOption({ label: "Errors (4xx-5xx)" });
  await expect(rows(page)).toHaveCount(1);
  const [filtered] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
  const filteredLines = readFileSync(await filtered.path(), "utf8")
    .split("\r\n")
    .filter(Boolean);
  expect(filteredLines).toHaveLength(2);
  expect(filteredLines[1]).toContain(`,GET,/api/admin/${tag}/missing-0,404,`);
});

test("a failing export is a destructive toast with the server's reason", async ({ page }) => {
  await page.route(
    (url) => url.pathname === "/api/admin/logs/export",
    (route) => route.fulfill({ status: 503, json: { error: { code: "unavailable", message: "The log store is busy; try again" } } }),
  );
  await openScreen(page, "/logs", "Request Logs");
  await page.getByRole("button", { name: "Export CSV" }).click();
  await expectToast(page, "Export failed", "The log store is busy; try again");
  await expect(page.getByRole("button", { name: "Export CSV" })).toBeEnabled();
});

test("a 10 KB search in the address is cut to what the server takes; the screen still works", async ({ page }) => {
  await openScreen(page, `/logs?search=${"x".repeat(10_240)}`, "Request Logs");
  await expect(searchBox(page)).toHaveValue("x".repeat(200));
  await expect(page.getByText("No logs match your current filters.", { exact: true })).toBeVisible();
  // Typed into an empty box (Chromium drops an over-long insertion that replaces a selection whole).
  await searchBox(page).clear();
  await searchBox(page).fill("y".repeat(500));
  await expect(searchBox(page)).toHaveValue("y".repeat(200));
});

test("the server failing shows what failed with Retry, and Retry recovers", async ({ page, baseURL }) => {
  const tag = unique("logs-retry-");
  await makeTraffic(page, baseURL!, tag, { ok: 1 });
  await logged(page, tag, 1);
  const failing = (url: URL) => url.pathname === "/api/admin/logs" || url.pathname === "/api/admin/logs/summary";
  await page.route(failing, (route) =>
    route.fulfill({ status: 500, json: { error: { code: "internal", message: "Database unavailable" } } }),
  );
  await openScreen(page, "/logs", "Request Logs");
  const alert = page.getByRole("alert").filter({ hasText: "The request log could not be loaded." });
  await expect(alert).toContainText("Database unavailable");
  await page.unroute(failing);
  await alert.getByRole("button", { name: "Retry" }).click();
  await expect(rows(page).first()).toBeVisible();
  await expect(statValue(page, "Total Requests")).toHaveText(/^[\d,]+$/);
  await expect(page.getByRole("alert").filter({ hasText: "could not be loaded" })).toHaveCount(0);
});

test.describe("without logs.read", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test("a user without the permission sees a notice, not the log", async ({ page, baseURL }) => {
    const user = { username: unique("nolog"), password: "no-logs-secret", email: `${unique("nolog")}@example.com` };
    await createUserWithRoles(page, baseURL!, user, []);
    let asked = false;
    page.on("request", (request) => {
      if (new URL(request.url()).pathname.startsWith("/api/admin/logs")) asked = true;
    });
    await page.goto("/logs");
    await signIn(page, user);
    await expect(page.getByRole("heading", { level: 1, name: "Request Logs" })).toBeVisible();
    await expect(page.getByText("You do not have permission to view request logs.")).toBeVisible();
    await expect(page.getByPlaceholder(PLACEHOLDER)).toHaveCount(0);
    expect(asked).toBe(false);
  });
});

/** Screenshots for the README: desktop and phone, light and dark, and the detail panel. */
mkdirSync(DOC_SHOTS, { recursive: true });
mkdirSync("e2e/screenshots", { recursive: true });

for (const size of SCREEN_SIZES) {
  for (const scheme of COLOR_SCHEMES) {
    test(`screenshot at ${size.name} in ${scheme}`, async ({ page, baseURL }) => {
      const tag = unique("logs-shot-");
      await makeTraffic(
        page,
        baseURL!,
        tag,
        { ok: 3, getErrors: 2, postErrors: 1 },
        { Accept: "application/json", "User-Agent": "ExampleMCPClient/1.4 (docs)" },
      );
      await logged(page, tag, 6);
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: "reduce" });
      await openScreen(page, "/logs", "Request Logs");
      await expect(rows(page).first()).toBeVisible();
      await expect(statValue(page, "Total Requests")).toHaveText(/^[\d,]+$/);
      await page.screenshot({ path: `${DOC_SHOTS}/logs-${size.name}-${scheme}.png`, fullPage: true });
      await expectNoSidewaysScroll(page, "/logs scrolls sideways");

      if (size.name === "desktop" && scheme === "light") {
        await searchBox(page).fill(tag);
        // The client traffic: the 404s under /api/admin are the console's own calls, hidden by default.
        await expect(rows(page)).toHaveCount(3);
        await rows(page).first().click();
        const panel = page.getByRole("dialog", { name: "Request details" });
        await expect(panel.getByRole("heading", { name: "Headers" })).toBeVisible();
        await expect(panel.locator("dt", { hasText: /^accept$/ })).toBeVisible();
        await page.screenshot({ path: `${DOC_SHOTS}/logs-detail-desktop-light.png` });
      }
      if (size.name === "phone") {
        await rows(page).first().click();
        await expect(page.getByRole("dialog", { name: "Request details" }).getByRole("heading", { name: "Headers" })).toBeVisible();
        await expectNoSidewaysScroll(page, "the panel scrolls sideways");
        await page.screenshot({ path: `e2e/screenshots/logs-detail-phone-${scheme}.png` });
      }
    });
  }
}
