import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeAi, type FakeAi } from "../../sandbox/fake-ai/fake-ai.server";
import { checkProvider } from "./provider-check";
import { createProviderFetch } from "./provider-fetch";

/** The Test action's call against the fake providers: its answer, or the reason the chat would give. */
const KEY = "sk-test-provider-check-0123456789";
let fake: FakeAi;
const fetch = createProviderFetch({});

beforeAll(async () => {
  (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
  fake = await startFakeAi({ apiKey: KEY });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const compat = (apiKey: string | null) => ({
  provider: "openai-compatible" as const,
  model: "llama3.1:8b",
  apiKey,
  baseUrl: fake.baseUrls.compat,
});

describe("checkProvider", () => {
  it("answers what the model said", async () => {
    fake.script([{ text: "OK" }]);
    // The time shown ("Answered in N ms") is the call's own, from the clock it is given.
    const clock = [1_000, 1_250];
    const result = await checkProvider(compat(KEY), { fetch, now: () => clock.shift()! });
    expect(result).toEqual({ ok: true, answer: "OK", error: null, latencyMs: 250 });
  });

  it("cuts the key out of an answer that quotes it", async () => {
    fake.script([{ text: `Your key is ${KEY}` }]);
    const result = await checkProvider(compat(KEY), { fetch });
    expect(result.answer).toBe("Your key is [API key]");
  });

  it("gives a refusal in the chat's words (describeProviderFailure), without the key", async () => {
    fake.script([{ status: 401, message: `Incorrect API key provided: ${KEY}` }]);
    const result = await checkProvider(
      { provider: "openai", model: "gpt-4o", apiKey: KEY, baseUrl: null },
      { fetch, baseUrls: fake.baseUrls },
    );
    expect(result.ok).toBe(false);
    expect(result.answer).toBeNull();
    expect(result.error).toMatch(/^OpenAI refused the API key \(401\): /);
    expect(result.error).not.toContain(KEY);
  });

  it("names an unknown model and an unreachable server", async () => {
    fake.script([{ status: 404, message: "model nope not found" }]);
    expect(
      (await checkProvider({ provider: "anthropic", model: "nope", apiKey: KEY, baseUrl: null }, { fetch, baseUrls: fake.baseUrls })).error,
    ).toMatch(/^Anthropic does not know this model \(404\)/);
    const down = await checkProvider({ ...compat(KEY), baseUrl: "http://127.0.0.1:9/v1" }, { fetch });
    expect(down).toMatchObject({ ok: false, error: expect.stringMatching(/^OpenAI-compatible could not be reached/) });
  });

  it("says how long it waited when the provider does not answer", async () => {
    fake.script([{ hang: true }]);
    const result = await checkProvider(compat(KEY), { fetch, timeoutMs: 300 });
    expect(result).toMatchObject({ ok: false, answer: null, error: "OpenAI-compatible did not answer within 0.3 s" });
  });
});
