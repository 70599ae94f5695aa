import type { ConversationMessage, HttpAnswer, ParsedRequest, Reply, SseFrame, WireFormat } from "../types";
import { epochSeconds, randomId, splitEvenly } from "../tokens";
import { authoriseBearer, openAiError, openAiInvalid } from "./openai-errors";
import { asArray, asNumber, asString, asText, isRecord, parseArgs, textOf, type Json } from "./read";

/**
 * OpenAI's Responses API (the AI SDK's default for OpenAI): POST {base}/responses with `input`
 * items (messages by role, `function_call` and `function_call_output` items, and `item_reference`
 * to an item the API stored) and `tools` as {type:"function", name, parameters}. The answer is a
 * `response` object whose `output` holds `message` items (output_text parts) and `function_call`
 * items (arguments as a JSON string). Streaming sends named events (`response.created`,
 * `response.output_item.added`, `response.output_text.delta`, ..., `response.completed` with the
 * usage), each with a `sequence_number`.
 *
 * `store` defaults to true, as in the API: the output items are kept, so a later request may
 * refer to them by id (the SDK does for earlier assistant text); an unknown id is refused.
 */
export function createOpenAiResponsesFormat(): WireFormat {
  const stored = new Map<string, Json>();
  const keep = (item: Json, store: boolean) => {
    if (store) stored.set(item.id as string, item);
    return item;
  };
  // The items of one reply, built once: the JSON body and the events describe the same ones.
  const outputOf = (reply: Reply, store: boolean): Json[] => {
    const items: Json[] = [];
    if (reply.text !== "" || reply.toolCalls.length === 0) {
      items.push(
        keep(
          {
            id: randomId("msg_", 48, true),
            type: "message",
            status: reply.finish === "length" ? "incomplete" : "completed",
            role: "assistant",
            content: [{ type: "output_text", annotations: [], logprobs: [], text: reply.text }],
          },
          store,
        ),
      );
    }
    for (const call of reply.toolCalls) {
      items.push(
        keep(
          {
            id: randomId("fc_", 48, true),
            type: "function_call",
            status: "completed",
            arguments: JSON.stringify(call.args),
            call_id: randomId("call_", 24),
            name: call.name,
          },
          store,
        ),
      );
    }
    return items;
  };
  return {
    kind: "openai",
    match: (method, path) => (method === "POST" && path === "/openai/v1/responses" ? { model: null, stream: null } : null),
    authorise: (headers, _query, expectedKey) => authoriseBearer(headers, expectedKey),
    parse: (body) => parse(body, stored),
    error: openAiError,
    json: (reply, request) =>
      responseObject(reply, outputOf(reply, request.store !== false), { status: "completed", store: request.store !== false }),
    frames: (reply, request) => frames(reply, outputOf(reply, request.store !== false), request.store !== false),
  };
}

/** The `response` object; `status` is "incomplete" (with the reason) when the output bound cut the answer. */
function responseObject(
  reply: Reply,
  output: Json[],
  options: { status: "in_progress" | "completed"; store: boolean; id?: string; createdAt?: number },
): Json {
  const { status, store, id = randomId("resp_", 48, true), createdAt = epochSeconds() } = options;
  const cut = status === "completed" && reply.finish === "length";
  return {
    id,
    object: "response",
    created_at: createdAt,
    status: cut ? "incomplete" : status,
    error: null,
    incomplete_details: cut ? { reason: "max_output_tokens" } : null,
    instructions: null,
    model: reply.model,
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    store,
    tool_choice: "auto",
    tools: [],
    truncation: "disabled",
    usage:
      status === "in_progress"
        ? null
        : {
            input_tokens: reply.usage.inputTokens,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens: reply.usage.outputTokens,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: reply.usage.inputTokens + reply.usage.outputTokens,
          },
    metadata: {},
  };
}

