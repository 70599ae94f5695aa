import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatStreamEvent } from "../../../contract/chat";
import { createProviderFetch } from "../../ai/provider-fetch";
import type { Database } from "../../db/client";
import { aiProviders, users } from "../../db/schema";
import { systemClock } from "../../lib/clock";
import { createLogger } from "../../lib/logger";
import { openTestDatabase } from "../../test/test-database";
import { createChatRepo } from "./chat.repo";
import { createChatService, type ChatServiceDeps } from "./chat.service";

/**
 * The turn's order of writes, where the routes cannot reach: the question's write waits for the
 * provider request (chat.error.test.ts checks it is stored while the provider thinks), so a failure
 * before any request leaves must still keep it (spec §4).
 */
describe("chat service: the question is kept", () => {
  let database: Database;
  const fetch = createProviderFetch({});
  let userId: string;
  let providerId: string;

  beforeAll(async () => {
    database = await openTestDatabase();
    const [user] = await database.db
      .insert(users)
      .values({ username: "chat-service-user", passwordHash: "not-a-hash" })
      .returning({ id: users.id });
    const [provider] = await database.db
      .insert(aiProviders)
      .values({ name: "Local", provider: "openai-compatible", model: "llama3.1", baseUrl: "http://127.0.0.1:9/v1" })
      .returning({ id: aiProviders.id });
    userId = user!.id;
    providerId = provider!.id;
  });
  afterAll(async () => {
    await fetch.close();
    await database.close();
  });

  const service = (tools: ChatServiceDeps["tools"]) =>
    createChatService({
      repo: createChatRepo(database.db),
      clock: systemClock,
      log: createLogger({ level: "silent" }),
      providers: {
        resolveForCall: async (id) => ({
          id,
          name: "Local",
          provider: "openai-compatible",
          model: "llama3.1",
          apiKey: null,
          baseUrl: "http://127.0.0.1:9/v1",
        }),
        listActive: async () => [],
      },
      tools,
      fetch,
      timeoutMs: 5_000,
    });

  it("when the turn fails before any provider request leaves (the tool offer throws)", async () => {
    const events: ChatStreamEvent[] = [];
    const failing = service({
      offer: () => Promise.reject(new Error("the integrations could not be read")),
      callTool: () => Promise.reject(new Error("never called")),
    });
    await expect(
      failing.send(
        { message: "Which bugs are open?", providerId, mcpTools: ["jira"] },
        { id: userId, permissions: new Set(["mcp.read"]) },
        { requestId: null, signal: new AbortController().signal, onEvent: (e) => events.push(e) },
      ),
    ).rejects.toThrow("the integrations could not be read");

    const started = events.find((e) => e.type === "start");
    if (started?.type !== "start") throw new Error("no start event");
    const { messages } = await failing.conversation(started.sessionId, userId);
    expect(messages.map((m) => [m.role, m.content])).toEqual([["user", "Which bugs are open?"]]);
  });

  it("a whole-answer turn stopped before it answered anything is an error, and the question is kept", async () => {
    const offerless = service({
      offer: async () => ({ tools: [], context: () => ({}) as never }),
      callTool: () => Promise.reject(new Error("never called")),
    });
    const gone = new AbortController();
    gone.abort();
    await expect(
      offerless.reply(
        { message: "Stopped at once", providerId, mcpTools: ["jira"] },
        { id: userId, permissions: new Set(["mcp.read"]) },
        { requestId: null, signal: gone.signal },
      ),
    ).rejects.toMatchObject({
      code: "upstream_failed",
      message: "The reply was stopped before it began.",
    });
    const [conversation] = await offerless.listConversations(userId);
    expect(conversation?.title).toBe("Stopped at once");
    expect((await offerless.conversation(conversation!.id, userId)).messages.map((m) => [m.role, m.content])).toEqual([
      ["user", "Stopped at once"],
    ]);
  });
});
