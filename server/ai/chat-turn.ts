import { jsonSchema, stepCountIs, streamText, tool, type LanguageModel, type ModelMessage, type ToolSet } from "ai";
import type { CallToolResult } from "@modelcontextprotocol/server";
import type { Citation, ChatStreamEvent, McpCall, TokenUsage } from "../../contract/chat";
import { toolDefinition } from "../mcp/tools/call-tool";
import type { ToolSpec } from "../mcp/tools/tool";
import { citationCandidates, citationsFor } from "./citations";
import { describeProviderFailure, type ProviderFailure } from "./provider-errors";

/** The tools a turn may call and how to run one: the MCP tool layer, under the chat user's policy and audit. */
export interface TurnTools {
  specs: readonly ToolSpec[];
  run(spec: ToolSpec, args: unknown, signal: AbortSignal): Promise<CallToolResult>;
}

export interface TurnInput {
  model: LanguageModel;
  /** The provider's name, for error sentences. */
  providerName: string;
  /** Cut out of any error sentence (the provider's key). */
  secrets: readonly (string | null)[];
  system: string;
  /** Earlier messages of the conversation, then the new user message. */
  messages: ModelMessage[];
  tools: TurnTools;
  /** Aborted when the user presses Stop (the request closes). */
  signal: AbortSignal;
  timeoutMs: number;
  maxSteps: number;
  /** Each event as it happens (the SSE mode writes them; the JSON mode ignores them). */
  onEvent(event: Extract<ChatStreamEvent, { type: "text" | "tool-start" | "tool-end" }>): void;
}

export interface TurnOutcome {
  text: string;
  mcpCalls: McpCall[];
  citations: Citation[];
  usage: TokenUsage | null;
  status: "complete" | "stopped" | "error";
  failure: ProviderFailure | null;
}

/** How many results a tool answer holds: the length of its first list (issues, pages, pull requests…), else one object. */
export function resultCount(result: CallToolResult): number {
  if (result.isError) return 0;
  const structured = result.structuredContent;
  if (!structured || typeof structured !== "object") return 1;
  for (const value of Object.values(structured)) if (Array.isArray(value)) return value.length;
  return 1;
}

const inputSchemas = new WeakMap<ToolSpec, ReturnType<typeof jsonSchema>>();
/** The JSON Schema an MCP client sees in tools/list (compacted once per tool), as the AI SDK takes it. */
function inputSchemaOf(spec: ToolSpec): ReturnType<typeof jsonSchema> {
  let schema = inputSchemas.get(spec);
  if (!schema) {
    schema = jsonSchema(toolDefinition(spec).inputSchema as Parameters<typeof jsonSchema>[0]);
    inputSchemas.set(spec, schema);
  }
  return schema;
}

const textOf = (result: CallToolResult): string => result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");

/**
 * One chat turn: the model answers, calling the tools it needs in up to `maxSteps` steps (AI SDK
 * 6's loop), streaming text and tool progress through `onEvent`. Never throws: a provider failure
 * is the outcome's `failure`, Stop is status "stopped" with what was written so far. A tool's
 * failure is a tool result the model reads (its isError sentence says what to try next), and the
 * user sees it on the call's chip.
 */
export async function runChatTurn(input: TurnInput): Promise<TurnOutcome> {
  const mcpCalls: McpCall[] = [];
  const found: ReturnType<typeof citationCandidates>[] = [];
  const timeout = AbortSignal.timeout(input.timeoutMs);
  const signal = AbortSignal.any([input.signal, timeout]);
  let counter = 0;

  const tools: ToolSet = {};
  for (const spec of input.tools.specs) {
    tools[spec.name] = tool({
      description: toolDefinition(spec).description ?? spec.description,
      inputSchema: inputSchemaOf(spec),
      execute: async (args: unknown, { abortSignal }) => {
        const id = `call-${++counter}`;
        input.onEvent({ type: "tool-start", id, tool: spec.name });
        const result = await input.tools.run(spec, args, abortSignal ?? signal);
        const results = resultCount(result);
        const error = result.isError ? textOf(result) : null;
        mcpCalls.push({ tool: spec.name, results, error });
        if (!result.isError) found.push(citationCandidates(spec.service, result.structuredContent));
        input.onEvent({ type: "tool-end", id, tool: spec.name, results, error });
        // The model reads the compact text (what an MCP client's model reads), errors included.
        return textOf(result);
      },
    });
  }

  let text = "";
  let usage: TokenUsage | null = null;
  let failure: ProviderFailure | null = null;
  let streamError: unknown = null;
  try {
    const result = streamText({
      model: input.model,
      system: input.system,
      messages: input.messages,
      tools,
      stopWhen: stepCountIs(input.maxSteps),
      // A bound of our own: the SDKs' defaults differ by model, and some are the model's maximum.
      maxOutputTokens: 4096,
      abortSignal: signal,
      // Bounded retries; the SDK waits as a 429's Retry-After says (docs/decisions.md#upstream-timeouts-and-retries).
      maxRetries: 1,
      onError: ({ error }) => {
        streamError = error;
      },
    });
    for await (const part of result.fullStream) {
      if (part.type === "text-delta") {
        text += part.text;
        input.onEvent({ type: "text", delta: part.text });
      } else if (part.type === "finish") {
        usage = { inputTokens: part.totalUsage.inputTokens ?? null, outputTokens: part.totalUsage.outputTokens ?? null };
      } else if (part.type === "error") {
        streamError = part.error;
      }
    }
  } catch (err) {
    streamError = err;
  }
  const stopped = input.signal.aborted;
  if (!stopped && (streamError !== null || timeout.aborted))
    failure = describeProviderFailure(streamError, input.providerName, { timedOut: timeout.aborted, secrets: input.secrets });
  return {
    text,
    mcpCalls,
    citations: citationsFor(text, found),
    usage,
    status: stopped ? "stopped" : failure ? "error" : "complete",
    failure,
  };
}