function parse(body: unknown, stored: Map<string, Json>): ParsedRequest | HttpAnswer {
  if (!isRecord(body)) return openAiInvalid("We could not parse the JSON body of your request.", null);
  const model = asString(body.model);
  if (!model) return openAiInvalid("Missing required parameter: 'model'.", "model", "missing_required_parameter");
  const max = asNumber(body.max_output_tokens);
  // The API's own lower bound: a one-token probe is refused here, unlike in the other formats.
  if (max !== null && max < 16)
    return openAiInvalid(
      `Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got ${max} instead.`,
      "max_output_tokens",
      "integer_below_min_value",
    );
  const system: string[] = typeof body.instructions === "string" ? [body.instructions] : [];
  const messages: ConversationMessage[] = [];
  const names = new Map<string, string>();
  const items = typeof body.input === "string" ? [{ role: "user", content: body.input }] : asArray(body.input);
  if (items.length === 0) return openAiInvalid("Missing required parameter: 'input'.", "input", "missing_required_parameter");
  for (const raw of items) {
    if (!isRecord(raw)) continue;
    let item: Json = raw;
    if (item.type === "item_reference") {
      const found = stored.get(String(item.id));
      if (!found)
        return {
          status: 404,
          body: {
            error: { message: `Item with id '${String(item.id)}' not found.`, type: "invalid_request_error", param: "input", code: null },
          },
        };
      item = found;
    }
    if (item.type === "function_call") {
      const name = asString(item.name) ?? "";
      const id = asString(item.call_id);
      if (id) names.set(id, name);
      messages.push({ role: "tool-call", callId: id, name, args: parseArgs(item.arguments) });
    } else if (item.type === "function_call_output") {
      const id = asString(item.call_id);
      messages.push({
        role: "tool-result",
        callId: id,
        name: id ? (names.get(id) ?? null) : null,
        text: Array.isArray(item.output) ? textOf(item.output) : asText(item.output),
        isError: false,
      });
    } else if (item.role === "system" || item.role === "developer") {
      system.push(textOf(item.content));
    } else if (item.role === "user" || item.role === "assistant") {
      messages.push({ role: item.role, text: textOf(item.content) });
    }
  }
  const tools = asArray(body.tools).flatMap((t) => (isRecord(t) && t.type === "function" && typeof t.name === "string" ? [t.name] : []));
  return {
    model,
    stream: body.stream === true,
    store: body.store !== false,
    conversation: { system: system.length > 0 ? system.join("\n") : null, messages, tools, maxOutputTokens: max },
  };
}

function frames(reply: Reply, output: Json[], store: boolean): SseFrame[] {
  const id = randomId("resp_", 48, true);
  const createdAt = epochSeconds();
  let sequence = 0;
  const out: SseFrame[] = [];
  const emit = (type: string, fields: Json, piece = false) =>
    out.push({ event: type, data: JSON.stringify({ type, sequence_number: sequence++, ...fields }), piece });

  const progress = responseObject(reply, [], { status: "in_progress", store, id, createdAt });
  emit("response.created", { response: progress });
  emit("response.in_progress", { response: progress });
  output.forEach((item, index) => {
    const itemId = item.id as string;
    if (item.type === "message") {
      emit("response.output_item.added", { output_index: index, item: { ...item, status: "in_progress", content: [] } });
      emit("response.content_part.added", {
        item_id: itemId,
        output_index: index,
        content_index: 0,
        part: { type: "output_text", annotations: [], logprobs: [], text: "" },
      });
      for (const delta of reply.pieces)
        emit("response.output_text.delta", { item_id: itemId, output_index: index, content_index: 0, delta, logprobs: [] }, true);
      emit("response.output_text.done", { item_id: itemId, output_index: index, content_index: 0, text: reply.text, logprobs: [] });
      emit("response.content_part.done", { item_id: itemId, output_index: index, content_index: 0, part: (item.content as Json[])[0] });
    } else {
      const args = item.arguments as string;
      emit("response.output_item.added", { output_index: index, item: { ...item, status: "in_progress", arguments: "" } });
      for (const delta of splitEvenly(args, 4))
        emit("response.function_call_arguments.delta", { item_id: itemId, output_index: index, delta }, true);
      emit("response.function_call_arguments.done", { item_id: itemId, output_index: index, arguments: args });
    }
    emit("response.output_item.done", { output_index: index, item });
  });
  const done = responseObject(reply, output, { status: "completed", store, id, createdAt });
  emit(done.status === "incomplete" ? "response.incomplete" : "response.completed", { response: done });
  return out;
}
