import { describe, expect, it } from "vitest";
import { createSseParser, readSse, type SseMessage } from "./sse";

function parse(chunks: string[], end = true): SseMessage[] {
  const seen: SseMessage[] = [];
  const parser = createSseParser((m) => seen.push(m));
  for (const chunk of chunks) parser.push(chunk);
  if (end) parser.end();
  return seen;
}

describe("createSseParser (WHATWG event-stream interpretation)", () => {
  it("reads named events with JSON data, as the chat route writes them", () => {
    const text = `event: start\ndata: {"type":"start"}\n\nevent: text\ndata: {"type":"text","delta":"Hi"}\n\n`;
    expect(parse([text])).toEqual([
      { event: "start", data: '{"type":"start"}' },
      { event: "text", data: '{"type":"text","delta":"Hi"}' },
    ]);
  });

  it("handles chunks cut anywhere, one character at a time included", () => {
    const text = `event: text\ndata: {"delta":"a b"}\n\nevent: done\ndata: {}\n\n`;
    const expected = [
      { event: "text", data: '{"delta":"a b"}' },
      { event: "done", data: "{}" },
    ];
    expect(parse(text.split(""))).toEqual(expected);
    for (let cut = 1; cut < text.length; cut++) expect(parse([text.slice(0, cut), text.slice(cut)])).toEqual(expected);
  });

  it("accepts \\r\\n and \\r line ends, even a \\r\\n split across chunks", () => {
    expect(parse(["event: a\r\ndata: 1\r\n\r\n", "data: 2\r\r"])).toEqual([
      { event: "a", data: "1" },
      { event: "message", data: "2" },
    ]);
    expect(parse(["data: x\r", "\n\r", "\n"])).toEqual([{ event: "message", data: "x" }]);
    // An empty piece between the \r and its \n (a chunk holding only part of a multi-byte
    // character decodes to ""): still one line end, not a blank line that dispatches early.
    expect(parse(["data: x\r", "", "\ndata: y\n\n"])).toEqual([{ event: "message", data: "x\ny" }]);
  });

  it("joins multi-line data, skips comments and unknown fields, keeps the id, drops a leading space only", () => {
    expect(parse([": keep-alive\n", "id: 7\nretry: 10\nfoo: bar\ndata:  two spaces\ndata:no space\ndata\n\n"])).toEqual([
      { event: "message", data: " two spaces\nno space\n", id: "7" },
    ]);
  });

  it("dispatches nothing for an event without data, and resets the event name after each dispatch", () => {
    expect(parse(["event: ping\n\ndata: after\n\n"])).toEqual([{ event: "message", data: "after" }]);
  });

  it("flushes a last event that lacks its blank line only when the stream ends", () => {
    expect(parse(["event: done\ndata: {}"], false)).toEqual([]);
    expect(parse(["event: done\ndata: {}"])).toEqual([{ event: "done", data: "{}" }]);
  });
});

describe("readSse", () => {
  it("decodes UTF-8 split inside a character and reads to the end", async () => {
    const bytes = new TextEncoder().encode('event: text\ndata: {"delta":"héllo ✓"}\n\n');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 3) controller.enqueue(bytes.slice(i, i + 3));
        controller.close();
      },
    });
    const seen: SseMessage[] = [];
    await readSse(body, (m) => seen.push(m));
    expect(seen).toEqual([{ event: "text", data: '{"delta":"héllo ✓"}' }]);
  });
});
