import { createHash, randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import {
  expect,
  request,
  test,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
} from "@playwright/test";
import { CHAT_TEXT } from "../../contract/chat";
import type { LogEntryDto } from "../../contract/logs";
import { dismissToasts, openEventStream, toasts } from "../../e2e/helpers";
import { SHOTS_ADMIN_PASSWORD, SHOTS_BASE_URL } from "../../playwright.screenshots.config";

/**
 * The README's screenshots (docs/screenshots/, committed), by `npm run screenshots`: a fresh
 * server set up like `npm run demo`, then a team's worth of clean, named data made through the
 * real APIs (OAuth clients signed in by people, MCP traffic from them, open event streams, a
 * second user, a chat conversation), then each screen once its data shows. Every wait is for a
 * state, bounded by the configuration's timeouts.
 */

const OUT = "docs/screenshots";
const BASE = SHOTS_BASE_URL;
const ADMIN = { username: "admin", password: SHOTS_ADMIN_PASSWORD };
const MARIA = {
  username: "maria.lopez",
  password: "maria-lopez-console-1",
  email: "maria.lopez@example.com",
  firstName: "Maria",
  lastName: "Lopez",
};
const JAMES = {
  username: "james.okafor",
  password: "james-okafor-console-1",
  email: "james.okafor@example.com",
  firstName: "James",
  lastName: "Okafor",
};
const DEMO_PROVIDER = "Demo assistant (offline)";
const CHAT_QUESTION = "Which Jira bugs are open?";

const SIZES = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;
type Size = (typeof SIZES)[number];
type Scheme = "light" | "dark";
const SCHEMES: readonly Scheme[] = ["light", "dark"];

/** The AI clients people use, as an administrator registers them, and who signs each one in. */
const CLIENTS = {
  claude: {
    name: "Claude Desktop",
    clientType: "public",
    redirectUris: ["https://claude.ai/api/mcp/auth_callback"],
    scopes: ["read", "write"],
    userAgent: "Claude-User/0.14.10 (Claude Desktop; macOS 15.6)",
  },
  cursor: {
    name: "Cursor",
    clientType: "public",
    redirectUris: ["cursor://anysphere.cursor-retrieval/oauth/user-mcp/callback"],
    scopes: ["read", "write"],
    userAgent: "Cursor/1.5.11 (darwin arm64)",
  },
  vscode: {
    name: "VS Code",
    clientType: "public",
    redirectUris: ["http://127.0.0.1:33418/", "https://vscode.dev/redirect"],
    scopes: ["read"],
    userAgent: "Visual-Studio-Code/1.104.1 (linux x64)",
  },
  bot: {
    name: "CI reporting bot",
    clientType: "confidential",
    redirectUris: ["https://ci.example.com/oauth/callback"],
    scopes: ["read"],
    userAgent: "ci-reporter/2.3.0 (+https://ci.example.com)",
  },
} as const;
type ClientKey = keyof typeof CLIENTS;

/** Made by the first test, used by the rest (one worker, in order). */
const state: {
  adminState?: Awaited<ReturnType<BrowserContext["storageState"]>>;
  tokens: Partial<Record<ClientKey, string>>;
  streams: { close: () => void }[];
} = { tokens: {}, streams: [] };

test.describe.configure({ mode: "serial" });

async function apiAs(user: { username: string; password: string }): Promise<APIRequestContext> {
  const context = await request.newContext({
    baseURL: BASE,
    storageState: { cookies: [], origins: [] },
    extraHTTPHeaders: { Origin: BASE },
  });
  const login = await context.post("/api/login", { data: user });
  expect(login.status(), `${user.username} signs in`).toBe(200);
  return context;
}

async function created<T>(
  response: Promise<{ status(): number; json(): Promise<unknown>; text(): Promise<string> }>,
  what: string,
): Promise<T> {
  const answer = await response;
  expect(answer.status(), `${what}: ${await answer.text()}`).toBe(201);
  return (await answer.json()) as T;
}

/** A user with roles, through the Users API. */
async function createUser(admin: APIRequestContext, user: typeof MARIA, roleNames: string[]): Promise<void> {
  const { id } = await created<{ id: string }>(admin.post("/api/users", { data: { ...user, isActive: true } }), `user ${user.username}`);
  const roles = (await (await admin.get("/api/roles")).json()) as { id: string; name: string }[];
  const roleIds = roleNames.map((name) => roles.find((r) => r.name === name)?.id ?? "");
  expect(roleIds).not.toContain("");
  expect((await admin.put(`/api/users/${id}/roles`, { data: { roleIds } })).status()).toBe(200);
}

/**
 * What a desktop AI client does on first use: the authorization-code flow with PKCE, the person
 * approving on the consent page (its API), then the code redeemed for a token.
 */
async function signInClient(person: APIRequestContext, clientId: string, redirectUri: string, scopes: readonly string[]): Promise<string> {
  const verifier = randomBytes(32).toString("base64url");
  const url = new URL("/oauth/authorize", BASE);
  const params = {
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirectUri,
    scope: scopes.join(" "),
    state: randomBytes(8).toString("hex"),
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const authorize = await person.get(url.toString(), { maxRedirects: 0 });
  expect(authorize.status(), await authorize.text()).toBe(302);
  const consentId = /\/oauth-consent\/([\w-]+)$/.exec(authorize.headers()["location"] ?? "")?.[1];
  expect(consentId, `the consent page's address: ${authorize.headers()["location"]}`).toBeTruthy();
  const decision = await person.post(`/api/oauth/requests/${consentId}/decision`, { data: { approve: true } });
  expect(decision.status(), await decision.text()).toBe(200);
  const code = new URL(((await decision.json()) as { redirectTo: string }).redirectTo).searchParams.get("code");
  expect(code).toBeTruthy();
  const token = await person.post("/oauth/token", {
    form: { grant_type: "authorization_code", code: code!, code_verifier: verifier, redirect_uri: redirectUri, client_id: clientId },
  });
  expect(token.status(), await token.text()).toBe(200);
  return ((await token.json()) as { access_token: string }).access_token;
}

let rpcId = 0;
/** One MCP request as a client sends it (protocol 2025-11-25); the JSON-RPC answer (JSON or one SSE message). */
async function mcp(
  api: APIRequestContext,
  client: ClientKey,
  method: string,
  params?: unknown,
): Promise<{ result?: { isError?: boolean; tools?: unknown[] }; error?: unknown } | null> {
  const notification = method.startsWith("notifications/");
  const response = await api.post("/mcp", {
    headers: {
      authorization: `Bearer ${state.tokens[client]}`,
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
      "mcp-protocol-version": "2025-11-25",
      "user-agent": CLIENTS[client].userAgent,
    },
    data: { jsonrpc: "2.0", method, ...(notification ? {} : { id: ++rpcId }), ...(params === undefined ? {} : { params }) },
  });
  expect(response.status(), `${CLIENTS[client].name} ${method}: ${await response.text()}`).toBeLessThan(300);
  if (notification) return null;
  const text = await response.text();
  const json = text.trimStart().startsWith("{") ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? "null");
  return JSON.parse(json) as { result?: { isError?: boolean }; error?: unknown };
}

/** A tool call that answers without a tool error (or, with `fails`, with one). */
async function callTool(
  api: APIRequestContext,
  client: ClientKey,
  name: string,
  args: Record<string, unknown>,
  fails = false,
): Promise<void> {
  const answer = await mcp(api, client, "tools/call", { name, arguments: args });
  expect(answer?.error, `${name}: ${JSON.stringify(answer)}`).toBeUndefined();
  expect(Boolean(answer?.result?.isError), `${name} ${fails ? "fails" : "answers"}: ${JSON.stringify(answer).slice(0, 500)}`).toBe(fails);
}

async function startSession(api: APIRequestContext, client: ClientKey): Promise<void> {
  const init = await mcp(api, client, "initialize", {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: CLIENTS[client].name, version: "1.0" },
  });
  expect(init?.result, JSON.stringify(init)).toBeTruthy();
  await mcp(api, client, "notifications/initialized");
  const list = await mcp(api, client, "tools/list");
  expect(list?.result?.tools?.length ?? 0).toBeGreaterThan(0);
}

