import { describe, expect, it } from "vitest";
import type { ChatReply, Conversation, ConversationDetail } from "../../../contract/chat";
import { chatRigForFile, PROVIDER_KEY, sendStreaming, type ChatRig } from "../../test/chat-rig";
import { signedInAs } from "../../test/factories";

let chat: ChatRig;
chatRigForFile((c) => (chat = c));

const ALL = ["jira", "confluence", "bitbucket"];
const send = (body: Record<string, unknown>) => chat.rig.user.post("/api/chat/send", { mcpTools: ALL, sessionId: null, ...body });

/** The conversation that holds `message`, newest first: what the user finds after a failure. */
async function conversationWith(message: string): Promise<ConversationDetail> {
  const list = await chat.rig.user.get<{ id: string; title: string }[]>("/api/chat/conversations");
  const found = list.body.find((c) => c.title === message);
  expect(found, `a conversation titled ${message}`).toBeDefined();
  return (await chat.rig.user.get<ConversationDetail>(`/api/chat/conversations/${found!.id}`)).body;
}

describe("provider failures: a clear reason, the user's message kept", () => {
  it.each([
    [
      "a refused key",
      { status: 401 as const, message: "Incorrect API key provided." },
      502,
      "Fake openai (OpenAI) refused the API key (401): Incorrect API key provided.",
    ],
    [
      "rate limiting",
      { status: 429 as const, retryAfter: 0, message: "Rate limit reached for requests." },
      502,
      "Fake openai (OpenAI) is rate limiting requests (429): Rate limit reached for requests.",
    ],
    [
      "an unknown model",
      { status: 404 as const, message: "The model `gpt-9` does not exist." },
      502,
      "Fake openai (OpenAI) does not know this model (404): The model `gpt-9` does not exist.",
    ],
  ])("%s", async (_name, turn, status, message) => {
    chat.fake.reset();
    chat.fake.script([turn, turn, turn]);
    const question = `Failure: ${_name}`;
    const res = await send({ message: question, providerId: chat.providers.openai.id });
    expect(res.status).toBe(status);
    expect(res.body.error.message).toBe(message);
    const kept = await conversationWith(question);
    expect(kept.messages.map((m) => [m.role, m.content])).toEqual([["user", question]]);
  });

  it("a follow-up that gets no answer still makes its conversation the most recent, held with the provider it was asked with", async () => {
    chat.fake.reset();
    chat.fake.script([{ text: "First." }, { text: "Second." }]);
    const first = await send({ message: "Failure: follow-up first", providerId: chat.providers.openai.id });
    expect((await send({ message: "Failure: follow-up second", providerId: chat.providers.openai.id })).status).toBe(200);
    const refused = { status: 401 as const, message: "Incorrect API key provided." };
    chat.fake.script([refused, refused, refused]);
    const followUp = await send({ message: "And then?", providerId: chat.providers.anthropic.id, sessionId: first.body.sessionId });
    expect(followUp.status).toBe(502);
    const [latest] = (await chat.rig.user.get<Conversation[]>("/api/chat/conversations")).body;
    expect(latest).toMatchObject({ id: first.body.sessionId, providerId: chat.providers.anthropic.id });
    expect((await conversationWith("Failure: follow-up first")).messages.map((m) => [m.role, m.content])).toEqual([
      ["user", "Failure: follow-up first"],
      ["assistant", "First."],
      ["user", "And then?"],
    ]);
  });

  it("a provider that never answers: 504 within the turn's bound", async () => {
    chat.fake.reset();
    chat.fake.script([{ hang: true }]);
    // The fake never answers: a 504 comes only from the turn's own bound, which also hangs up on
    // the provider (its request is no longer open).
    const res = await send({ message: "Failure: hang", providerId: chat.providers.anthropic.id });
    expect(res.status).toBe(504);
    expect(res.body.error).toMatchObject({
      code: "upstream_timeout",
      message: "Fake anthropic (Anthropic) did not answer in time. Try again, or ask a narrower question.",
    });
    expect(chat.fake.requests[0]!.outcome).not.toBe("open");
  });

  it("while the provider has not answered, the question is already stored (a reload or a crash keeps it)", async () => {
    chat.fake.reset();
    chat.fake.script([{ hang: true }]);
    const leave = new AbortController();
    const turn = fetch(new URL("/api/chat/send", chat.rig.user.baseUrl), {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream", cookie: chat.rig.user.cookieHeader() },
      body: JSON.stringify({ message: "Failure: still thinking", providerId: chat.providers.openai.id, sessionId: null, mcpTools: ALL }),
      signal: leave.signal,
    }).then((res) => res.text());
    await expect.poll(() => chat.fake.requests[0]?.outcome, { timeout: 10_000 }).toBe("open");
    await expect
      .poll(async () => (await conversationWith("Failure: still thinking")).messages.map((m) => [m.role, m.content]), { timeout: 10_000 })
      .toEqual([["user", "Failure: still thinking"]]);
    expect(chat.fake.requests[0]!.outcome).toBe("open");
    leave.abort();
    await turn.catch(() => {});
    await expect.poll(() => chat.fake.requests[0]?.outcome, { timeout: 10_000 }).toBe("client-closed");
  });

  it("a provider answering garbage: 502, not a hang", async () => {
    chat.fake.reset();
    chat.fake.script([{ garbage: true }, { garbage: true }]);
    const res = await send({ message: "Failure: garbage", providerId: chat.providers.google.id });
    expect(res.status).toBe(502);
    expect(res.body.error.message).toMatch(/^Fake google \(Google \(Gemini\)\) /);
  });

  it("in SSE mode the failure is an error event after the start, and no answer is stored", async () => {
    chat.fake.reset();
    chat.fake.script([
      { status: 500, message: "overloaded" },
      { status: 500, message: "overloaded" },
    ]);
    const { events } = await sendStreaming(chat.rig.user, {
      message: "Failure: streamed 500",
      providerId: chat.providers["openai-compatible"].id,
      mcpTools: ALL,
    });
    expect(events.map((e) => e.type)).toEqual(["start", "error"]);
    expect(events[1]).toMatchObject({ type: "error", code: "upstream_failed", message: expect.stringContaining("(500)") });
    expect((await conversationWith("Failure: streamed 500")).messages).toHaveLength(1);
  });
});

