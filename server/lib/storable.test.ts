import { describe, expect, it } from "vitest";
import { storable, storableText } from "./storable";

describe("text PostgreSQL can store", () => {
  it("replaces NUL and unpaired surrogates with U+FFFD, keeps pairs and everything else", () => {
    expect(storableText("a\u0000b")).toBe("a\ufffdb");
    expect(storableText("\ud800x\udfff")).toBe("\ufffdx\ufffd");
    expect(storableText("end\ud83d")).toBe("end\ufffd");
    expect(storableText("emoji 😀 Grüße 日本 \\u0000")).toBe("emoji 😀 Grüße 日本 \\u0000");
  });

  it("reaches every string of a row: columns, and keys and values deep in JSON; other values are kept as they are", () => {
    const at = new Date("2026-01-01T00:00:00Z");
    const row = { at, n: 1.5, none: null, flag: true, text: "x\u0000", json: { "k\u0000": ["\ud800", { deep: "\udc00" }], ok: 1 } };
    expect(storable(row)).toEqual({
      at,
      n: 1.5,
      none: null,
      flag: true,
      text: "x\ufffd",
      json: { "k\ufffd": ["\ufffd", { deep: "\ufffd" }], ok: 1 },
    });
    expect(storable(row).at).toBe(at);
    const clean = { at, list: ["a", { b: "c" }] };
    expect(storable(clean)).toBe(clean);
  });
});