/** GET /api/sse/stream as an MCP client keeps it open; resolves once `connected` arrived. */
async function openStream(client: ClientKey): Promise<{ close: () => void }> {
  const token = state.tokens[client];
  if (!token) throw new Error(`${client} has no token yet`);
  const stream = await openEventStream(BASE, token, CLIENTS[client].userAgent);
  stream.ended.catch(() => undefined);
  return stream;
}

const MCP_REQUESTS = { count: 0 };

test("a team's data through the real APIs", async ({ browser }) => {
  const admin = await apiAs(ADMIN);
  try {
    // The administrator's own name, and two colleagues.
    const me = ((await (await admin.get("/api/session")).json()) as { user: { id: string } }).user;
    expect(
      (
        await admin.put(`/api/users/${me.id}`, { data: { firstName: "Alex", lastName: "Morgan", email: "alex.morgan@example.com" } })
      ).status(),
    ).toBe(200);
    await createUser(admin, MARIA, ["operator"]);
    await createUser(admin, JAMES, ["viewer"]);

    // The AI clients, registered on the console (the newest is listed first: Claude Desktop).
    const ids = {} as Record<ClientKey, { clientId: string; clientSecret: string | null }>;
    for (const key of (Object.keys(CLIENTS) as ClientKey[]).reverse()) {
      const { name, clientType, redirectUris, scopes } = CLIENTS[key];
      ids[key] = await created(
        admin.post("/api/admin/oauth-clients", { data: { name, clientType, redirectUris, scopes, isActive: true } }),
        `client ${name}`,
      );
    }

    // People sign their clients in; the bot takes a client_credentials token.
    const maria = await apiAs(MARIA);
    try {
      state.tokens.claude = await signInClient(admin, ids.claude.clientId, CLIENTS.claude.redirectUris[0], CLIENTS.claude.scopes);
      state.tokens.vscode = await signInClient(admin, ids.vscode.clientId, CLIENTS.vscode.redirectUris[0], CLIENTS.vscode.scopes);
      state.tokens.cursor = await signInClient(maria, ids.cursor.clientId, CLIENTS.cursor.redirectUris[0], CLIENTS.cursor.scopes);
    } finally {
      await maria.dispose();
    }
    const basic = Buffer.from(`${encodeURIComponent(ids.bot.clientId)}:${encodeURIComponent(ids.bot.clientSecret!)}`).toString("base64");
    const botToken = await admin.post("/oauth/token", {
      form: { grant_type: "client_credentials", scope: "read" },
      headers: { authorization: `Basic ${basic}` },
    });
    expect(botToken.status(), await botToken.text()).toBe(200);
    state.tokens.bot = ((await botToken.json()) as { access_token: string }).access_token;

    // Their MCP traffic: what an assistant asks Jira, Confluence and Bitbucket in a morning.
    const mcpBefore = rpcId;
    const api = await request.newContext({ baseURL: BASE, storageState: { cookies: [], origins: [] } });
    try {
      let notifications = 0;
      for (const key of ["claude", "cursor", "vscode"] as const) {
        await startSession(api, key);
        notifications++;
      }
      await callTool(api, "claude", "jira_search", { jql: "project = BK AND status != Done ORDER BY updated DESC", maxResults: 10 });
      await callTool(api, "claude", "jira_get_issue", { issueKey: "BK-2" });
      await callTool(api, "claude", "confluence_search", { cql: 'type = page AND text ~ "runbook"', limit: 5 });
      await callTool(api, "cursor", "bitbucket_list_pull_requests", { repository: "api-gateway" });
      await callTool(api, "cursor", "jira_get_issue", { issueKey: "BK-4821" }, true);
      await callTool(api, "cursor", "jira_search", {
        jql: "project = BK AND assignee = currentUser() ORDER BY priority DESC",
        maxResults: 10,
      });
      await callTool(api, "vscode", "confluence_search", { cql: 'space = ENG AND title ~ "architecture"', limit: 5 });
      await callTool(api, "bot", "jira_search", { jql: "project = BK AND status = Done ORDER BY updated DESC", maxResults: 25 });
      MCP_REQUESTS.count = rpcId - mcpBefore + notifications;
    } finally {
      await api.dispose();
    }

    // More providers for the chat beside the demo's offline one.
    await created(
      admin.post("/api/ai-providers", {
        data: {
          name: "Production OpenAI",
          provider: "openai",
          model: "gpt-4o",
          apiKey: "sk-proj-Zq4mT8vKc2NwR7yH1pLx3bA9",
          isActive: true,
        },
      }),
      "provider Production OpenAI",
    );
    await created(
      admin.post("/api/ai-providers", {
        data: {
          name: "Claude for support",
          provider: "anthropic",
          model: "claude-sonnet-4-5",
          apiKey: "sk-ant-api03-Hb6YwK2mQ9tR4vXe",
          isActive: false,
        },
      }),
      "provider Claude for support",
    );

    // The request log is written in batches: wait until it holds every MCP request.
    // (Rows of /mcp itself: the search would also count /api/mcp/health, which the start-up probes.)
    const mcpRows = async () =>
      ((await (await admin.get(`/api/admin/logs?search=${encodeURIComponent("/mcp")}&limit=5000`)).json()) as LogEntryDto[]).filter(
        (e) => e.endpoint === "/mcp",
      ).length;
    await expect.poll(mcpRows, { message: "the MCP requests are in the log", timeout: 30_000 }).toBeGreaterThanOrEqual(MCP_REQUESTS.count);
  } finally {
    await admin.dispose();
  }

  // The administrator's browser session, for every screen below.
  const context = await browser.newContext({ baseURL: BASE });
  expect((await context.request.post("/api/login", { data: ADMIN, headers: { Origin: BASE } })).status()).toBe(200);
  state.adminState = await context.storageState();
  await context.close();

  // Two assistants keep an event stream open while the screens are shot.
  state.streams.push(await openStream("claude"), await openStream("cursor"));
});