describe("a tool error mid-turn", () => {
  it("is shown to the model and to the user; the turn completes", async () => {
    chat.fake.reset();
    chat.fake.script([{ toolCalls: [{ name: "jira_get_issue", args: { issueKey: "BK-99999" } }] }, { text: "That issue does not exist." }]);
    const res = await send({ message: "Open BK-99999", providerId: chat.providers.openai.id });
    expect(res.status, res.text).toBe(200);
    const reply = res.body as ChatReply;
    expect(reply.status).toBe("complete");
    expect(reply.mcpCalls).toEqual([
      { tool: "jira_get_issue", results: 0, error: expect.stringContaining("Jira found nothing there (404)") },
    ]);
    const toolResult = chat.fake.requests[1]!.conversation!.messages.find((m) => m.role === "tool-result");
    expect((toolResult as { text: string }).text).toContain("Jira found nothing there (404)");
  });
});

describe("Stop", () => {
  it("cancels the provider call mid-stream and keeps what was written, marked stopped", async () => {
    chat.fake.reset();
    const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");
    chat.fake.script([{ text: words, chunks: 60, chunkDelayMs: 50 }]);
    let seen = 0;
    const { events } = await sendStreaming(
      chat.rig.user,
      { message: "Stop: long answer", providerId: chat.providers.openai.id, mcpTools: ALL },
      (e) => e.type === "text" && ++seen === 3,
    );
    expect(events[0]!.type).toBe("start");
    // The provider sees the client leave (a state, waited for), then the partial answer is stored.
    await expect.poll(() => chat.fake.requests[0]?.outcome, { timeout: 10_000 }).toBe("client-closed");
    await expect.poll(async () => (await conversationWith("Stop: long answer")).messages.length, { timeout: 10_000 }).toBe(2);
    const answer = (await conversationWith("Stop: long answer")).messages[1]!;
    expect(answer.status).toBe("stopped");
    expect(answer.content.startsWith("word0")).toBe(true);
    expect(answer.content.length).toBeLessThan(words.length);
  });
});

