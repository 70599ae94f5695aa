/**
 * A small parser for server-sent events read from a fetch body (WHATWG HTML §9.2.6 "Interpreting
 * an event stream"). EventSource cannot POST nor carry a body, so the chat reads its stream with
 * fetch and feeds the text here. Handles chunks cut anywhere (inside a line, between \r and \n),
 * multi-line `data:`, comments, and a final event without its blank line (flushed by `end`).
 */
export interface SseMessage {
  /** The `event:` field; "message" when absent (the spec's default). */
  event: string;
  /** The `data:` lines joined with "\n". */
  data: string;
  id?: string;
}

export interface SseParser {
  /** Feeds the next piece of decoded text. */
  push(chunk: string): void;
  /** The stream ended: dispatches a pending event that lacked its closing blank line. */
  end(): void;
}

export function createSseParser(onMessage: (message: SseMessage) => void): SseParser {
  let buffer = "";
  let event = "";
  let data: string[] = [];
  let id: string | undefined;
  let sawData = false;
  // A chunk ending in \r may be followed by \n in the next chunk: one line end, not two.
  let skipLeadingLf = false;

  const dispatch = () => {
    if (sawData) onMessage({ event: event || "message", data: data.join("\n"), ...(id !== undefined ? { id } : {}) });
    event = "";
    data = [];
    sawData = false;
  };

  const line = (text: string) => {
    if (text === "") return dispatch();
    if (text.startsWith(":")) return; // a comment (keep-alive)
    const colon = text.indexOf(":");
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") event = value;
    else if (field === "data") {
      data.push(value);
      sawData = true;
    } else if (field === "id" && !value.includes("\0")) id = value;
    // "retry" and unknown fields are ignored: a fetch reader does not reconnect.
  };

  return {
    push(chunk) {
      // An empty piece (a decoded chunk that held only part of a character) decides nothing.
      if (chunk === "") return;
      if (skipLeadingLf && chunk.startsWith("\n")) chunk = chunk.slice(1);
      skipLeadingLf = false;
      buffer += chunk;
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const c = buffer[i];
        if (c !== "\n" && c !== "\r") continue;
        line(buffer.slice(start, i));
        if (c === "\r") {
          if (i + 1 === buffer.length) skipLeadingLf = true;
          else if (buffer[i + 1] === "\n") i++;
        }
        start = i + 1;
      }
      buffer = buffer.slice(start);
    },
    end() {
      if (buffer !== "") line(buffer);
      buffer = "";
      dispatch();
    },
  };
}

/** Reads a fetch body as server-sent events until it ends (or the request is aborted, which rejects). */
export async function readSse(body: ReadableStream<Uint8Array>, onMessage: (message: SseMessage) => void): Promise<void> {
  const parser = createSseParser(onMessage);
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.push(decoder.decode(value, { stream: true }));
    }
    parser.push(decoder.decode());
    parser.end();
  } finally {
    reader.releaseLock();
  }
}
