import type { ConversationMessage, HttpAnswer, ParsedRequest, Reply, SseFrame, WireFormat } from "../types";
import { epochSeconds, randomId, splitEvenly } from "../tokens";
import { authoriseBearer, openAiError, openAiInvalid } from "./openai-errors";
import { asArray, asNumber, asString, isRecord, parseArgs, textOf } from "./read";

/**
 * OpenAI's chat completions, as Ollama, vLLM, LM Studio and gateways speak it (the product's
 * "OpenAI-compatible" kind): POST {base}/chat/completions with `messages`, `tools` as
 * {type:"function", function:{name, parameters}}; the answer is `choices[0].message` with
 * `tool_calls` whose arguments are a JSON string. Streaming sends `chat.completion.chunk` objects
 * as `data:` lines ending with `data: [DONE]`; with stream_options.include_usage every chunk has
 * `usage: null` and one last chunk with no choices carries the usage.
 */
export const chatCompletionsFormat: WireFormat = {
  kind: "compat",
  match: (method, path) => (method === "POST" && path === "/compat/v1/chat/completions" ? { model: null, stream: null } : null),
  authorise: (headers, _query, expectedKey) => authoriseBearer(headers, expectedKey),
  parse,
  error: openAiError,
  json: (reply) => ({
    id: completionId(),
    object: "chat.completion",
    created: epochSeconds(),
    model: reply.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: reply.text === "" && reply.toolCalls.length > 0 ? null : reply.text,
          refusal: null,
          ...(reply.toolCalls.length > 0
            ? {
                tool_calls: reply.toolCalls.map((c) => ({
                  id: callId(),
                  type: "function",
                  function: { name: c.name, arguments: JSON.stringify(c.args) },
                })),
              }
            : {}),
        },
        logprobs: null,
        finish_reason: finishReason(reply),
      },
    ],
    usage: usageOf(reply),
    system_fingerprint: FINGERPRINT,
  }),
  frames,
};

const FINGERPRINT = "fp_fake0001";
const completionId = () => randomId("chatcmpl-", 29);
const callId = () => randomId("call_", 24);

const finishReason = (reply: Reply) => ({ stop: "stop", length: "length", "tool-calls": "tool_calls" })[reply.finish];

const usageOf = (reply: Reply) => ({
  prompt_tokens: reply.usage.inputTokens,
  completion_tokens: reply.usage.outputTokens,
  total_tokens: reply.usage.inputTokens + reply.usage.outputTokens,
  prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
});

function parse(body: unknown): ParsedRequest | HttpAnswer {
  if (!isRecord(body)) return openAiInvalid("We could not parse the JSON body of your request.", null);
  const model = asString(body.model);
  if (!model) return openAiInvalid("you must provide a model parameter", "model");
  const raw = asArray(body.messages);
  if (raw.length === 0) return openAiInvalid("[] is too short - 'messages'", "messages");
  const system: string[] = [];
  const messages: ConversationMessage[] = [];
  const names = new Map<string, string>();
  for (const m of raw) {
    if (!isRecord(m)) continue;
    switch (m.role) {
      case "system":
      case "developer":
        system.push(textOf(m.content));
        break;
      case "user":
        messages.push({ role: "user", text: textOf(m.content) });
        break;
      case "assistant": {
        const text = textOf(m.content);
        if (text !== "") messages.push({ role: "assistant", text });
        for (const call of asArray(m.tool_calls)) {
          if (!isRecord(call) || !isRecord(call.function)) continue;
          const name = asString(call.function.name) ?? "";
          const id = asString(call.id);
          if (id) names.set(id, name);
          messages.push({ role: "tool-call", callId: id, name, args: parseArgs(call.function.arguments) });
        }
        break;
      }
      case "tool": {
        const id = asString(m.tool_call_id);
        messages.push({
          role: "tool-result",
          callId: id,
          name: id ? (names.get(id) ?? null) : null,
          text: textOf(m.content),
          isError: false,
        });
        break;
      }
    }
  }
  const tools = asArray(body.tools).flatMap((t) =>
    isRecord(t) && isRecord(t.function) && typeof t.function.name === "string" ? [t.function.name] : [],
  );
  const streamOptions = isRecord(body.stream_options) ? body.stream_options : {};
  return {
    model,
    stream: body.stream === true,
    includeUsage: streamOptions.include_usage === true,
    conversation: {
      system: system.length > 0 ? system.join("\n") : null,
      messages,
      tools,
      maxOutputTokens: asNumber(body.max_completion_tokens) ?? asNumber(body.max_tokens),
    },
  };
}

function frames(reply: Reply, request: ParsedRequest): SseFrame[] {
  const id = completionId();
  const created = epochSeconds();
  const chunk = (delta: object, finish: string | null = null) =>
    JSON.stringify({
      id,
      object: "chat.completion.chunk",
      created,
      model: reply.model,
      system_fingerprint: FINGERPRINT,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      ...(request.includeUsage ? { usage: null } : {}),
    });
  const out: SseFrame[] = [
    { data: chunk({ role: "assistant", content: reply.toolCalls.length > 0 && reply.text === "" ? null : "", refusal: null }) },
  ];
  for (const piece of reply.pieces) out.push({ data: chunk({ content: piece }), piece: true });
  reply.toolCalls.forEach((call, index) => {
    out.push({ data: chunk({ tool_calls: [{ index, id: callId(), type: "function", function: { name: call.name, arguments: "" } }] }) });
    for (const fragment of splitEvenly(JSON.stringify(call.args), 4))
      out.push({ data: chunk({ tool_calls: [{ index, function: { arguments: fragment } }] }), piece: true });
  });
  out.push({ data: chunk({}, finishReason(reply)) });
  if (request.includeUsage) {
    out.push({
      data: JSON.stringify({
        id,
        object: "chat.completion.chunk",
        created,
        model: reply.model,
        system_fingerprint: FINGERPRINT,
        choices: [],
        usage: usageOf(reply),
      }),
    });
  }
  out.push({ data: "[DONE]" });
  return out;
}
