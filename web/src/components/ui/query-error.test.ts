import { describe, expect, it } from "vitest";
import { ApiError, NetworkError } from "@/api/client";
import { explain } from "./query-error";

describe("what a failed load says", () => {
  it("the server's sentence, with its whole answer under Details", () => {
    const error = new ApiError(
      500,
      "Internal Server Error",
      JSON.stringify({ error: { code: "internal", message: "The database did not answer" } }),
    );
    expect(explain(error)).toEqual({
      reason: "The database did not answer",
      details: '{\n  "error": {\n    "code": "internal",\n    "message": "The database did not answer"\n  }\n}',
    });
  });

  it("no sentence: the status in words, never the raw body as the reason", () => {
    const error = new ApiError(502, "Bad Gateway", JSON.stringify({ upstream: "down" }));
    expect(explain(error)).toEqual({ reason: "The server answered 502 Bad Gateway.", details: '{\n  "upstream": "down"\n}' });
    expect(explain(new ApiError(503, "", "<html>proxy page</html>"))).toEqual({ reason: "The server answered 503.", details: null });
  });

  it("no answer at all, or not an API error: the message as it is", () => {
    expect(explain(new NetworkError(new TypeError("fetch failed")))).toEqual({
      reason: "Could not reach the server. Check your connection and try again.",
      details: null,
    });
    expect(explain(new Error("boom"))).toEqual({ reason: "boom", details: null });
  });
});
