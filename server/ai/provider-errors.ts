import { APICallError, RetryError } from "ai";
import { HostNotAllowedError } from "../upstream/host-policy";

/** Why a provider call failed, in a sentence for the console (never the key: provider messages do not echo it, and we cut them). */
export interface ProviderFailure {
  /** The house error code: upstream_timeout for a timeout, upstream_failed otherwise. */
  code: "upstream_failed" | "upstream_timeout";
  message: string;
  /** The provider's HTTP status when it answered one. */
  status: number | null;
}

const MAX_REASON = 300;

/** The provider's own words from its error body: OpenAI, Anthropic and Google all nest them under `error.message`. */
function providerWords(err: APICallError): string | null {
  const fromBody = (() => {
    if (!err.responseBody) return null;
    try {
      const body = JSON.parse(err.responseBody) as { error?: { message?: unknown } | string; message?: unknown };
      if (typeof body.error === "string") return body.error;
      if (body.error && typeof body.error.message === "string") return body.error.message;
      if (typeof body.message === "string") return body.message;
    } catch {
      /* not JSON: fall back to the SDK's message */
    }
    return null;
  })();
  const words = (fromBody ?? err.message ?? "").replace(/\s+/g, " ").trim();
  return words ? (words.length > MAX_REASON ? `${words.slice(0, MAX_REASON)}…` : words) : null;
}

/**
 * A provider call's failure as the console shows it: who failed, the status, and the provider's
 * reason. A provider that quotes the key back in its message (some do, masked or not) never gets
 * it to the console or a log: `secrets` are cut out of the sentence.
 */
export function describeProviderFailure(
  err: unknown,
  providerName: string,
  options: { timedOut?: boolean; secrets?: readonly (string | null)[] } = {},
): ProviderFailure {
  const failure = describe(err, providerName, options.timedOut ?? false);
  return { ...failure, message: redactSecrets(failure.message, options.secrets ?? []) };
}

/** `text` with each secret (a provider's key) cut out: a provider or a model may quote it back. */
export function redactSecrets(text: string, secrets: readonly (string | null)[]): string {
  let out = text;
  for (const secret of secrets) if (secret && secret.length >= 4) out = out.split(secret).join("[API key]");
  return out;
}

function describe(err: unknown, providerName: string, timedOut: boolean): ProviderFailure {
  const cause = err instanceof RetryError ? err.lastError : err;
  if (timedOut) {
    return {
      code: "upstream_timeout",
      status: null,
      message: `${providerName} did not answer in time. Try again, or ask a narrower question.`,
    };
  }
  if (APICallError.isInstance(cause)) {
    const status = cause.statusCode ?? null;
    const words = providerWords(cause);
    // Google answers a wrong key with 400 INVALID_ARGUMENT (reason API_KEY_INVALID), not 401.
    const keyRefused =
      status === 401 ||
      status === 403 ||
      (status === 400 && /API_KEY_INVALID|api key not valid/i.test(`${cause.responseBody ?? ""} ${words ?? ""}`));
    const lead = keyRefused
      ? `${providerName} refused the API key (${status})`
      : status === 404
        ? `${providerName} does not know this model (404)`
        : status === 429
          ? `${providerName} is rate limiting requests (429)`
          : status !== null && status >= 500
            ? `${providerName} failed (${status})`
            : status !== null
              ? `${providerName} refused the request (${status})`
              : `${providerName} could not be reached`;
    return { code: "upstream_failed", status, message: words ? `${lead}: ${words}` : `${lead}.` };
  }
  const chain = [cause, (cause as { cause?: unknown } | null)?.cause];
  const hostRule = chain.find((e) => e instanceof HostNotAllowedError);
  if (hostRule)
    return {
      code: "upstream_failed",
      status: null,
      message: `${providerName}'s base URL is not allowed by this server's network rules: ${(hostRule as Error).message}`,
    };
  if (cause instanceof Error && /JSON|parse|type validation|invalid/i.test(`${cause.name} ${cause.message}`)) {
    return { code: "upstream_failed", status: null, message: `${providerName} answered in a form Bridgekeeper could not read.` };
  }
  if (cause instanceof TypeError || (cause instanceof Error && /fetch failed|ECONNREFUSED|ENOTFOUND|socket/i.test(cause.message))) {
    return {
      code: "upstream_failed",
      status: null,
      message: `${providerName} could not be reached. Check the provider's address and try again.`,
    };
  }
  return {
    code: "upstream_failed",
    status: null,
    message: `${providerName} failed: ${cause instanceof Error ? cause.message.slice(0, MAX_REASON) : "unknown error"}`,
  };
}
