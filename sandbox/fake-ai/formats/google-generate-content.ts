import type { ConversationMessage, HttpAnswer, ParsedRequest, Reply, SseFrame, WireFormat } from "../types";
import { randomId } from "../tokens";
import { asArray, asNumber, asText, isRecord, textOf, type Json } from "./read";

/**
 * Google's Gemini API (generativelanguage, v1beta): POST {base}/models/{model}:generateContent,
 * and :streamGenerateContent?alt=sse for server-sent events (without alt=sse the API streams one
 * JSON array). The key comes in `x-goog-api-key` (or `?key=`). The body has `contents` with roles
 * user and model, whose parts are {text}, {functionCall:{name,args}} and
 * {functionResponse:{name,response}}, a `systemInstruction`, `tools[].functionDeclarations` and
 * `generationConfig.maxOutputTokens`. Every answer (each streamed chunk too) is a
 * GenerateContentResponse: `candidates[0].content.parts`, `finishReason` (STOP, MAX_TOKENS) on the
 * last, and `usageMetadata`. Errors are google.rpc.Status: `{ error: { code, message, status } }`.
 *
 * As the real API does, a wrong key is a 400 INVALID_ARGUMENT (reason API_KEY_INVALID), not a
 * 401, and a missing one a 403 PERMISSION_DENIED.
 */