test.afterAll(() => {
  for (const stream of state.streams) stream.close();
});

async function screen(browser: Browser, size: Size, scheme: Scheme): Promise<{ page: Page; context: BrowserContext }> {
  expect(state.adminState, "the data step ran").toBeTruthy();
  const context = await browser.newContext({
    baseURL: BASE,
    storageState: state.adminState,
    viewport: { width: size.width, height: size.height },
    colorScheme: scheme,
    reducedMotion: "reduce",
    locale: "en-US",
    timezoneId: "Europe/Berlin",
  });
  return { page: await context.newPage(), context };
}

/** The screen as loaded: its heading, no skeleton, no error, no toast. */
async function open(page: Page, path: string, heading: string): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
  await settled(page);
}

async function settled(page: Page): Promise<void> {
  await expect(page.locator("[data-slot='skeleton']")).toHaveCount(0);
  await expect(page.getByRole("alert")).toHaveCount(0);
  await expect(toasts(page)).toHaveCount(0);
  await expect
    .poll(() => page.evaluate<number>("document.documentElement.scrollWidth - document.documentElement.clientWidth"), {
      message: "nothing scrolls sideways",
    })
    .toBeLessThanOrEqual(0);
}

const shotPath = (name: string, size: Size, scheme: Scheme) => `${OUT}/${name}-${size.name}-${scheme}.png`;

