import type { IncomingHttpHeaders } from "node:http";
import type { HttpAnswer } from "../types";
import { maskKey } from "./read";

/**
 * OpenAI's error body, shared by the Responses API and chat completions (and copied by most
 * OpenAI-compatible servers): `{ error: { message, type, param, code } }`, which the SDKs read as
 * `error.message`.
 */
export function openAiError(status: number, model: string, message?: string, retryAfter?: number): HttpAnswer {
  const [type, code, text] = describe(status, model);
  const headers: Record<string, string> = { "x-request-id": `req_${Date.now().toString(16)}` };
  if (retryAfter !== undefined) headers["retry-after"] = String(retryAfter);
  return { status, headers, body: { error: { message: message ?? text, type, param: null, code } } };
}

function describe(status: number, model: string): [type: string, code: string | null, message: string] {
  switch (status) {
    case 400:
      return ["invalid_request_error", null, "The request is not valid."];
    case 401:
      return ["invalid_request_error", "invalid_api_key", "Incorrect API key provided."];
    case 403:
      return ["invalid_request_error", "unsupported_country_region_territory", "Country, region, or territory not supported"];
    case 404:
      return ["invalid_request_error", "model_not_found", `The model \`${model}\` does not exist or you do not have access to it.`];
    case 429:
      return [
        "requests",
        "rate_limit_exceeded",
        `Rate limit reached for ${model} on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again later.`,
      ];
    case 503:
      return ["server_error", null, "The engine is currently overloaded, please try again later."];
    default:
      return ["server_error", null, "The server had an error while processing your request. Sorry about that!"];
  }
}

/** The Bearer key check of both OpenAI formats: a missing key and a wrong one get different messages. */
export function authoriseBearer(headers: IncomingHttpHeaders, expectedKey: string | null): HttpAnswer | null {
  if (expectedKey === null) return null;
  const match = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? "");
  if (!match) {
    return openAiError(
      401,
      "",
      "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
    );
  }
  const key = match[1]!.trim();
  if (key === expectedKey) return null;
  return openAiError(401, "", `Incorrect API key provided: ${maskKey(key)}. You can find your API key in your account's API keys page.`);
}

/** A malformed request, named by the parameter at fault as OpenAI does. */
export function openAiInvalid(message: string, param: string | null, code: string | null = null): HttpAnswer {
  return { status: 400, body: { error: { message, type: "invalid_request_error", param, code } } };
}
