import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { anthropicMessagesFormat } from "./formats/anthropic-messages";
import { chatCompletionsFormat } from "./formats/chat-completions";
import { googleGenerateContentFormat } from "./formats/google-generate-content";
import { createOpenAiResponsesFormat } from "./formats/openai-responses";
import { isRecord } from "./formats/read";
import { buildReply, isAnswer } from "./reply";
import { smartTurn } from "./smart-responder";
import type { FakeAiKind, FakeTurn, HttpAnswer, RecordedRequest, SseFrame, WireFormat } from "./types";

export type { FakeAiKind, FakeTurn, RecordedRequest } from "./types";

/** Answers a request from the test's own logic; undefined lets the smart responder answer. */
export type FakeResponder = (request: RecordedRequest) => FakeTurn | undefined;

export interface FakeAiOptions {
  /** The only key accepted; absent (or null): any key, or none, is accepted. */
  apiKey?: string | null;
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** When given, any other model is answered 404 in the provider's "unknown model" words. */
  knownModels?: string[];
}

export interface FakeAi {
  /** `http://127.0.0.1:PORT` */
  url: string;
  port: number;
  /** The base URL each SDK is given: its requests land on the matching wire format. */
  baseUrls: Record<FakeAiKind, string>;
  /**
   * Sets what the next requests get: a list of turns, consumed in order (then the smart responder
   * answers), or a function consulted for every request. Replaces any earlier script.
   */
  script(turns: FakeTurn[] | FakeResponder): void;
  /** Every request received, oldest first (kept until reset). */
  readonly requests: RecordedRequest[];
  /** Scripted turns not yet consumed. */
  pending(): number;
  /** Clears the script and the record. */
  reset(): void;
  /** Releases hanging requests and stops listening. */
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 20 * 1024 * 1024;

/**
 * A local server speaking the wire formats of OpenAI (Responses API and chat completions),
 * Anthropic Messages and Google Gemini, so the product's AI chat runs offline through the real
 * AI SDK clients: what a test scripts is written the way the provider writes it, and a format an
 * SDK could not parse fails the tests of that SDK.
 */
export async function startFakeAi(options: FakeAiOptions = {}): Promise<FakeAi> {
  const expectedKey = options.apiKey ?? null;
  const known = options.knownModels ? new Set(options.knownModels) : null;
  const formats: WireFormat[] = [
    createOpenAiResponsesFormat(),
    chatCompletionsFormat,
    anthropicMessagesFormat,
    googleGenerateContentFormat,
  ];
  const requests: RecordedRequest[] = [];
  let queue: FakeTurn[] = [];
  let responder: FakeResponder | null = null;
  // Every response still open (hanging, waiting out a delay, or streaming), ended on close.
  const open = new Map<ServerResponse, { abort: AbortController; record: RecordedRequest }>();

  const nextTurn = (record: RecordedRequest): FakeTurn => {
    if (responder) return responder(record) ?? smartTurn(record.conversation!);
    return queue.shift() ?? smartTurn(record.conversation!);
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const receivedAt = epochNow();
    const url = new URL(req.url ?? "/", "http://fake");
    const method = req.method ?? "GET";
    if (method === "GET" && url.pathname === "/health") return send(res, { status: 200, body: { status: "ok" } });
    let format: WireFormat | null = null;
    let matched: ReturnType<WireFormat["match"]> = null;
    for (const f of formats) {
      matched = f.match(method, url.pathname, url.searchParams);
      if (matched) {
        format = f;
        break;
      }
    }
    if (!format || !matched)
      return send(res, { status: 404, body: { error: { message: `No fake AI endpoint at ${method} ${url.pathname}` } } });

    const raw = await readBody(req);
    if (raw === null) return send(res, format.error(413, "", "Request too large"));
    let body: unknown = null;
    try {
      body = JSON.parse(raw.toString("utf8"));
    } catch {
      // refused below by the format, in its own words
    }
    const record: RecordedRequest = {
      kind: format.kind,
      model: matched.model ?? (isRecord(body) && typeof body.model === "string" ? body.model : ""),
      stream: matched.stream ?? (isRecord(body) && body.stream === true),
      method,
      path: url.pathname + url.search,
      headers: req.headers,
      body,
      conversation: null,
      status: null,
      outcome: "open",
      timing: { receivedAt, firstPieceAt: null, endedAt: null },
    };
    requests.push(record);
    const abort = new AbortController();
    open.set(res, { abort, record });
    res.once("close", () => {
      record.timing.endedAt = epochNow();
      open.delete(res);
      if (!res.writableFinished && record.outcome === "open") record.outcome = "client-closed";
      abort.abort();
    });
    const answer = (reply: HttpAnswer) => {
      record.status = reply.status;
      send(res, reply);
      record.outcome = "answered";
    };

    const refusal = format.authorise(req.headers, url.searchParams, expectedKey);
    if (refusal) return answer(refusal);
    const parsed = format.parse(body, matched);
    if (!("conversation" in parsed)) return answer(parsed);
    Object.assign(record, { model: parsed.model, stream: parsed.stream, conversation: parsed.conversation });
    if (known && !known.has(parsed.model)) return answer(format.error(404, parsed.model));

    const turn = nextTurn(record);
    if ("hang" in turn) return; // answered by nobody: the close handler above tidies up
    await sleep(turn.delayMs ?? 0, abort.signal);
    if (abort.signal.aborted) return;
    if ("status" in turn) return answer(format.error(turn.status, parsed.model, turn.message, turn.retryAfter));
    if ("garbage" in turn) return answer(garbage(parsed.stream));
    if (!isAnswer(turn)) return;
    const reply = buildReply(turn, parsed);
    if (!parsed.stream) return answer({ status: 200, body: format.json(reply, parsed) });
    record.status = 200;
    const ended = await writeStream(res, format.frames(reply, parsed), {
      lineEnd: format.lineEnd ?? "\n",
      jsonArray: format.jsonArrayStream?.(url.searchParams) ?? false,
      chunkDelayMs: turn.chunkDelayMs ?? 0,
      holdAfterFirstPieceMs: "holdAfterFirstPieceMs" in turn ? (turn.holdAfterFirstPieceMs ?? 0) : 0,
      signal: abort.signal,
      onFirstPiece: () => (record.timing.firstPieceAt = epochNow()),
    });
    if (ended && record.outcome === "open") record.outcome = "answered";
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      console.error("fake AI: handler failed", err);
      if (!res.headersSent) send(res, { status: 500, body: { error: { message: "fake AI handler failed" } } });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${options.host ?? "127.0.0.1"}:${port}`;

  return {
    url,
    port,
    baseUrls: { openai: `${url}/openai/v1`, anthropic: `${url}/anthropic/v1`, google: `${url}/google/v1beta`, compat: `${url}/compat/v1` },
    script(turns) {
      if (typeof turns === "function") {
        responder = turns;
        queue = [];
      } else {
        responder = null;
        queue = [...turns];
      }
    },
    requests,
    pending: () => queue.length,
    reset() {
      queue = [];
      responder = null;
      requests.length = 0;
    },
    async close() {
      for (const { abort, record } of open.values()) {
        if (record.outcome === "open") record.outcome = "server-closed";
        abort.abort();
      }
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

function send(res: ServerResponse, answer: HttpAnswer): void {
  if (res.destroyed) return;
  const text = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body);
  const type = typeof answer.body === "string" ? "text/html; charset=utf-8" : "application/json";
  res.writeHead(answer.status, { "content-type": type, "content-length": Buffer.byteLength(text), ...answer.headers });
  res.end(text);
}

/** The body, or null past the size bound (the rest is not read). */
async function readBody(req: IncomingMessage): Promise<Buffer | null> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return null;
    parts.push(chunk);
  }
  return Buffer.concat(parts);
}

/** Waits, or stops waiting as soon as the signal fires (the client left, or the fake is closing). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

/** A 200 that is not the format: an HTML page where JSON was expected, or events whose data is not JSON. */
function garbage(stream: boolean): HttpAnswer {
  const page =
    "<!DOCTYPE html><html><head><title>Sign in to the network</title></head><body><h1>Please sign in to continue</h1></body></html>";
  if (!stream) return { status: 200, body: page };
  return {
    status: 200,
    headers: { "content-type": "text/event-stream" },
    body: `data: ${page}\n\ndata: <p>upstream connect error</p>\n\n`,
  };
}

/** Writes the events, spacing the pieces of the answer; stops when the client goes away. True when all were written. */
/** Wall-clock milliseconds with a fraction: comparable with a browser's performance.timeOrigin + performance.now() on the same machine (the chat benchmark). */
const epochNow = (): number => performance.timeOrigin + performance.now();

async function writeStream(
  res: ServerResponse,
  frames: SseFrame[],
  options: {
    lineEnd: string;
    jsonArray: boolean;
    chunkDelayMs: number;
    holdAfterFirstPieceMs: number;
    signal: AbortSignal;
    onFirstPiece?: () => void;
  },
): Promise<boolean> {
  const { lineEnd: nl, jsonArray, signal } = options;
  res.writeHead(200, {
    "content-type": jsonArray ? "application/json; charset=UTF-8" : "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  res.flushHeaders();
  if (jsonArray) res.write("[");
  let first = true;
  let wrotePiece = false;
  let held = false;
  for (const frame of frames) {
    if (frame.piece) {
      // Once, between the first piece and the second: the hold, when the turn asks for one.
      const hold: boolean = wrotePiece && !held && options.holdAfterFirstPieceMs > 0;
      held ||= hold;
      await sleep(hold ? options.holdAfterFirstPieceMs : options.chunkDelayMs, signal);
    }
    if (signal.aborted || res.destroyed) return false;
    if (jsonArray) res.write(`${first ? "" : `,${nl}`}${frame.data}`);
    else res.write(`${frame.event ? `event: ${frame.event}${nl}` : ""}data: ${frame.data}${nl}${nl}`);
    if (frame.piece && !wrotePiece) {
      wrotePiece = true;
      options.onFirstPiece?.();
    }
    first = false;
  }
  res.end(jsonArray ? "]" : undefined);
  return true;
}
