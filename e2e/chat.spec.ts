import { copyFileSync, mkdirSync } from "node:fs";
import { request, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { CHAT_TEXT, DATA_SOURCES, type ChatProvider, type ChatReply, type Conversation, type ConversationDetail } from "../contract/chat";
import { TOASTS } from "../contract/messages";
import { E2E_FAKE_AI_URL, E2E_PORT } from "../playwright.config";
import { DOC_SHOTS, expect, test } from "./fixtures";
import {
  ADMIN,
  COLOR_SCHEMES,
  createUserWithRoles,
  expectNoSidewaysScroll,
  dismissToasts,
  expectToast,
  SCREEN_SIZES,
  signIn,
  toasts,
  unique,
  pointIntegrationsAtSandbox,
} from "./helpers";

/**
 * The AI chat (spec §2, §4, §5, §7, §8; docs/decisions.md#chat-conversations; issue 13) against the
 * real server, the sandbox's Jira, Confluence and Bitbucket, and the fake AI provider in smart mode
 * (sandbox/fake-ai: it picks a tool by the question's keywords; "slowly" paces its answer a
 * word every 150 ms, and "until stopped" streams the first word and holds the rest until the
 * browser lets go). Each worker adds its own providers, so tests pick theirs by name in the
 * Configure dialog.
 */

const BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
const MODEL = "fake-model-1";

/** The Configure dialog's option for a provider: name, provider, model (spec §2). */
const optionLabel = (name: string) => `${name} (OpenAI-compatible · ${MODEL})`;

let providers: { good: string; broken: string; inactive: string };

async function adminContext(): Promise<APIRequestContext> {
  const context = await request.newContext({
    baseURL: BASE_URL,
    storageState: { cookies: [], origins: [] },
    extraHTTPHeaders: { Origin: BASE_URL },
  });
  expect((await context.post("/api/login", { data: ADMIN })).status()).toBe(200);
  return context;
}

test.beforeAll(async () => {
  const api = await adminContext();
  try {
    // The tools answer from the sandbox.
    await pointIntegrationsAtSandbox(api);
    const create = async (name: string, baseUrl: string, isActive = true) => {
      const created = await api.post("/api/ai-providers", {
        data: { name, provider: "openai-compatible", model: MODEL, apiKey: "", baseUrl, isActive },
      });
      expect(created.status(), await created.text()).toBe(201);
      return name;
    };
    providers = {
      good: await create(unique("Fake AI "), `${E2E_FAKE_AI_URL}/compat/v1`),
      // The fake answers 404 in JSON on any path it does not speak: the provider's reason.
      broken: await create(unique("Broken AI "), `${E2E_FAKE_AI_URL}/nowhere/v1`),
      inactive: await create(unique("Inactive AI "), `${E2E_FAKE_AI_URL}/compat/v1`, false),
    };
  } finally {
    await api.dispose();
  }
});

const log = (page: Page) => page.getByRole("log", { name: "Conversation" });
const mine = (page: Page) => log(page).getByRole("article", { name: "You" });
const answers = (page: Page) => log(page).getByRole("article", { name: "Assistant" });
const input = (page: Page) => page.getByPlaceholder(CHAT_TEXT.placeholder);
const sendButton = (page: Page) => page.getByRole("button", { name: "Send message" });
const stopButton = (page: Page) => page.getByRole("button", { name: "Stop generating" });

async function openChat(page: Page): Promise<void> {
  await page.goto("/chat");
  await expect(page.getByRole("heading", { level: 1, name: CHAT_TEXT.title })).toBeVisible();
  await expect(page.getByText(CHAT_TEXT.subtitle)).toBeVisible();
}

/** Chooses the provider in the Configure dialog and applies it. */
async function useProvider(page: Page, name: string): Promise<void> {
  await page.getByRole("button", { name: CHAT_TEXT.configure, exact: true }).click();
  const dialog = page.getByRole("dialog", { name: CHAT_TEXT.dialogTitle });
  await dialog.getByLabel("AI Provider").selectOption({ label: optionLabel(name) });
  await dialog.getByRole("button", { name: CHAT_TEXT.apply }).click();
  await expect(dialog).toBeHidden();
  await expectToast(page, TOASTS.chat.appliedTitle);
  await expect(page.getByLabel("Chat settings in use").getByText(name, { exact: true })).toBeVisible();
  // The toast sits over the composer's corner for a while: close it, as a user would.
  await dismissToasts(page);
}

/** A conversation's entry in the list (its name is the title, then its time). */
const conversations = (page: Page) => page.getByRole("navigation", { name: "Conversations" });
const newChatButton = (page: Page) => conversations(page).getByRole("button", { name: "New chat" });
const entryNamed = (page: Page, title: string) =>
  conversations(page).getByRole("button", { name: new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`) });

async function ask(page: Page, question: string): Promise<void> {
  await input(page).fill(question);
  await input(page).press("Enter");
  await expect(mine(page).last()).toContainText(question);
}

/** Opens the chat with the good provider and starts a conversation with a question of its own, answered; its text. */
async function startConversation(page: Page, prefix: string): Promise<string> {
  await openChat(page);
  await useProvider(page, providers.good);
  const question = `Hello from ${unique(prefix)}`;
  await ask(page, question);
  await expect(answers(page).last()).toContainText("What would you like to know?");
  return question;
}

/**
 * Opens the chat and asks for the greeting held after its first word: a reply still streaming
 * once that word shows, until Stop (not one that may have ended by the time Stop is pressed).
 * `question` says "until stopped"; make it unique to find its conversation with storedStatuses.
 */
async function askUntilStopped(page: Page, question: string): Promise<Locator> {
  await openChat(page);
  await useProvider(page, providers.good);
  await ask(page, question);
  const answer = answers(page).last();
  await expect(answer).toContainText("Hello!");
  return answer;
}

/**
 * The stored statuses of the messages of the conversation titled `question` ([] until it is
 * listed). The server stores a stopped answer as the turn ends, after the browser has let go of it:
 * poll this.
 */
async function storedStatuses(page: Page, question: string): Promise<string[]> {
  const list = (await (await page.request.get("/api/chat/conversations")).json()) as Conversation[];
  const conversation = list.find((c) => c.title === question);
  if (!conversation) return [];
  const detail = (await (await page.request.get(`/api/chat/conversations/${conversation.id}`)).json()) as ConversationDetail;
  return detail.messages.map((m) => m.status);
}

/** A reply ended by Stop: the button gone, the answer marked Stopped, and stored so (once the turn has ended on the server). */
async function expectStopped(page: Page, answer: Locator, question: string): Promise<void> {
  await expect(stopButton(page)).toBeHidden();
  await expect(answer).toContainText("Stopped");
  await expect.poll(() => storedStatuses(page, question)).toEqual(["complete", "stopped"]);
}

test("the empty chat suggests questions; one chosen is sent and answered from its data source (open bugs, not Done ones)", async ({
  page,
}) => {
  await openChat(page);
  await useProvider(page, providers.good);
  const suggestions = page.getByRole("list", { name: "Suggested questions" }).getByRole("button");
  await expect(suggestions).toHaveText([
    "Which Jira bugs are open?",
    "Find the Confluence pages about deployment",
    "List open pull requests",
  ]);
  await suggestions.first().click();
  await expect(mine(page)).toContainText("Which Jira bugs are open?");
  const answer = answers(page).last();
  await expect(answer.getByText(/^jira_search: \d+ results$/)).toBeVisible();
  await expect(answer).toContainText("Ask me to dig into any of these.");
  await expect(answer).not.toContainText("more: call again");
  await expect(answer).not.toContainText(/\bDone\b/);
});

test("a Jira question streams its answer with the tool's badge and a citation", async ({ page }) => {
  await openChat(page);
  await expect(page.getByText(CHAT_TEXT.emptyTitle)).toBeVisible();
  await useProvider(page, providers.good);
  await expect(page.getByLabel("Chat settings in use").getByText("3 data sources")).toBeVisible();

  // Send stays disabled on empty text; Shift+Enter is a new line, not a send.
  await expect(sendButton(page)).toBeDisabled();
  await input(page).fill("Show me the latest Jira issues");
  await input(page).press("Shift+Enter");
  await expect(input(page)).toHaveValue("Show me the latest Jira issues\n");
  await input(page).fill("Show me the latest Jira issues, slowly");
  await input(page).press("Enter");
  await expect(mine(page)).toContainText("Show me the latest Jira issues, slowly");
  await expect(input(page)).toHaveValue("");

  // The answer comes word by word (every 150 ms), after the tool's badge. The streaming state
  // (Stop, Send disabled, the log busy) is checked on a reply that holds: see the Stop test.
  const answer = answers(page).last();
  await expect(answer).toContainText("Here is what I found");
  await expect(answer.getByText(/^jira_search: \d+ results$/)).toBeVisible();

  // Done: the whole answer, Markdown rendered, the citation links, the token usage.
  await expect(answer).toContainText("Ask me to dig into any of these.", { timeout: 30_000 });
  await expect(stopButton(page)).toBeHidden();
  await expect(answer.locator("ul li").first()).toBeVisible();
  await expect(answer.locator("code").first()).toHaveText("jira_search");
  const sources = answer.getByRole("navigation", { name: "Sources" });
  const link = sources.getByRole("link").first();
  await expect(link).toHaveAttribute("href", /\/browse\/[A-Z]+-\d+$/);
  await expect(link).toHaveAttribute("target", "_blank");
  await expect(link).toHaveAttribute("rel", "noopener noreferrer");
  // The source opens: the page (the sandbox's /browse/KEY, as Jira's would), not a 404.
  const key = /\/browse\/([A-Z]+-\d+)$/.exec((await link.getAttribute("href"))!)![1]!;
  const [opened] = await Promise.all([page.waitForEvent("popup"), link.click()]);
  await expect(opened).toHaveTitle(new RegExp(`^${key}: `));
  await expect(opened.getByRole("heading", { level: 1 })).toContainText(key);
  await expect(opened.getByText("Status", { exact: true })).toBeVisible();
  await opened.close();
  await expect(answer.getByText(/^Tokens: \d[\d,.\s]* in · \d+ out$/)).toBeVisible();
  await expect(log(page)).toHaveAttribute("aria-live", "polite");
  await expect(log(page)).toHaveAttribute("aria-busy", "false");
});

test("the configuration dialog: active providers only, the sources rule, Ask AI, Cancel and Apply", async ({ page }) => {
  await openChat(page);
  await page.getByRole("button", { name: CHAT_TEXT.configure, exact: true }).click();
  const dialog = page.getByRole("dialog", { name: CHAT_TEXT.dialogTitle });
  const select = dialog.getByLabel("AI Provider");
  await expect(select.locator("option", { hasText: providers.good })).toHaveText(optionLabel(providers.good));
  await expect(select.locator("option", { hasText: providers.inactive })).toHaveCount(0);
  await select.selectOption({ label: optionLabel(providers.good) });

  // All three sources by default, with their labels and descriptions.
  for (const { label, description } of DATA_SOURCES) {
    await expect(dialog.getByRole("checkbox", { name: label })).toBeChecked();
    await expect(dialog.getByRole("checkbox", { name: label })).toHaveAccessibleDescription(description);
  }
  await expect(dialog.getByLabel("System Message (optional)")).toHaveValue("");
  await expect(dialog.getByLabel("System Message (optional)")).toHaveAttribute("rows", "4");

  // No source: Apply disabled, the warning shown (in a live region that was there before it), Ask
  // AI refused with the spec's toast.
  await expect(dialog.getByRole("status")).toHaveText("");
  for (const label of ["Jira Issues", "Confluence Pages", "Bitbucket Repositories"])
    await dialog.getByRole("checkbox", { name: label }).click();
  await expect(dialog.getByText(CHAT_TEXT.sourcesWarning)).toBeVisible();
  await expect(dialog.getByRole("status")).toHaveText(CHAT_TEXT.sourcesWarning);
  await expect(dialog.getByRole("button", { name: CHAT_TEXT.apply })).toBeDisabled();
  await dialog.getByRole("button", { name: CHAT_TEXT.askAi }).click();
  await expectToast(page, CHAT_TEXT.configRequiredTitle, CHAT_TEXT.configRequired);

  // One source: Ask AI fills the system message. The answer is held until the busy state is seen:
  // "Generating...", the message box and Apply disabled meanwhile.
  await dialog.getByRole("checkbox", { name: "Jira Issues" }).click();
  await expect(dialog.getByText(CHAT_TEXT.sourcesWarning)).toBeHidden();
  await expect(dialog.getByRole("button", { name: CHAT_TEXT.apply })).toBeEnabled();
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/chat/generate-system-message", async (route) => {
    await held;
    await route.continue();
  });
  await dialog.getByRole("button", { name: CHAT_TEXT.askAi }).click();
  await expect(dialog.getByRole("button", { name: CHAT_TEXT.generating })).toBeDisabled();
  await expect(dialog.getByLabel("System Message (optional)")).toBeDisabled();
  await expect(dialog.getByRole("button", { name: CHAT_TEXT.apply })).toBeDisabled();
  release();
  await expect(dialog.getByLabel("System Message (optional)")).toHaveValue(/You are an enterprise assistant.*Jira issues/);
  await expectToast(page, TOASTS.chat.generatedTitle, TOASTS.chat.generated);

  // Cancel keeps the chat's settings; Apply takes the new ones.
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  // The dialog has no Radix trigger: focus still goes back to the button that opened it.
  await expect(page.getByRole("button", { name: CHAT_TEXT.configure, exact: true })).toBeFocused();
  await expect(page.getByLabel("Chat settings in use").getByText("3 data sources")).toBeVisible();
  await page.getByRole("button", { name: CHAT_TEXT.configure, exact: true }).click();
  await expect(dialog.getByLabel("System Message (optional)")).toHaveValue("");
  await dialog.getByRole("checkbox", { name: "Bitbucket Repositories" }).click();
  await dialog.getByRole("button", { name: CHAT_TEXT.apply }).click();
  await expectToast(page, TOASTS.chat.appliedTitle, TOASTS.chat.applied);
  await expect(page.getByLabel("Chat settings in use").getByText("2 data sources")).toBeVisible();
  await expect(page.getByRole("button", { name: CHAT_TEXT.configure, exact: true })).toBeFocused();
});

test("a failing Ask AI shows the Generation Failed toast and keeps the system message as it was", async ({ page }) => {
  await page.route("**/api/chat/generate-system-message", (route) =>
    route.fulfill({
      status: 502,
      contentType: "application/json",
      body: JSON.stringify({ error: { code: "upstream_failed", message: "The AI provider did not answer." }, requestId: "e2e" }),
    }),
  );
  await openChat(page);
  await page.getByRole("button", { name: CHAT_TEXT.configure, exact: true }).click();
  const dialog = page.getByRole("dialog", { name: CHAT_TEXT.dialogTitle });
  await dialog.getByLabel("AI Provider").selectOption({ label: optionLabel(providers.good) });
  await dialog.getByLabel("System Message (optional)").fill("Answer in French.");
  await dialog.getByRole("button", { name: CHAT_TEXT.askAi }).click();
  // Spec §8 word for word.
  await expectToast(page, TOASTS.chat.generationFailedTitle, TOASTS.chat.generationFailed);
  await expect(dialog.getByLabel("System Message (optional)")).toHaveValue("Answer in French.");
  await expect(dialog.getByRole("button", { name: CHAT_TEXT.askAi })).toBeEnabled();
});

test("without an active provider the input is disabled and the empty state offers the set-up", async ({ page }) => {
  // What a server with no active provider answers (other tests' providers share this server).
  await page.route("**/api/chat/providers", (route) => route.fulfill({ status: 200, contentType: "application/json", body: "[]" }));
  await openChat(page);
  await expect(page.getByText(CHAT_TEXT.emptyTitle)).toBeVisible();
  await expect(page.getByLabel("Chat settings in use").getByText("No provider")).toBeVisible();
  await expect(input(page)).toBeDisabled();
  await page.getByRole("button", { name: CHAT_TEXT.setUp }).click();
  const dialog = page.getByRole("dialog", { name: CHAT_TEXT.dialogTitle });
  await expect(dialog.getByText("No active AI provider.")).toBeVisible();
  await expect(dialog.getByLabel("AI Provider")).toHaveCount(0);
  await expect(dialog.getByRole("button", { name: CHAT_TEXT.apply })).toBeDisabled();
});

test("when the provider list cannot be loaded the chat says so and Retry recovers", async ({ page }) => {
  let failing = true;
  await page.route("**/api/chat/providers", (route) =>
    failing
      ? route.fulfill({
          status: 500,
          contentType: "application/json",
          body: JSON.stringify({ error: { code: "internal", message: "The server failed." }, requestId: "e2e" }),
        })
      : route.continue(),
  );
  await openChat(page);
  const alert = page.getByRole("alert").filter({ hasText: "The AI providers could not be loaded." });
  await expect(alert).toBeVisible();
  // The server's reason, as it wrote it.
  await expect(alert).toContainText("The server failed.");
  await expect(input(page)).toBeDisabled();
  await expect(page.getByRole("button", { name: CHAT_TEXT.setUp })).toHaveCount(0);
  failing = false;
  await alert.getByRole("button", { name: "Retry" }).click();
  await expect(alert).toHaveCount(0);
  await expect(input(page)).toBeEnabled();
});

test("on load the first active provider is chosen and all three data sources: the input is ready", async ({ page }) => {
  // Two active providers, in the server's order (spec §4: the first is auto-selected).
  const listed = [
    { id: "00000000-0000-4000-8000-000000000001", name: unique("First AI "), provider: "openai", model: "gpt-4o" },
    { id: "00000000-0000-4000-8000-000000000002", name: unique("Second AI "), provider: "anthropic", model: "claude-x" },
  ];
  await page.route("**/api/chat/providers", (route) =>
    route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify(listed) }),
  );
  await openChat(page);
  const inUse = page.getByLabel("Chat settings in use");
  await expect(inUse.getByText(listed[0]!.name, { exact: true })).toBeVisible();
  await expect(inUse.getByText("3 data sources")).toBeVisible();
  await expect(page.getByText(CHAT_TEXT.emptyTitle)).toBeVisible();
  await expect(page.getByText(`Ask about your enterprise data. ${listed[0]!.name} searches the chosen data sources`)).toBeVisible();
  await expect(page.getByRole("button", { name: CHAT_TEXT.setUp })).toHaveCount(0);
  await expect(input(page)).toBeEnabled();
  await expect(sendButton(page)).toBeDisabled();
  await input(page).fill("   ");
  await expect(sendButton(page)).toBeDisabled();
  await input(page).fill("Anything open?");
  await expect(sendButton(page)).toBeEnabled();
});

test("while a reply streams Stop is shown and Send disabled; Stop keeps the partial answer, marked stopped, and the chat goes on", async ({
  page,
}) => {
  const question = `Say hello until stopped, ${unique("stop-")}`;
  const answer = await askUntilStopped(page, question);
  // Streaming (held after its first word): Stop shown, Send disabled even with text in the box,
  // the log busy, the answer not at its end.
  await expect(stopButton(page)).toBeVisible();
  await input(page).fill("Hello again");
  await expect(sendButton(page)).toBeDisabled();
  await expect(log(page)).toHaveAttribute("aria-busy", "true");
  await expect(answer).not.toContainText("What would you like to know?");

  await stopButton(page).click();
  // The reply ended at Stop, not at its end: stored as stopped.
  await expectStopped(page, answer, question);
  await expect(page.getByText(CHAT_TEXT.thinking)).toBeHidden();
  // The next question is answered in the same conversation.
  await ask(page, "Hello again");
  await expect(answers(page)).toHaveCount(2);
  await expect(answers(page).last()).toContainText("What would you like to know?");
});

test("Escape in the message box stops a streaming reply; the partial answer stays, marked stopped", async ({ page }) => {
  const question = `Say hello until stopped, ${unique("escape-")}`;
  const answer = await askUntilStopped(page, question);
  await expect(input(page)).toBeFocused();
  await input(page).press("Escape");
  await expectStopped(page, answer, question);
  await expect(answer).toContainText("Hello!");
  await expect(log(page)).toHaveAttribute("aria-busy", "false");
});

test("a reopened conversation shows its stopped answer still marked Stopped", async ({ page }) => {
  const question = `Say hello until stopped, ${unique("stopped-")}`;
  const answer = await askUntilStopped(page, question);
  await stopButton(page).click();
  await expectStopped(page, answer, question);

  await newChatButton(page).click();
  await expect(page.getByText(CHAT_TEXT.emptyTitle)).toBeVisible();
  await entryNamed(page, question).click();
  await expect(mine(page)).toContainText(question);
  await expect(answers(page)).toHaveCount(1);
  await expect(answers(page)).toContainText("Hello!");
  await expect(answers(page)).toContainText("Stopped");
});

test("a tool call that fails shows its error badge, live and in the reopened conversation", async ({ page }) => {
  await openChat(page);
  await useProvider(page, providers.good);
  // The fake model asks bitbucket_list_pull_requests for a repository the sandbox does not have.
  const question = `List the pull requests in no-such-repo ${unique("")}`;
  await ask(page, question);
  const errorBadge = () =>
    answers(page)
      .last()
      .locator("[data-slot='badge']")
      .filter({ hasText: /^bitbucket_list_pull_requests: / });
  const expectErrorBadge = async () => {
    await expect(errorBadge()).toContainText("Repository bridgekeeper/no-such-repo not found.");
    await expect(errorBadge()).not.toContainText("results");
    await expect(errorBadge()).toHaveClass(/destructive/);
  };
  await expectErrorBadge();
  await expect(answers(page).last()).toContainText("Ask me to dig into any of these.");

  await newChatButton(page).click();
  await entryNamed(page, question).click();
  await expect(mine(page)).toContainText(question);
  await expectErrorBadge();
});

test("New chat while a conversation is still opening shows the empty chat, not the loading skeleton", async ({ page }) => {
  const question = await startConversation(page, "opening-");
  await newChatButton(page).click();

  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/chat/conversations/*", async (route) => {
    if (route.request().method() !== "GET") return route.fallback();
    await held;
    await route.fallback();
  });
  await entryNamed(page, question).click();
  await expect(page.getByLabel("Loading the conversation")).toBeVisible();
  await newChatButton(page).click();
  await expect(page.getByLabel("Loading the conversation")).toBeHidden();
  await expect(page.getByText(CHAT_TEXT.emptyTitle)).toBeVisible();
  release();
  await expect(mine(page)).toHaveCount(0);
});

test("a failing provider keeps the user's message and shows the error toast with its reason", async ({ page }) => {
  await openChat(page);
  await useProvider(page, providers.broken);
  await ask(page, "Hello, is anyone there?");
  // Spec §8 word for word ("Failed to send message"), the provider's reason on its own line.
  const shown = await expectToast(page, TOASTS.errorTitle, TOASTS.chat.sendFailed);
  await expect(shown).toContainText(new RegExp(`${TOASTS.chat.sendFailed}.+`, "s"));
  await expect(mine(page)).toContainText("Hello, is anyone there?");
  await expect(page.getByText(CHAT_TEXT.thinking)).toBeHidden();
  await expect(stopButton(page)).toBeHidden();
  await input(page).fill("Try again");
  await expect(sendButton(page)).toBeEnabled();
});

test("conversations: listed, reopened with their messages, renamed and deleted after confirmation", async ({ page }) => {
  const question = await startConversation(page, "list-");
  const list = conversations(page);
  const entry = entryNamed(page, question);
  await expect(entry).toHaveAttribute("aria-current", "true");

  // A new chat empties the screen; the conversation comes back from the list.
  await list.getByRole("button", { name: "New chat" }).click();
  await expect(page.getByText(CHAT_TEXT.emptyTitle)).toBeVisible();
  await entry.click();
  await expect(mine(page)).toContainText(question);
  await expect(answers(page)).toContainText("What would you like to know?");

  // Rename.
  const renamed = unique("Renamed ");
  await list.getByRole("button", { name: `Actions for ${question}` }).click();
  await page.getByRole("menuitem", { name: "Rename" }).click();
  const rename = page.getByRole("dialog", { name: "Rename conversation" });
  await rename.getByLabel("Title").fill(renamed);
  await rename.getByRole("button", { name: "Save" }).click();
  await expect(rename).toBeHidden();
  await expect(entryNamed(page, renamed)).toBeVisible();
  // Opened from a menu item (no trigger), the dialog still gives focus back to the conversation's actions.
  await expect(list.getByRole("button", { name: `Actions for ${renamed}` })).toBeFocused();

  // Delete: Cancel keeps it; Delete removes it and empties the screen.
  await list.getByRole("button", { name: `Actions for ${renamed}` }).click();
  await page.getByRole("menuitem", { name: "Delete" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete this conversation?" });
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(entryNamed(page, renamed)).toBeVisible();
  await expect(list.getByRole("button", { name: `Actions for ${renamed}` })).toBeFocused();
  await list.getByRole("button", { name: `Actions for ${renamed}` }).click();
  await page.getByRole("menuitem", { name: "Delete" }).click();
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(confirm).toBeHidden();
  await expect(entryNamed(page, renamed)).toHaveCount(0);
  await expect(page.getByText(CHAT_TEXT.emptyTitle)).toBeVisible();
  // The conversation is gone: focus goes to New chat.
  await expect(list.getByRole("button", { name: "New chat" })).toBeFocused();
});

test.describe("a user with no role at all", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test("can chat and sees only their own conversations", async ({ page, baseURL }) => {
    // The admin's conversation, which this user must not see.
    const adminQuestion = `Hello from the admin ${unique("")}`;
    const api = await adminContext();
    let adminConversation: string;
    try {
      const listed = (await (await api.get("/api/chat/providers")).json()) as ChatProvider[];
      const providerId = listed.find((p) => p.name === providers.good)!.id;
      const sent = await api.post("/api/chat/send", { data: { message: adminQuestion, providerId, sessionId: null, mcpTools: ["jira"] } });
      expect(sent.status(), await sent.text()).toBe(200);
      adminConversation = ((await sent.json()) as ChatReply).sessionId;
      const adminList = (await (await api.get("/api/chat/conversations")).json()) as Conversation[];
      expect(adminList.map((c) => c.title)).toContain(adminQuestion);
    } finally {
      await api.dispose();
    }

    const user = { username: unique("chatter"), password: "chatter-password-1", email: `${unique("chatter")}@example.com` };
    await createUserWithRoles(page, baseURL!, user, []);
    await page.goto("/chat");
    await signIn(page, user);
    await expect(page.getByRole("heading", { level: 1, name: CHAT_TEXT.title })).toBeVisible();
    await expect(conversations(page).getByText("No conversations yet")).toBeVisible();
    await useProvider(page, providers.good);
    await ask(page, "Hello there");
    await expect(answers(page).last()).toContainText("What would you like to know?");
    await expect(entryNamed(page, "Hello there")).toBeVisible();
    await expect(conversations(page).getByRole("listitem")).toHaveCount(1);
    await expect(entryNamed(page, adminQuestion)).toHaveCount(0);
    expect((await page.request.get(`/api/chat/conversations/${adminConversation}`)).status()).toBe(404);
  });
});

// A user of their own, so the list shows their conversations only, not what the other tests left.
test.describe("screenshots", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test("screenshots of a real conversation, light and dark, desktop and phone; nothing scrolls sideways", async ({ page, baseURL }) => {
    test.slow(); // many screens, sizes or rows: three times the configured bound
    mkdirSync("e2e/screenshots", { recursive: true });
    mkdirSync(DOC_SHOTS, { recursive: true });
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.setViewportSize({ width: 1440, height: 900 });
    const user = {
      username: unique("priya."),
      password: "screenshot-password-1",
      email: `${unique("priya")}@example.com`,
      firstName: "Priya",
      lastName: "Raman",
    };
    await createUserWithRoles(page, baseURL!, user, ["viewer"]);
    await page.goto("/chat");
    await signIn(page, user);
    await openChat(page);
    await useProvider(page, providers.good);
    await ask(page, "Which Confluence pages document the deployment runbook?");
    await expect(answers(page).last()).toContainText("Ask me to dig into any of these.");
    await page.getByRole("button", { name: "New chat" }).click();
    const question = "Which Jira bugs are open? Summarize them.";
    await ask(page, question);
    await expect(answers(page).last()).toContainText("Ask me to dig into any of these.");
    await expect(answers(page).last().getByRole("navigation", { name: "Sources" })).toBeVisible();

    for (const size of SCREEN_SIZES) {
      for (const scheme of COLOR_SCHEMES) {
        await page.setViewportSize({ width: size.width, height: size.height });
        await page.emulateMedia({ colorScheme: scheme, reducedMotion: "reduce" });
        await openChat(page);
        if (size.name === "phone") await page.getByRole("button", { name: "Conversations" }).click();
        await entryNamed(page, question).first().click();
        await expect(answers(page).last()).toContainText("Ask me to dig into any of these.");
        await expect(toasts(page)).toHaveCount(0);
        const file = `chat-${size.name}-${scheme}.png`;
        await page.screenshot({ path: `e2e/screenshots/${file}` });
        await expectNoSidewaysScroll(page, "/chat scrolls sideways");
        if (file !== "chat-phone-dark.png") copyFileSync(`e2e/screenshots/${file}`, `${DOC_SHOTS}/${file}`);
        if (scheme === "light") {
          // The configuration dialog, and on a phone the conversation list over the chat.
          await page.getByRole("button", { name: CHAT_TEXT.configure, exact: true }).click();
          await expect(page.getByRole("dialog", { name: CHAT_TEXT.dialogTitle })).toBeVisible();
          await page.screenshot({ path: `e2e/screenshots/chat-dialog-${size.name}-${scheme}.png` });
          await page.keyboard.press("Escape");
          await expect(page.getByRole("dialog", { name: CHAT_TEXT.dialogTitle })).toBeHidden();
          if (size.name === "phone") {
            await page.getByRole("button", { name: "Conversations" }).click();
            await expect(entryNamed(page, question).first()).toBeVisible();
            await page.screenshot({ path: `e2e/screenshots/chat-conversations-${size.name}-${scheme}.png` });
            await page.getByRole("button", { name: "Conversations" }).click();
          }
        }
      }
    }
  });
});