/** From the top of the page (a full-page capture draws a sticky header where the page was scrolled to). */
async function shoot(page: Page, path: string, { fullPage = false } = {}): Promise<void> {
  await page.evaluate("window.scrollTo(0, 0)");
  await expect.poll(() => page.evaluate<number>("window.scrollY"), { message: "the page is at its top" }).toBe(0);
  await page.screenshot({ path, fullPage });
}
const card = (page: Page, name: string): Locator => page.getByRole("region", { name, exact: true });

mkdirSync(OUT, { recursive: true });

test("Dashboard", async ({ browser }) => {
  for (const size of SIZES) {
    for (const scheme of SCHEMES) {
      const { page, context } = await screen(browser, size, scheme);
      await open(page, "/", "Server Dashboard");
      // A working installation: every set-up step done, so no Get started checklist.
      await expect(page.getByRole("region", { name: "Get started" })).toHaveCount(0);
      await expect(card(page, "Atlassian Integration").getByRole("progressbar")).toBeVisible();
      await expect(card(page, "Bitbucket Integration").getByRole("progressbar")).toBeVisible();
      await expect(card(page, "Recent Activity").getByRole("listitem").first()).toBeVisible();
      await expect(card(page, "Traffic").locator(".bk-chart canvas")).toHaveCount(3);
      await settled(page);
      // The whole page, by a viewport as tall as the page rather than fullPage: Chromium's
      // full-page capture draws the canvases at a transient size (see e2e/dashboard.spec.ts).
      const height = await page.evaluate<number>("document.documentElement.scrollHeight");
      await page.setViewportSize({ width: size.width, height });
      await expect(card(page, "Traffic").locator(".bk-chart canvas")).toHaveCount(3);
      await shoot(page, shotPath("dashboard", size, scheme));
      await context.close();
    }
  }
});

