import { APICallError, RetryError } from "ai";
import { describe, expect, it } from "vitest";
import { HostNotAllowedError } from "../upstream/host-policy";
import { describeProviderFailure } from "./provider-errors";

const apiError = (statusCode: number, responseBody: string) =>
  new APICallError({
    message: "Bad",
    url: "https://api.example/v1",
    requestBodyValues: {},
    statusCode,
    responseBody,
    isRetryable: statusCode === 429,
  });

describe("describeProviderFailure", () => {
  it("names the provider, the status and the provider's own words", () => {
    expect(
      describeProviderFailure(
        apiError(401, JSON.stringify({ error: { message: "Incorrect API key provided: sk-...1234" } })),
        "Team (OpenAI)",
      ),
    ).toEqual({
      code: "upstream_failed",
      status: 401,
      message: "Team (OpenAI) refused the API key (401): Incorrect API key provided: sk-...1234",
    });
    expect(
      describeProviderFailure(apiError(404, JSON.stringify({ error: { type: "not_found_error", message: "model: nope" } })), "C").message,
    ).toBe("C does not know this model (404): model: nope");
  });

  it("reads through the SDK's retry wrapper and bounds long reasons", () => {
    const last = apiError(429, JSON.stringify({ error: { message: "x".repeat(1000) } }));
    const failure = describeProviderFailure(new RetryError({ message: "retries", reason: "maxRetriesExceeded", errors: [last] }), "G");
    expect(failure.status).toBe(429);
    expect(failure.message.startsWith("G is rate limiting requests (429): xxx")).toBe(true);
    expect(failure.message.length).toBeLessThan(400);
  });

  it("says a timeout is a timeout, and a refused host is the network rule", () => {
    expect(describeProviderFailure(new Error("aborted"), "P", { timedOut: true })).toMatchObject({ code: "upstream_timeout" });
    const blocked = new TypeError("fetch failed", {
      cause: new HostNotAllowedError("127.0.0.1 resolves to 127.0.0.1, a loopback address"),
    });
    expect(describeProviderFailure(blocked, "P").message).toMatch(
      /^P's base URL is not allowed by this server's network rules: 127\.0\.0\.1/,
    );
  });
});

describe("a provider quoting the key back", () => {
  it("never passes the key on", () => {
    const failure = describeProviderFailure(
      apiError(401, JSON.stringify({ error: { message: "Key sk-live-abcdef123456 is invalid" } })),
      "P",
      { secrets: ["sk-live-abcdef123456", null] },
    );
    expect(failure.message).toBe("P refused the API key (401): Key [API key] is invalid");
  });
});

describe("Google's wrong key", () => {
  it("reads as a refused key although Google answers 400", () => {
    const body = JSON.stringify({
      error: {
        code: 400,
        message: "API key not valid. Please pass a valid API key.",
        status: "INVALID_ARGUMENT",
        details: [{ reason: "API_KEY_INVALID" }],
      },
    });
    expect(describeProviderFailure(apiError(400, body), "G").message).toBe(
      "G refused the API key (400): API key not valid. Please pass a valid API key.",
    );
  });
});