export const googleGenerateContentFormat: WireFormat = {
  kind: "google",
  match(method, path) {
    const m = /^\/google\/v1beta\/(.+):(generateContent|streamGenerateContent)$/.exec(path);
    if (!m || method !== "POST") return null;
    return { model: decodeURIComponent(m[1]!).replace(/^models\//, ""), stream: m[2] === "streamGenerateContent" };
  },
  authorise(headers, query, expectedKey) {
    if (expectedKey === null) return null;
    const header = headers["x-goog-api-key"];
    const key = (Array.isArray(header) ? header[0] : header) ?? query.get("key");
    if (!key)
      return googleError(
        403,
        "",
        "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
      );
    if (key === expectedKey) return null;
    const answer = googleError(400, "", "API key not valid. Please pass a valid API key.");
    (answer.body as { error: Json }).error.details = [
      {
        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
        reason: "API_KEY_INVALID",
        domain: "googleapis.com",
        metadata: { service: "generativelanguage.googleapis.com" },
      },
    ];
    return answer;
  },
  parse,
  error: googleError,
  json: (reply) => chunkObject(reply, partsOf(reply), true),
  frames,
  lineEnd: "\r\n",
  jsonArrayStream: (query) => query.get("alt") !== "sse",
};

const STATUS: Record<number, [status: string, message: (model: string) => string]> = {
  400: ["INVALID_ARGUMENT", () => "Request contains an invalid argument."],
  401: [
    "UNAUTHENTICATED",
    () =>
      "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
  ],
  403: ["PERMISSION_DENIED", () => "The caller does not have permission"],
  404: [
    "NOT_FOUND",
    (model) =>
      `models/${model} is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.`,
  ],
  429: ["RESOURCE_EXHAUSTED", () => "Resource has been exhausted (e.g. check quota)."],
  503: ["UNAVAILABLE", () => "The model is overloaded. Please try again later."],
};

/** A google.rpc.Status body; a 429 says when to retry in a RetryInfo detail (the API sends no Retry-After header). */
function googleError(status: number, model: string, message?: string, retryAfter?: number): HttpAnswer {
  const [name, text] = STATUS[status] ?? ["INTERNAL", () => "An internal error has occurred. Please retry or report the problem."];
  const error: Json = { code: status, message: message ?? text(model), status: name };
  if (retryAfter !== undefined) error.details = [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: `${retryAfter}s` }];
  return { status, body: { error } };
}

const invalid = (message: string): HttpAnswer => googleError(400, "", message);

function parse(body: unknown, matched: { model: string | null; stream: boolean | null }): ParsedRequest | HttpAnswer {
  if (!isRecord(body)) return invalid("Invalid JSON payload received.");
  const contents = asArray(body.contents);
  if (contents.length === 0) return invalid("* GenerateContentRequest.contents: contents is not specified");
  const messages: ConversationMessage[] = [];
  for (const c of contents) {
    if (!isRecord(c)) continue;
    const role = c.role === "model" ? "assistant" : "user";
    const texts: string[] = [];
    const flush = () => {
      if (texts.length > 0) messages.push({ role, text: texts.splice(0).join("") });
    };
    for (const part of asArray(c.parts)) {
      if (!isRecord(part)) continue;
      if (typeof part.text === "string") texts.push(part.text);
      else if (isRecord(part.functionCall)) {
        flush();
        messages.push({
          role: "tool-call",
          callId: typeof part.functionCall.id === "string" ? part.functionCall.id : null,
          name: String(part.functionCall.name ?? ""),
          args: part.functionCall.args ?? {},
        });
      } else if (isRecord(part.functionResponse)) {
        flush();
        const fr = part.functionResponse;
        const response = isRecord(fr.response) ? fr.response : {};
        messages.push({
          role: "tool-result",
          callId: typeof fr.id === "string" ? fr.id : null,
          name: typeof fr.name === "string" ? fr.name : null,
          text: "content" in response ? asText(response.content) : asText(response),
          isError: false,
        });
      }
    }
    flush();
  }
  const system = isRecord(body.systemInstruction) ? textOf(body.systemInstruction.parts) : null;
  const tools = asArray(body.tools).flatMap((t) =>
    isRecord(t) ? asArray(t.functionDeclarations).flatMap((d) => (isRecord(d) && typeof d.name === "string" ? [d.name] : [])) : [],
  );
  const config = isRecord(body.generationConfig) ? body.generationConfig : {};
  return {
    model: matched.model ?? "",
    stream: matched.stream === true,
    conversation: { system: system || null, messages, tools, maxOutputTokens: asNumber(config.maxOutputTokens) },
  };
}

const partsOf = (reply: Reply): Json[] => [
  ...(reply.text !== "" || reply.toolCalls.length === 0 ? [{ text: reply.text }] : []),
  ...reply.toolCalls.map((c) => ({ functionCall: { name: c.name, args: c.args } })),
];

/** A GenerateContentResponse; the last one names the finish reason and the whole usage. */
function chunkObject(reply: Reply, parts: Json[], last: boolean, responseId = randomId("", 22)): Json {
  const prompt = reply.usage.inputTokens;
  return {
    candidates: [
      { content: { parts, role: "model" }, ...(last ? { finishReason: reply.finish === "length" ? "MAX_TOKENS" : "STOP" } : {}), index: 0 },
    ],
    usageMetadata: last
      ? {
          promptTokenCount: prompt,
          candidatesTokenCount: reply.usage.outputTokens,
          totalTokenCount: prompt + reply.usage.outputTokens,
          promptTokensDetails: [{ modality: "TEXT", tokenCount: prompt }],
        }
      : { promptTokenCount: prompt, totalTokenCount: prompt, promptTokensDetails: [{ modality: "TEXT", tokenCount: prompt }] },
    modelVersion: reply.model,
    responseId,
  };
}

/** Text in pieces, then the function calls whole in one chunk (Gemini does not stream arguments). */
function frames(reply: Reply): SseFrame[] {
  const id = randomId("", 22);
  const chunks: Json[][] = reply.pieces.map((text) => [{ text }]);
  if (reply.toolCalls.length > 0) chunks.push(reply.toolCalls.map((c) => ({ functionCall: { name: c.name, args: c.args } })));
  if (chunks.length === 0) chunks.push([{ text: "" }]);
  return chunks.map((parts, i) => ({ data: JSON.stringify(chunkObject(reply, parts, i === chunks.length - 1, id)), piece: true }));
}