const logRows = (page: Page) => page.getByRole("region", { name: "Request log" }).locator("[data-log-id]");

test("Request Logs", async ({ browser }) => {
  for (const size of SIZES) {
    for (const scheme of SCHEMES) {
      const { page, context } = await screen(browser, size, scheme);
      await open(page, "/logs", "Request Logs");
      await expect(logRows(page).filter({ hasText: "jira_search" }).first()).toBeVisible();
      await expect(logRows(page).filter({ hasText: "Tool error" }).first()).toBeVisible();
      await settled(page);
      await shoot(page, shotPath("logs", size, scheme), { fullPage: true });
      if (size.name === "desktop" && scheme === "light") {
        await logRows(page).filter({ hasText: "jira_search" }).filter({ hasText: "Claude Desktop" }).first().click();
        const panel = page.getByRole("dialog", { name: "Request details" });
        await expect(panel.getByRole("heading", { name: "Headers" })).toBeVisible();
        await expect(panel.locator("dt", { hasText: /^mcp-protocol-version$/ })).toBeVisible();
        await expect(panel.locator("[data-slot='skeleton']")).toHaveCount(0);
        await shoot(page, `${OUT}/logs-detail-desktop-light.png`);
      }
      await context.close();
    }
  }
});

test("SSE Connections", async ({ browser }) => {
  for (const size of SIZES) {
    for (const scheme of SCHEMES) {
      const { page, context } = await screen(browser, size, scheme);
      await open(page, "/sse-connections", "SSE Connections");
      for (const client of ["claude", "cursor"] as const) await expect(page.getByText(CLIENTS[client].userAgent).first()).toBeVisible();
      await settled(page);
      await shoot(page, shotPath("sse-connections", size, scheme), { fullPage: true });
      await context.close();
    }
  }
});

test("API Endpoints", async ({ browser }) => {
  for (const size of SIZES) {
    for (const scheme of SCHEMES) {
      const { page, context } = await screen(browser, size, scheme);
      await open(page, "/api-endpoints", "API Endpoints");
      await expect(page.getByRole("region", { name: "Total Endpoints" })).toContainText(/\d/);
      await settled(page);
      await shoot(page, shotPath("api-endpoints", size, scheme), { fullPage: true });
      await context.close();
    }
  }
});

