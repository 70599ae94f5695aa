import type { IncomingHttpHeaders } from "node:http";

/** The four wire formats the fake speaks: the three hosted APIs and OpenAI's chat completions. */
export type FakeAiKind = "openai" | "anthropic" | "google" | "compat";

export interface ScriptedToolCall {
  name: string;
  args: Record<string, unknown>;
}

/** Shared by every turn: how long the fake waits before it answers at all. */
interface Timing {
  delayMs?: number;
}

/**
 * What the fake answers to one request. A script is a list of these, consumed in order; each is
 * written in the wire format of the API that was called.
 */
export type FakeTurn =
  /**
   * An answer; streamed in `chunks` pieces (default one a word) with `chunkDelayMs` between them when
   * the request streams. `holdAfterFirstPieceMs`: after the first piece, nothing more for that long
   * unless the client goes away first (a reply still streaming until the browser test presses Stop).
   */
  | (Timing & { text: string; chunks?: number; chunkDelayMs?: number; holdAfterFirstPieceMs?: number })
  /** The model calls tools (optionally after a sentence of text, as Claude often does). */
  | (Timing & { toolCalls: ScriptedToolCall[]; text?: string; chunkDelayMs?: number })
  /** The provider refuses, in its own error body; 404 is "unknown model"; retryAfter in seconds. */
  | (Timing & { status: 400 | 401 | 403 | 404 | 429 | 500 | 503; retryAfter?: number; message?: string })
  /** Never answers (for timeouts and Stop): released when the client goes away or the fake closes. */
  | { hang: true }
  /** A 200 whose body is not the format: what a misconfigured proxy or captive portal sends. */
  | (Timing & { garbage: true });

/** What the model sees, the same for every wire format: what the smart responder and tests read. */
export interface Conversation {
  /** System (or developer) instructions, joined; null when none were sent. */
  system: string | null;
  messages: ConversationMessage[];
  /** Names of the tools offered, in order. */
  tools: string[];
  /** The output bound the client asked for (max_tokens, max_output_tokens, maxOutputTokens). */
  maxOutputTokens: number | null;
}

export type ConversationMessage =
  | { role: "user" | "assistant"; text: string }
  | { role: "tool-call"; callId: string | null; name: string; args: unknown }
  | { role: "tool-result"; callId: string | null; name: string | null; text: string; isError: boolean };

export interface RecordedRequest {
  kind: FakeAiKind;
  model: string;
  stream: boolean;
  method: string;
  path: string;
  /** As received, the API key header included (tests assert it). */
  headers: IncomingHttpHeaders;
  /** The parsed JSON body; null when it was not JSON. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests read any request's body as loose JSON
  body: any;
  /** The same request, read into the shape every format shares; null when the body was refused. */
  conversation: Conversation | null;
  /** The HTTP status answered; null while nothing was sent. */
  status: number | null;
  /** answered: the response ended; client-closed: the client went away first; open: still going. */
  outcome: "open" | "answered" | "client-closed" | "server-closed";
  /** Epoch milliseconds (sub-millisecond): the request arrived, the first piece of answer text was written, the response ended. */
  timing: { receivedAt: number; firstPieceAt: number | null; endedAt: number | null };
}

/** A decided answer, before it is written in one format. */
export interface Reply {
  model: string;
  text: string;
  /** `text` split for streaming; joined they are `text`. */
  pieces: string[];
  toolCalls: ScriptedToolCall[];
  finish: "stop" | "length" | "tool-calls";
  usage: { inputTokens: number; outputTokens: number };
}

/** One server-sent event: `piece` marks those carrying a part of the answer (the ones a chunk delay spaces). */
export interface SseFrame {
  event?: string;
  data: string;
  piece?: boolean;
}

/** An HTTP answer the server writes as is. */
export interface HttpAnswer {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

/** A request that passed the format's checks. */
export interface ParsedRequest {
  model: string;
  stream: boolean;
  conversation: Conversation;
  /** Chat completions: stream_options.include_usage asks for a last chunk with the usage. */
  includeUsage?: boolean;
  /** Responses API: whether the output items are kept for a later item_reference (the API's default). */
  store?: boolean;
}

/** One wire format: how its requests are found, checked and read, and how its answers are written. */
export interface WireFormat {
  kind: FakeAiKind;
  /** The request's model and streaming flag when the path belongs to this format; null otherwise. */
  match(method: string, path: string, query: URLSearchParams): { model: string | null; stream: boolean | null } | null;
  /** The refusal for a missing or wrong key, in the format's own words; null when the key is right (or any key is accepted). */
  authorise(headers: IncomingHttpHeaders, query: URLSearchParams, expectedKey: string | null): HttpAnswer | null;
  /** Reads the body; an HttpAnswer when the provider would refuse it as malformed. */
  parse(body: unknown, matched: { model: string | null; stream: boolean | null }): ParsedRequest | HttpAnswer;
  /** The provider's error body for a status (401, 404 unknown model, 429 ...). */
  error(status: number, model: string, message?: string, retryAfter?: number): HttpAnswer;
  json(reply: Reply, request: ParsedRequest): unknown;
  frames(reply: Reply, request: ParsedRequest): SseFrame[];
  /** Google ends its events with CRLF pairs; the others with LF. */
  lineEnd?: string;
  /** Google without alt=sse streams one JSON array instead of events. */
  jsonArrayStream?: (query: URLSearchParams) => boolean;
}