describe("bad input: a clear error, the conversation intact", () => {
  it("refuses an empty message, no data source, an unknown or inactive provider, a huge message", async () => {
    const empty = await send({ message: "   ", providerId: chat.providers.openai.id });
    expect(empty.status).toBe(400);
    expect(empty.body.error.fields.message).toBe("Message is required");
    const none = await send({ message: "hi", providerId: chat.providers.openai.id, mcpTools: [] });
    expect(none.status).toBe(400);
    expect(none.body.error.fields.mcpTools).toBe("Select at least one data source");
    const unknownSource = await send({ message: "hi", providerId: chat.providers.openai.id, mcpTools: ["jira", "gitlab"] });
    expect(unknownSource.status).toBe(400);
    const unknown = await send({ message: "hi", providerId: "6c1b2f9e-0000-4000-8000-000000000000" });
    expect(unknown.status).toBe(404);
    const inactive = await chat.rig.admin.post("/api/ai-providers", {
      name: "Off",
      provider: "openai",
      model: "gpt-4o",
      apiKey: PROVIDER_KEY,
      isActive: false,
    });
    const refused = await send({ message: "hi", providerId: inactive.body.id });
    expect(refused.status).toBe(409);
    const huge = await send({ message: "x".repeat(1024 * 1024), providerId: chat.providers.openai.id });
    expect(huge.status).toBe(413);
    const long = await send({ message: "x".repeat(40_000), providerId: chat.providers.openai.id });
    expect(long.status).toBe(400);
    const malformed = await chat.rig.user.request("POST", "/api/chat/send", { body: "{", headers: { "content-type": "application/json" } });
    expect(malformed.status).toBe(400);
    const generate = await chat.rig.user.post("/api/chat/generate-system-message", { providerId: chat.providers.openai.id, mcpTools: [] });
    expect(generate.status).toBe(400);
  });

  it("a conversation stays its owner's: another user gets 404 for it, and cannot post into it", async () => {
    chat.fake.reset();
    chat.fake.script([{ text: "mine" }]);
    const mine = await send({ message: "Private question", providerId: chat.providers.openai.id });
    const sessionId = mine.body.sessionId;
    const other = (await signedInAs(chat.rig.t, ["viewer"])).client;
    expect((await other.get(`/api/chat/conversations/${sessionId}`)).status).toBe(404);
    expect((await other.request("PATCH", `/api/chat/conversations/${sessionId}`, { json: { title: "x" } })).status).toBe(404);
    expect((await other.request("DELETE", `/api/chat/conversations/${sessionId}`)).status).toBe(404);
    expect(
      (await other.post("/api/chat/send", { message: "in", providerId: chat.providers.openai.id, sessionId, mcpTools: ALL })).status,
    ).toBe(404);
    expect((await other.get("/api/chat/conversations")).body).toEqual([]);
    expect((await conversationWith("Private question")).messages).toHaveLength(2);
  });

  it("a malformed conversation id is as absent as any (404, the house rule); an empty title is a 400", async () => {
    expect((await chat.rig.user.get("/api/chat/conversations/not-a-uuid")).status).toBe(404);
    chat.fake.reset();
    chat.fake.script([{ text: "ok" }]);
    const mine = await send({ message: "To rename", providerId: chat.providers.openai.id });
    const res = await chat.rig.user.request("PATCH", `/api/chat/conversations/${mine.body.sessionId}`, { json: { title: "" } });
    expect(res.status).toBe(400);
    expect(res.body.error.fields.title).toBe("Title is required");
  });
});

describe("security", () => {
  it("every chat route needs a signed-in user", async () => {
    const anonymous = chat.rig.t.client();
    for (const [method, path] of [
      ["GET", "/api/chat/providers"],
      ["POST", "/api/chat/send"],
      ["POST", "/api/chat/generate-system-message"],
      ["GET", "/api/chat/conversations"],
    ] as const) {
      expect((await anonymous.request(method, path, method === "GET" ? {} : { json: {} })).status, `${method} ${path}`).toBe(401);
    }
  });

  it("a user whose role cannot read the data sources chats without tools", async () => {
    chat.fake.reset();
    chat.fake.script([{ text: "I cannot look that up." }]);
    const noRole = (await signedInAs(chat.rig.t, [])).client;
    const res = await noRole.post("/api/chat/send", { message: "Which issues?", providerId: chat.providers.openai.id, mcpTools: ALL });
    expect(res.status, res.text).toBe(200);
    expect(chat.fake.requests[0]!.conversation!.tools).toEqual([]);
    expect(chat.fake.requests[0]!.conversation!.system).toContain("no access to the data sources");
  });

  it("the provider's key never reaches a response, a log line or a stored row in clear", async () => {
    chat.fake.reset();
    chat.fake.script([{ status: 401, message: `Incorrect API key provided: ${PROVIDER_KEY}` }]);
    const res = await send({ message: "Key echo", providerId: chat.providers.openai.id });
    expect(res.status).toBe(502);
    expect(res.text).not.toContain(PROVIDER_KEY);
    expect(res.body.error.message).toContain("[API key]");
    const lists = [
      await chat.rig.admin.get("/api/ai-providers"),
      await chat.rig.user.get("/api/chat/providers"),
      await chat.rig.user.get("/api/chat/conversations"),
    ];
    for (const list of lists) expect(list.text).not.toContain(PROVIDER_KEY);
    expect(chat.rig.t.logLines.join("\n")).not.toContain(PROVIDER_KEY);
    const raw = await chat.rig.t.container.database.db.execute("select * from ai_providers");
    expect(JSON.stringify(raw)).not.toContain(PROVIDER_KEY);
  });
});
