import { generateText } from "ai";
import { AI_PROVIDER_LABELS, type AiProviderTestResult } from "../../contract/ai-providers";
import { describeProviderFailure, redactSecrets } from "./provider-errors";
import { languageModelFor, type HostedBaseUrls, type ProviderTarget } from "./provider-model";

/**
 * How long the Test action waits for the provider: every upstream call has a timeout
 * (docs/decisions.md#upstream-timeouts-and-retries).
 */
export const PROVIDER_CHECK_TIMEOUT_MS = 15_000;
/** How much of the model's answer the console is shown (the failure's reason is bounded by describeProviderFailure). */
const MAX_TEXT = 300;

export interface ProviderCheckOptions {
  fetch: typeof globalThis.fetch;
  baseUrls?: HostedBaseUrls | undefined;
  timeoutMs?: number;
  now?: () => number;
}

/**
 * The Test action (beyond the spec): the smallest real call a provider answers, a short prompt
 * and a few output tokens (OpenAI's Responses API refuses fewer than 16), no retry. It answers
 * what the model said or why the provider refused, never throws, and never carries the key.
 * A failure reads as it does in the chat (server/ai/provider-errors.ts), save the timeout,
 * which here names its limit: a one-word prompt has no narrower question to ask.
 */
export async function checkProvider(target: ProviderTarget, options: ProviderCheckOptions): Promise<AiProviderTestResult> {
  const now = options.now ?? Date.now;
  const started = now();
  const timeoutMs = options.timeoutMs ?? PROVIDER_CHECK_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const model = languageModelFor(target, { fetch: options.fetch, ...(options.baseUrls ? { baseUrls: options.baseUrls } : {}) });
    const result = await generateText({
      model,
      prompt: "Reply with the single word: OK",
      maxOutputTokens: 16,
      maxRetries: 0,
      abortSignal: signal,
    });
    return { ok: true, answer: bounded(redactSecrets(result.text.trim(), [target.apiKey])), error: null, latencyMs: now() - started };
  } catch (err) {
    const label = AI_PROVIDER_LABELS[target.provider];
    const reason = signal.aborted
      ? `${label} did not answer within ${timeoutMs / 1000} s`
      : describeProviderFailure(err, label, { secrets: [target.apiKey] }).message;
    return { ok: false, answer: null, error: reason, latencyMs: now() - started };
  }
}

const bounded = (text: string): string => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text);
