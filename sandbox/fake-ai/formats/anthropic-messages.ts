import type { ConversationMessage, HttpAnswer, ParsedRequest, Reply, SseFrame, WireFormat } from "../types";
import { randomId, splitEvenly } from "../tokens";
import { asArray, asNumber, asString, asText, isRecord, textOf, type Json } from "./read";

/**
 * Anthropic's Messages API: POST {base}/messages with `x-api-key` and `anthropic-version`
 * headers, a top-level `system`, `messages` whose content blocks include `tool_use` (the model's
 * call) and `tool_result` (sent back in a user turn), `tools` as {name, input_schema}, and a
 * required `max_tokens`. The answer is a `message` with content blocks and `stop_reason`
 * (end_turn, tool_use, max_tokens). Streaming sends named events: message_start (input usage),
 * content_block_start / content_block_delta (text_delta, input_json_delta) / content_block_stop,
 * message_delta (stop reason and output usage), message_stop; a ping among them, as the API does.
 * Errors are `{ type: "error", error: { type, message } }`.
 */
export const anthropicMessagesFormat: WireFormat = {
  kind: "anthropic",
  match: (method, path) => (method === "POST" && path === "/anthropic/v1/messages" ? { model: null, stream: null } : null),
  authorise(headers, _query, expectedKey) {
    if (expectedKey !== null) {
      const key = headers["x-api-key"];
      if (key === undefined || key === "") return anthropicError(401, "", "x-api-key header is required");
      if (key !== expectedKey) return anthropicError(401, "", "invalid x-api-key");
    }
    if (!headers["anthropic-version"]) return anthropicError(400, "", "anthropic-version: header is required");
    return null;
  },
  parse,
  error: anthropicError,
  json: (reply) => ({
    ...messageObject(reply),
    content: blocksOf(reply).map((b) => b.block),
    stop_reason: stopReason(reply),
    usage: usageOf(reply),
  }),
  frames,
};

function anthropicError(status: number, model: string, message?: string, retryAfter?: number): HttpAnswer {
  const [type, text] = (
    {
      400: ["invalid_request_error", "The request is not valid."],
      401: ["authentication_error", "invalid x-api-key"],
      403: ["permission_error", "Your API key does not have permission to use the specified resource."],
      404: ["not_found_error", `model: ${model}`],
      429: ["rate_limit_error", "This request would exceed the rate limit for your organization. Please try again later."],
      503: ["overloaded_error", "Overloaded"],
    } as Record<number, [string, string]>
  )[status] ?? ["api_error", "Internal server error"];
  const headers: Record<string, string> = { "request-id": randomId("req_01", 22) };
  if (retryAfter !== undefined) headers["retry-after"] = String(retryAfter);
  return { status, headers, body: { type: "error", error: { type, message: message ?? text } } };
}

const invalid = (message: string): HttpAnswer => anthropicError(400, "", message);

function parse(body: unknown): ParsedRequest | HttpAnswer {
  if (!isRecord(body)) return invalid("Request body is not valid JSON.");
  const model = asString(body.model);
  if (!model) return invalid("model: Field required");
  const maxTokens = asNumber(body.max_tokens);
  if (maxTokens === null) return invalid("max_tokens: Field required");
  if (maxTokens < 1) return invalid("max_tokens: Input should be greater than or equal to 1");
  const raw = asArray(body.messages);
  if (raw.length === 0) return invalid("messages: at least one message is required");
  const messages: ConversationMessage[] = [];
  const names = new Map<string, string>();
  for (const m of raw) {
    if (!isRecord(m) || (m.role !== "user" && m.role !== "assistant")) continue;
    const role = m.role;
    const blocks = typeof m.content === "string" ? [{ type: "text", text: m.content }] : asArray(m.content);
    const texts: string[] = [];
    const flush = () => {
      if (texts.length > 0) messages.push({ role, text: texts.splice(0).join("\n") });
    };
    for (const b of blocks) {
      if (!isRecord(b)) continue;
      if (b.type === "text" && typeof b.text === "string") texts.push(b.text);
      else if (b.type === "tool_use") {
        flush();
        const id = asString(b.id);
        const name = asString(b.name) ?? "";
        if (id) names.set(id, name);
        messages.push({ role: "tool-call", callId: id, name, args: b.input ?? {} });
      } else if (b.type === "tool_result") {
        flush();
        const id = asString(b.tool_use_id);
        messages.push({
          role: "tool-result",
          callId: id,
          name: id ? (names.get(id) ?? null) : null,
          text: Array.isArray(b.content) ? textOf(b.content) : asText(b.content ?? ""),
          isError: b.is_error === true,
        });
      }
    }
    flush();
  }
  const system = typeof body.system === "string" ? body.system : Array.isArray(body.system) ? textOf(body.system) : null;
  const tools = asArray(body.tools).flatMap((t) => (isRecord(t) && typeof t.name === "string" ? [t.name] : []));
  return { model, stream: body.stream === true, conversation: { system: system || null, messages, tools, maxOutputTokens: maxTokens } };
}

const stopReason = (reply: Reply) => ({ stop: "end_turn", length: "max_tokens", "tool-calls": "tool_use" })[reply.finish];

const usageOf = (reply: Reply) => ({
  input_tokens: reply.usage.inputTokens,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
  output_tokens: reply.usage.outputTokens,
  service_tier: "standard",
});

const messageObject = (reply: Reply): Json => ({
  id: randomId("msg_01", 22),
  type: "message",
  role: "assistant",
  model: reply.model,
  content: [],
  stop_reason: null,
  stop_sequence: null,
});

/** The reply's content blocks: the text first (when there is any), then one tool_use a call. */
function blocksOf(reply: Reply): { block: Json; args?: string }[] {
  const blocks: { block: Json; args?: string }[] = [];
  if (reply.text !== "" || reply.toolCalls.length === 0) blocks.push({ block: { type: "text", text: reply.text } });
  for (const call of reply.toolCalls)
    blocks.push({
      block: { type: "tool_use", id: randomId("toolu_01", 22), name: call.name, input: call.args },
      args: JSON.stringify(call.args),
    });
  return blocks;
}

function frames(reply: Reply): SseFrame[] {
  const out: SseFrame[] = [];
  const emit = (type: string, fields: Json, piece = false) => out.push({ event: type, data: JSON.stringify({ type, ...fields }), piece });
  emit("message_start", {
    message: {
      ...messageObject(reply),
      usage: {
        input_tokens: reply.usage.inputTokens,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens: 1,
        service_tier: "standard",
      },
    },
  });
  blocksOf(reply).forEach(({ block, args }, index) => {
    if (block.type === "text") {
      emit("content_block_start", { index, content_block: { type: "text", text: "" } });
      if (index === 0) emit("ping", {});
      for (const text of reply.pieces) emit("content_block_delta", { index, delta: { type: "text_delta", text } }, true);
    } else {
      emit("content_block_start", { index, content_block: { ...block, input: {} } });
      // The API's first input delta is empty, then the JSON arrives in fragments.
      for (const partial_json of ["", ...splitEvenly(args ?? "{}", 4)])
        emit("content_block_delta", { index, delta: { type: "input_json_delta", partial_json } }, partial_json !== "");
    }
    emit("content_block_stop", { index });
  });
  emit("message_delta", {
    delta: { stop_reason: stopReason(reply), stop_sequence: null },
    usage: { output_tokens: reply.usage.outputTokens },
  });
  emit("message_stop", {});
  return out;
}
