import { APICallError, generateText, RetryError } from "ai";
import type { AiProviderTestResult } from "../../contract/ai-providers";
import { HostNotAllowedError } from "../upstream/host-policy";
import { languageModelFor, type HostedBaseUrls, type ProviderTarget } from "./provider-model";

/** How long the Test action waits for the provider (D24: every upstream call has a timeout). */
export const PROVIDER_CHECK_TIMEOUT_MS = 15_000;
/** How much of the model's answer or the provider's reason the console is shown. */
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
 */
export async function checkProvider(target: ProviderTarget, options: ProviderCheckOptions): Promise<AiProviderTestResult> {
  const now = options.now ?? Date.now;
  const started = now();
  const signal = AbortSignal.timeout(options.timeoutMs ?? PROVIDER_CHECK_TIMEOUT_MS);
  const scrub = (text: string) => bounded(redact(text, target.apiKey));
  try {
    const model = languageModelFor(target, { fetch: options.fetch, ...(options.baseUrls ? { baseUrls: options.baseUrls } : {}) });
    const result = await generateText({ model, prompt: "Reply with the single word: OK", maxOutputTokens: 16, maxRetries: 0, abortSignal: signal });
    return { ok: true, answer: scrub(result.text.trim()), error: null, latencyMs: now() - started };
  } catch (err) {
    const reason = signal.aborted ? `The provider did not answer within ${Math.round((options.timeoutMs ?? PROVIDER_CHECK_TIMEOUT_MS) / 1000)} s` : describeProviderError(err);
    return { ok: false, answer: null, error: scrub(reason), latencyMs: now() - started };
  }
}

/**
 * A provider's refusal as a person reads it: "401: Incorrect API key provided" (the HTTP status
 * and the provider's own message), a connection failure with its cause, or the host rule.
 */
export function describeProviderError(err: unknown): string {
  const error = RetryError.isInstance(err) ? err.lastError : err;
  const refused = findCause(error, (e): e is HostNotAllowedError => e instanceof HostNotAllowedError);
  if (refused) return refused.message;
  if (APICallError.isInstance(error)) {
    const message = error.message.trim() || "The provider refused the request";
    return error.statusCode !== undefined ? `${error.statusCode}: ${message}` : message;
  }
  if (error instanceof Error && error.message) return error.message;
  return "The provider call failed";
}

function findCause<T>(err: unknown, test: (e: unknown) => e is T): T | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) if (test(e)) return e;
  return undefined;
}

/** A provider may quote the key back (some do, masked or not): it never reaches the console. */
function redact(text: string, apiKey: string | null): string {
  return apiKey ? text.split(apiKey).join("[redacted]") : text;
}

const bounded = (text: string): string => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text);
