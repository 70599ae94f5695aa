import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import type { AiProviderKind } from "../../contract/ai-providers";

/** What a call to a provider needs: its kind, model and key, opened from the secret box just before the call. */
export interface ProviderTarget {
  provider: AiProviderKind;
  model: string;
  apiKey: string | null;
  baseUrl: string | null;
}

/**
 * Where the hosted kinds are reached when no base URL is stored: the SDKs' own defaults, unless
 * the container is given others (tests point them at local fake servers speaking the same wire
 * formats).
 */
export type HostedBaseUrls = Partial<Record<Exclude<AiProviderKind, "openai-compatible">, string>>;

/**
 * The AI SDK model for a provider row: OpenAI through its Responses API (the SDK's default for
 * OpenAI), Anthropic Messages, Google generateContent, and an OpenAI-compatible server through
 * chat completions (what Ollama, vLLM, LM Studio and gateways speak). Every call goes through
 * `fetch`, the one that applies the upstream host rules.
 */
export function languageModelFor(
  target: ProviderTarget,
  options: { fetch: typeof globalThis.fetch; baseUrls?: HostedBaseUrls },
): LanguageModel {
  const apiKey = target.apiKey ?? "";
  const { fetch } = options;
  switch (target.provider) {
    case "openai":
      return createOpenAI({ apiKey, fetch, ...(options.baseUrls?.openai ? { baseURL: options.baseUrls.openai } : {}) })(target.model);
    case "anthropic":
      return createAnthropic({ apiKey, fetch, ...(options.baseUrls?.anthropic ? { baseURL: options.baseUrls.anthropic } : {}) })(
        target.model,
      );
    case "google":
      return createGoogleGenerativeAI({ apiKey, fetch, ...(options.baseUrls?.google ? { baseURL: options.baseUrls.google } : {}) })(
        target.model,
      );
    case "openai-compatible":
      if (!target.baseUrl) throw new Error("an OpenAI-compatible provider needs a base URL");
      return createOpenAICompatible({
        name: "openai-compatible",
        baseURL: target.baseUrl,
        fetch,
        ...(apiKey ? { apiKey } : {}),
        includeUsage: true,
      })(target.model);
  }
}
