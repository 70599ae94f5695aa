import { describe, expect, it } from "vitest";
import type { AiProviderKind } from "../../../contract/ai-providers";
import type { ChatReply, Conversation, ConversationDetail } from "../../../contract/chat";
import { chatRigForFile, sendStreaming, type ChatRig } from "../../test/chat-rig";
import { CHAT_CLIENT_ID } from "../../modules/chat/chat.service";

let chat: ChatRig;
chatRigForFile((c) => (chat = c));

const ALL = ["jira", "confluence", "bitbucket"];
const QUESTION = "Which Jira issues were updated recently?";

describe("POST /api/chat/send: a question that needs a JQL search", () => {
  it.each(["openai", "anthropic", "google", "openai-compatible"] as AiProviderKind[])(
    "%s: calls jira_search on the sandbox, answers, and cites the issues it names",
    async (kind) => {
      chat.fake.reset();
      const res = await chat.rig.user.post<ChatReply>("/api/chat/send", {
        message: QUESTION,
        providerId: chat.providers[kind].id,
        sessionId: null,
        mcpTools: ALL,
      });
      expect(res.status, res.text).toBe(200);
      const reply = res.body;
      expect(reply).toMatchObject({ role: "assistant", status: "complete", mcpCalls: [{ tool: "jira_search", results: 5, error: null }] });
      expect(reply.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(Date.parse(reply.timestamp)).not.toBeNaN();
      expect(reply.usage?.inputTokens).toBeGreaterThan(0);
      expect(reply.usage?.outputTokens).toBeGreaterThan(0);

      // The model was given the tool's compact text, and answered from it.
      const [first, second] = chat.fake.requests;
      expect(first!.conversation!.tools).toContain("jira_search");
      const result = second!.conversation!.messages.find((m) => m.role === "tool-result");
      expect(result).toMatchObject({ role: "tool-result", isError: false });
      const firstKey = /\b(BK-\d+)\b/.exec((result as { text: string }).text)![1]!;
      expect(reply.content).toContain(firstKey);

      expect(reply.citations.length).toBeGreaterThan(0);
      expect(reply.citations[0]).toEqual({
        kind: "jira",
        title: expect.stringMatching(new RegExp(`^${firstKey}: `)),
        url: `${chat.rig.sandbox.url}/browse/${firstKey}`,
      });
      for (const c of reply.citations) expect(reply.content).toContain(c.title.split(":")[0]);
    },
  );

  it("sends the provider's key the way each provider expects it, and the chat's instructions as the system message", async () => {
    chat.fake.reset();
    await chat.rig.user.post("/api/chat/send", {
      message: "hello",
      providerId: chat.providers.anthropic.id,
      mcpTools: ALL,
      systemMessage: "Answer in French.",
    });
    const [request] = chat.fake.requests;
    expect(request!.headers["x-api-key"]).toBe("sk-test-chat-4f9a2c7e1b");
    expect(request!.conversation!.system).toContain("Bridgekeeper");
    expect(request!.conversation!.system).toContain("Answer in French.");
  });
});

describe("what the model may call", () => {
  it("offers only the chosen data sources' tools, and only tools that read", async () => {
    chat.fake.reset();
    chat.fake.script([{ text: "ok" }]);
    await chat.rig.user.post("/api/chat/send", { message: "x", providerId: chat.providers.openai.id, mcpTools: ["confluence"] });
    const tools = chat.fake.requests[0]!.conversation!.tools;
    expect(tools.length).toBeGreaterThan(0);
    expect(tools.every((t) => t.startsWith("confluence_"))).toBe(true);
    expect(tools).toContain("confluence_search");
    expect(tools).not.toContain("confluence_create_page");
  });

  it("records every tool call in the tool-call audit under the chat and the signed-in user", async () => {
    chat.fake.reset();
    chat.fake.script([{ toolCalls: [{ name: "jira_get_issue", args: { issueKey: "BK-1" } }] }, { text: "BK-1 it is." }]);
    const res = await chat.rig.user.post<ChatReply>("/api/chat/send", {
      message: "Open BK-1",
      providerId: chat.providers.google.id,
      mcpTools: ["jira"],
    });
    expect(res.body.mcpCalls).toEqual([{ tool: "jira_get_issue", results: 1, error: null }]);
    // A get tool's object is cited whether or not the answer repeats its title.
    expect(res.body.citations[0]).toMatchObject({ kind: "jira", url: `${chat.rig.sandbox.url}/browse/BK-1` });
    await chat.rig.t.container.services.toolCalls.flush();
    const audit = await chat.rig.admin.get("/api/admin/tool-calls?tool=jira_get_issue");
    expect(audit.status).toBe(200);
    expect(audit.body.items[0]).toMatchObject({ clientId: CHAT_CLIENT_ID, tool: "jira_get_issue", outcome: "ok", objects: ["BK-1"] });
    expect(audit.body.items[0].userId).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("streaming (Accept: text/event-stream)", () => {
  it("streams the conversation id, the tool call as it starts and ends, the text in pieces, then the stored reply", async () => {
    chat.fake.reset();
    const { status, events } = await sendStreaming(chat.rig.user, {
      message: QUESTION,
      providerId: chat.providers["openai-compatible"].id,
      mcpTools: ALL,
    });
    expect(status).toBe(200);
    const types = events.map((e) => e.type);
    expect(types[0]).toBe("start");
    expect(types.indexOf("tool-start")).toBeLessThan(types.indexOf("tool-end"));
    expect(types.filter((t) => t === "text").length).toBeGreaterThan(3);
    expect(types.at(-1)).toBe("done");
    const start = events[0] as Extract<(typeof events)[number], { type: "start" }>;
    const done = events.at(-1) as Extract<(typeof events)[number], { type: "done" }>;
    expect(start.userMessage).toMatchObject({ role: "user", content: QUESTION });
    expect(done.message.sessionId).toBe(start.sessionId);
    const streamed = events.flatMap((e) => (e.type === "text" ? [e.delta] : [])).join("");
    expect(streamed).toBe(done.message.content);
    expect(events.find((e) => e.type === "tool-end")).toMatchObject({ tool: "jira_search", results: 5, error: null });
  });
});

describe("conversations", () => {
  it("keeps context across turns, lists the user's conversations, renames and deletes them", async () => {
    chat.fake.reset();
    chat.fake.script([{ text: "The answer is 42." }, { text: "You asked about the answer." }]);
    const first = await chat.rig.user.post<ChatReply>("/api/chat/send", {
      message: "What is the answer?",
      providerId: chat.providers.openai.id,
      sessionId: null,
      mcpTools: ALL,
    });
    const sessionId = first.body.sessionId;
    const second = await chat.rig.user.post<ChatReply>("/api/chat/send", {
      message: "What did I ask?",
      providerId: chat.providers.openai.id,
      sessionId,
      mcpTools: ALL,
    });
    expect(second.body.sessionId).toBe(sessionId);
    const context = chat.fake.requests[1]!.conversation!.messages.filter((m) => m.role === "user" || m.role === "assistant");
    expect(context).toEqual([
      { role: "user", text: "What is the answer?" },
      { role: "assistant", text: "The answer is 42." },
      { role: "user", text: "What did I ask?" },
    ]);

    const list = await chat.rig.user.get<Conversation[]>("/api/chat/conversations");
    expect(list.body[0]).toMatchObject({ id: sessionId, title: "What is the answer?", providerId: chat.providers.openai.id });
    const detail = await chat.rig.user.get<ConversationDetail>(`/api/chat/conversations/${sessionId}`);
    expect(detail.body.messages.map((m) => [m.role, m.content])).toEqual([
      ["user", "What is the answer?"],
      ["assistant", "The answer is 42."],
      ["user", "What did I ask?"],
      ["assistant", "You asked about the answer."],
    ]);

    const renamed = await chat.rig.user.request<Conversation>("PATCH", `/api/chat/conversations/${sessionId}`, {
      json: { title: "  The answer  " },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.title).toBe("The answer");
    expect((await chat.rig.user.request("DELETE", `/api/chat/conversations/${sessionId}`)).status).toBe(204);
    expect((await chat.rig.user.get(`/api/chat/conversations/${sessionId}`)).status).toBe(404);
  });
});

describe("the chat's provider list and the system message generator", () => {
  it("lists the active providers only, with name, provider and model, to any signed-in user", async () => {
    const off = await chat.rig.admin.post("/api/ai-providers", {
      name: "Switched off",
      provider: "openai",
      model: "gpt-4o",
      apiKey: "sk-other-000011112222",
      isActive: false,
    });
    expect(off.status).toBe(201);
    const res = await chat.rig.user.get("/api/chat/providers");
    expect(res.status).toBe(200);
    expect(res.body.map((p: { name: string }) => p.name)).not.toContain("Switched off");
    expect(res.body.find((p: { id: string }) => p.id === chat.providers.google.id)).toEqual({
      id: chat.providers.google.id,
      name: "Fake google",
      provider: "google",
      model: "gemini-1.5-pro",
    });
    expect(JSON.stringify(res.body)).not.toMatch(/apiKey|sk-/);
  });

  it("POST /api/chat/generate-system-message answers the provider's system message", async () => {
    chat.fake.reset();
    const res = await chat.rig.user.post("/api/chat/generate-system-message", {
      providerId: chat.providers.anthropic.id,
      mcpTools: ["jira", "bitbucket"],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.systemMessage).toMatch(/Jira/);
    expect(chat.fake.requests[0]!.conversation!.messages.at(-1)).toMatchObject({
      role: "user",
      text: expect.stringContaining("system message"),
    });
  });
});