const conversationList = (page: Page) => page.getByRole("navigation", { name: "Conversations" });
const answers = (page: Page) => page.getByRole("log", { name: "Conversation" }).getByRole("article", { name: "Assistant" });

test("AI Chat", async ({ browser }) => {
  // The conversation, asked on the chat screen with the demo's offline provider.
  {
    const { page, context } = await screen(browser, SIZES[0], "light");
    await open(page, "/chat", CHAT_TEXT.title);
    await page.getByRole("button", { name: CHAT_TEXT.configure, exact: true }).click();
    const dialog = page.getByRole("dialog", { name: CHAT_TEXT.dialogTitle });
    await dialog.getByLabel("AI Provider").selectOption({ label: `${DEMO_PROVIDER} (OpenAI-compatible · demo-model)` });
    await dialog.getByRole("button", { name: CHAT_TEXT.apply }).click();
    await expect(dialog).toBeHidden();
    // Shot without the "applied" toast.
    await dismissToasts(page);
    const input = page.getByPlaceholder(CHAT_TEXT.placeholder);
    await input.fill(CHAT_QUESTION);
    await input.press("Enter");
    await expect(answers(page).last()).toContainText("Ask me to dig into any of these.", { timeout: 30_000 });
    await expect(answers(page).last().getByRole("navigation", { name: "Sources" })).toBeVisible();
    await context.close();
  }
  for (const [size, scheme] of [
    [SIZES[0], "light"],
    [SIZES[0], "dark"],
    [SIZES[1], "light"],
  ] as const) {
    const { page, context } = await screen(browser, size, scheme);
    await open(page, "/chat", CHAT_TEXT.title);
    if (size.name === "phone") await page.getByRole("button", { name: "Conversations" }).click();
    await conversationList(page)
      .getByRole("button", { name: new RegExp(`^${CHAT_QUESTION.replace(/[?]/g, "\\?")}`) })
      .click();
    await expect(answers(page).last()).toContainText("Ask me to dig into any of these.");
    await expect(page.getByLabel("Chat settings in use").getByText(DEMO_PROVIDER, { exact: true })).toBeVisible();
    await settled(page);
    await shoot(page, shotPath("chat", size, scheme));
    await context.close();
  }
});

test("AI Providers", async ({ browser }) => {
  for (const [size, scheme] of [
    [SIZES[0], "light"],
    [SIZES[0], "dark"],
    [SIZES[1], "light"],
  ] as const) {
    const { page, context } = await screen(browser, size, scheme);
    await open(page, "/ai-providers", "AI Providers");
    const demo = page.getByRole("article", { name: DEMO_PROVIDER, exact: true });
    for (const name of [DEMO_PROVIDER, "Production OpenAI", "Claude for support"])
      await expect(page.getByRole("article", { name, exact: true })).toBeVisible();
    await demo.getByRole("button", { name: `Test ${DEMO_PROVIDER}` }).click();
    await expect(demo.getByRole("status")).toContainText("Answered in");
    await settled(page);
    await shoot(page, shotPath("ai-providers", size, scheme), { fullPage: true });
    await context.close();
  }
});

test("OAuth Clients and Configuration", async ({ browser }) => {
  for (const [size, scheme] of [
    [SIZES[0], "light"],
    [SIZES[0], "dark"],
    [SIZES[1], "light"],
  ] as const) {
    const { page, context } = await screen(browser, size, scheme);
    await open(page, "/oauth-clients", "OAuth Clients");
    for (const client of Object.values(CLIENTS)) await expect(page.getByText(client.name, { exact: true }).first()).toBeVisible();
    await settled(page);
    await shoot(page, shotPath("oauth-clients", size, scheme), { fullPage: true });
    if (size.name === "desktop") {
      await open(page, "/configuration", "Configuration");
      await settled(page);
      await shoot(page, shotPath("configuration", size, scheme), { fullPage: true });
    }
    await context.close();
  }
});
