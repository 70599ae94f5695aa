import { APICallError, generateText, stepCountIs, streamText, tool } from "ai";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { createProviderFetch } from "../../server/ai/provider-fetch";
import { languageModelFor } from "../../server/ai/provider-model";
import { startFakeAi, type FakeAi } from "./fake-ai.server";
import { HOLD_UNTIL_STOPPED_MS, SLOW_CHUNK_DELAY_MS } from "./smart-responder";

/**
 * The fake speaks each provider's wire format well enough for the real AI SDK clients: every
 * test goes through `languageModelFor`, the product's provider fetch and the SDK's own parsers.
 */
const KEY = "sk-test-fake-ai-0123456789";
const KINDS = [
  { kind: "openai", provider: "openai", model: "gpt-4o" },
  { kind: "anthropic", provider: "anthropic", model: "claude-sonnet-5-5" },
  { kind: "google", provider: "google", model: "gemini-1.5-pro" },
  { kind: "compat", provider: "openai-compatible", model: "llama3.1:8b" },
] as const;
type Kind = (typeof KINDS)[number];

let fake: FakeAi;
const fetch = createProviderFetch({});

beforeAll(async () => {
  // The SDK warns that it does not know the test's model ids (e.g. their output limits): not what these tests read.
  (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
  fake = await startFakeAi({ apiKey: KEY });
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => fake.reset());

const modelFor = (k: Kind, apiKey = KEY) =>
  languageModelFor(
    { provider: k.provider, model: k.model, apiKey, baseUrl: k.kind === "compat" ? fake.baseUrls.compat : null },
    { fetch, baseUrls: fake.baseUrls },
  );

const ISSUES = "2 issues in BK:\n- BK-1 Login fails on Safari\n- BK-2 Export times out";

/** One tool, as the chat defines its tools: a zod input schema, and a record of what it was called with. */
function jiraSearch() {
  const calls: unknown[] = [];
  const jira_search = tool({
    description: "Search Jira issues with JQL",
    inputSchema: z.object({ jql: z.string(), maxResults: z.number().int() }),
    execute: async (args) => {
      calls.push(args);
      return ISSUES;
    },
  });
  return { calls, tools: { jira_search } };
}

const ARGS = { jql: "project = BK AND issuetype = Bug ORDER BY updated DESC", maxResults: 5 };

/** The error a call ended with. */
async function failure(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (err) {
    return err;
  }
  throw new Error("the call did not fail");
}

describe.each(KINDS)("$kind wire format through the AI SDK", (k) => {
  it("a scripted tool call runs the tool with its arguments, sends the result back, and ends in text", async () => {
    fake.script([{ toolCalls: [{ name: "jira_search", args: ARGS }] }, { text: "Two bugs: **BK-1** and **BK-2**." }]);
    const { calls, tools } = jiraSearch();
    const result = await generateText({
      model: modelFor(k),
      system: "You are the test assistant.",
      prompt: "Which bugs are open?",
      tools,
      stopWhen: stepCountIs(4),
      maxRetries: 0,
    });

    expect(calls).toEqual([ARGS]);
    expect(result.text).toBe("Two bugs: **BK-1** and **BK-2**.");
    expect(result.steps).toHaveLength(2);
    expect(fake.requests).toHaveLength(2);
    const [first, second] = fake.requests;
    expect(first!.kind).toBe(k.kind);
    expect(first!.model).toBe(k.model);
    expect(first!.conversation!.system).toBe("You are the test assistant.");
    expect(first!.conversation!.tools).toEqual(["jira_search"]);
    expect(first!.conversation!.messages).toEqual([{ role: "user", text: "Which bugs are open?" }]);
    // The follow-up carries the call and its result, linked (by id, or by name for Gemini).
    const messages = second!.conversation!.messages;
    expect(messages.find((m) => m.role === "tool-call")).toMatchObject({ name: "jira_search", args: ARGS });
    const result2 = messages.find((m) => m.role === "tool-result");
    expect(result2).toMatchObject({ name: "jira_search", isError: false });
    expect((result2 as { text: string }).text).toContain("BK-1 Login fails on Safari");
    expect(result.totalUsage.inputTokens).toBeGreaterThan(0);
    expect(result.totalUsage.outputTokens).toBeGreaterThan(0);
    expect(fake.pending()).toBe(0);
  });

  it("streams text deltas in order, and reports the usage", async () => {
    fake.script([{ text: "Alpha beta gamma delta epsilon", chunks: 5 }]);
    const result = streamText({ model: modelFor(k), prompt: "Say five words", maxRetries: 0 });
    const deltas: string[] = [];
    for await (const part of result.fullStream) if (part.type === "text-delta") deltas.push(part.text);
    expect(deltas).toEqual(["Alpha", " beta", " gamma", " delta", " epsilon"]);
    expect(await result.finishReason).toBe("stop");
    const usage = await result.usage;
    expect(usage.outputTokens).toBe(5);
    expect(usage.inputTokens).toBeGreaterThan(0);
    expect(fake.requests[0]).toMatchObject({ stream: true, status: 200, outcome: "answered" });
  });

  it("streams a tool call round trip", async () => {
    fake.script([{ toolCalls: [{ name: "jira_search", args: ARGS }] }, { text: "Found BK-1 and BK-2." }]);
    const { calls, tools } = jiraSearch();
    const result = streamText({ model: modelFor(k), prompt: "Open bugs?", tools, stopWhen: stepCountIs(4), maxRetries: 0 });
    expect(await result.text).toBe("Found BK-1 and BK-2.");
    expect(calls).toEqual([ARGS]);
    expect((await result.steps)[0]!.finishReason).toBe("tool-calls");
    expect(fake.requests.map((r) => r.stream)).toEqual([true, true]);
    expect(fake.requests[1]!.conversation!.messages.some((m) => m.role === "tool-result" && m.text.includes("BK-2 Export times out"))).toBe(
      true,
    );
  });

  it("a wrong key is refused in the provider's own words", async () => {
    const err = await failure(() => generateText({ model: modelFor(k, "sk-wrong-key-9999"), prompt: "Hi", maxRetries: 0 }));
    expect(APICallError.isInstance(err)).toBe(true);
    const e = err as APICallError;
    // Gemini answers a wrong key 400 INVALID_ARGUMENT (reason API_KEY_INVALID), as the real API does.
    expect(e.statusCode).toBe(k.kind === "google" ? 400 : 401);
    expect(e.message).toMatch(
      {
        openai: /^Incorrect API key provided: sk-\*+9999\./,
        compat: /^Incorrect API key provided/,
        anthropic: /^invalid x-api-key$/,
        google: /^API key not valid/,
      }[k.kind],
    );
    expect(e.isRetryable).toBe(false);
    expect(fake.requests[0]!.status).toBe(e.statusCode);
  });

  it("a 429 is an APICallError with the provider's retry hint", async () => {
    fake.script([{ status: 429, retryAfter: 7 }]);
    const err = (await failure(() => generateText({ model: modelFor(k), prompt: "Hi", maxRetries: 0 }))) as APICallError;
    expect(APICallError.isInstance(err)).toBe(true);
    expect(err.statusCode).toBe(429);
    expect(err.isRetryable).toBe(true);
    if (k.kind === "google") expect(err.responseBody).toContain('"retryDelay":"7s"');
    else expect(err.responseHeaders?.["retry-after"]).toBe("7");
  });

  it("an unknown model is a 404 in the provider's words", async () => {
    fake.script([{ status: 404 }]);
    const err = (await failure(() => generateText({ model: modelFor(k), prompt: "Hi", maxRetries: 0 }))) as APICallError;
    expect(err.statusCode).toBe(404);
    expect(err.message).toContain(k.model);
  });

  it("a hanging call rejects promptly when aborted, and the fake sees the client leave", async () => {
    fake.script([{ hang: true }]);
    const controller = new AbortController();
    const call = generateText({ model: modelFor(k), prompt: "Hi", maxRetries: 0, abortSignal: controller.signal });
    await vi.waitFor(() => expect(fake.requests).toHaveLength(1));
    // The call hangs for good unless the abort ends it: its rejection is the proof.
    controller.abort();
    await expect(call).rejects.toThrow();
    await vi.waitFor(() => expect(fake.requests[0]!.outcome).toBe("client-closed"));
  });

  it("Stop in the middle of a stream ends the stream and the fake stops writing", async () => {
    fake.script([{ text: "one two three four five six seven eight", chunkDelayMs: 40 }]);
    const controller = new AbortController();
    const result = streamText({ model: modelFor(k), prompt: "Count", maxRetries: 0, abortSignal: controller.signal });
    const deltas: string[] = [];
    for await (const part of result.fullStream) {
      if (part.type === "text-delta") {
        deltas.push(part.text);
        if (deltas.length === 2) controller.abort();
      }
    }
    expect(deltas.join("")).toBe("one two");
    await vi.waitFor(() => expect(fake.requests[0]!.outcome).toBe("client-closed"));
  });

  it("garbage in place of the format is an error, not a hang", async () => {
    fake.script([{ garbage: true }, { garbage: true }]);
    await expect(generateText({ model: modelFor(k), prompt: "Hi", maxRetries: 0 })).rejects.toThrow();
    const streamed = streamText({ model: modelFor(k), prompt: "Hi", maxRetries: 0, onError: () => {} });
    const errors: unknown[] = [];
    for await (const part of streamed.fullStream) if (part.type === "error") errors.push(part.error);
    expect(errors.length).toBeGreaterThan(0);
  });

  it("a one-token call answers one token (the provider Test action); OpenAI refuses fewer than 16", async () => {
    fake.script([{ text: "Hello there, how can I help?" }]);
    if (k.kind === "openai") {
      const err = (await failure(() =>
        generateText({ model: modelFor(k), prompt: "Hi", maxOutputTokens: 1, maxRetries: 0 }),
      )) as APICallError;
      expect(err.statusCode).toBe(400);
      expect(err.message).toMatch(/max_output_tokens.*>= 16/);
      const ok = await generateText({ model: modelFor(k), prompt: "Hi", maxOutputTokens: 16, maxRetries: 0 });
      expect(ok.text).toBe("Hello there, how can I help?");
      return;
    }
    const result = await generateText({ model: modelFor(k), prompt: "Hi", maxOutputTokens: 1, maxRetries: 0 });
    expect(result.text).toBe("Hello");
    expect(result.finishReason).toBe("length");
    expect(result.usage.outputTokens).toBe(1);
  });
});

describe("smart mode (no script)", () => {
  it.each(KINDS)("$kind: calls the tool the question is about, then answers quoting the tool's first line", async (k) => {
    const { calls, tools } = jiraSearch();
    const result = await generateText({
      model: modelFor(k),
      prompt: "Show me the latest issues",
      tools,
      stopWhen: stepCountIs(4),
      maxRetries: 0,
    });
    expect(calls).toEqual([{ jql: "project = BK ORDER BY updated DESC", maxResults: 5 }]);
    expect(result.text).toContain("`jira_search`: 2 issues in BK:");
  });

  it("calls no tool that is not offered, and writes a system message when asked for one", async () => {
    const { tools } = jiraSearch();
    const plain = await generateText({
      model: modelFor(KINDS[1]),
      prompt: "List the Confluence pages about deployment",
      tools,
      maxRetries: 0,
    });
    expect(plain.toolCalls).toEqual([]);
    const system = await generateText({
      model: modelFor(KINDS[2]),
      prompt: "Write a system message for an assistant using Jira and Bitbucket",
      maxRetries: 0,
    });
    expect(system.text).toMatch(/Jira issues.*Bitbucket repositories/);
  });

  it("paces the streamed answer a word at a time when the question says slowly (for Stop in the browser tests)", async () => {
    const abort = new AbortController();
    const result = streamText({ model: modelFor(KINDS[3]), prompt: "Answer me slowly please", maxRetries: 0, abortSignal: abort.signal });
    const seenAt: number[] = [];
    try {
      for await (const delta of result.textStream) {
        if (delta === "") continue;
        seenAt.push(performance.now());
        if (seenAt.length === 3) abort.abort();
      }
    } catch {
      // the abort ends the stream
    }
    expect(seenAt.length).toBeGreaterThanOrEqual(3);
    expect(seenAt[2]! - seenAt[1]!).toBeGreaterThanOrEqual(SLOW_CHUNK_DELAY_MS * 0.8);
    expect(fake.requests.at(-1)?.outcome).not.toBe("answered");
  });

  it("streams the first word and holds the rest until the client goes away when the question says until stopped", async () => {
    const abort = new AbortController();
    const result = streamText({ model: modelFor(KINDS[3]), prompt: "Say hello until stopped", maxRetries: 0, abortSignal: abort.signal });
    const words: string[] = [];
    try {
      for await (const delta of result.textStream) {
        if (delta === "") continue;
        words.push(delta);
        // Nothing more comes until the client lets go (at most HOLD_UNTIL_STOPPED_MS, far beyond this test).
        setTimeout(() => abort.abort(), 4 * SLOW_CHUNK_DELAY_MS);
      }
    } catch {
      // the abort ends the stream
    }
    expect(words.join("")).toMatch(/^Hello!\s*$/);
    // The fake sees the client go away and ends the response then, not at the hold's bound.
    await vi.waitFor(() => expect(fake.requests.at(-1)?.outcome).toBe("client-closed"));
    const { firstPieceAt, endedAt } = fake.requests.at(-1)!.timing;
    expect(endedAt! - firstPieceAt!).toBeLessThan(HOLD_UNTIL_STOPPED_MS / 4);
  });

  it("a short hold after the first piece ends on its own with the whole answer", async () => {
    fake.script([{ text: "Alpha beta gamma", holdAfterFirstPieceMs: 200 }]);
    const result = streamText({ model: modelFor(KINDS[3]), prompt: "Say three words", maxRetries: 0 });
    const seenAt: number[] = [];
    for await (const delta of result.textStream) if (delta !== "") seenAt.push(performance.now());
    expect(await result.text).toBe("Alpha beta gamma");
    // The hold sits between the first piece and the second.
    expect(seenAt[1]! - seenAt[0]!).toBeGreaterThanOrEqual(200 * 0.8);
    expect(fake.requests.at(-1)).toMatchObject({ status: 200, outcome: "answered" });
  });
});

describe("the fake itself", () => {
  it("a scripted function sees each request; undefined leaves the answer to smart mode", async () => {
    const seen: string[] = [];
    fake.script((req) => {
      seen.push(req.conversation!.messages.at(-1)!.role);
      return req.conversation!.tools.length > 0 ? undefined : { text: "scripted" };
    });
    const { calls, tools } = jiraSearch();
    expect((await generateText({ model: modelFor(KINDS[0]), prompt: "Hi", maxRetries: 0 })).text).toBe("scripted");
    await generateText({ model: modelFor(KINDS[0]), prompt: "Any bugs?", tools, stopWhen: stepCountIs(4), maxRetries: 0 });
    expect(calls).toHaveLength(1);
    expect(seen).toEqual(["user", "user", "tool-result"]);
  });

  it("with knownModels, another model is that provider's 404", async () => {
    const strict = await startFakeAi({ knownModels: ["gemini-1.5-flash"] });
    try {
      const model = languageModelFor(
        { provider: "google", model: "gemini-9", apiKey: "any", baseUrl: null },
        { fetch, baseUrls: strict.baseUrls },
      );
      const err = (await failure(() => generateText({ model, prompt: "Hi", maxRetries: 0 }))) as APICallError;
      expect(err.statusCode).toBe(404);
      expect(err.message).toMatch(/^models\/gemini-9 is not found/);
    } finally {
      await strict.close();
    }
  });

  it("close() releases a hanging request at once", async () => {
    const other = await startFakeAi();
    other.script([{ hang: true }]);
    const model = languageModelFor(
      { provider: "anthropic", model: "claude-haiku-5-5", apiKey: "any", baseUrl: null },
      { fetch, baseUrls: other.baseUrls },
    );
    const call = generateText({ model, prompt: "Hi", maxRetries: 0 });
    await vi.waitFor(() => expect(other.requests).toHaveLength(1));
    // The request hangs for good unless close() releases it.
    await other.close();
    await expect(call).rejects.toThrow();
    expect(other.requests[0]!.outcome).toBe("server-closed");
  });
});
