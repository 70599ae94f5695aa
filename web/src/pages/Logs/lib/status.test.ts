import { describe, expect, it } from "vitest";
import { isSuccessStatus, responseTimeText, speedBand, statusBadgeVariant } from "./status";

describe("status code bands (spec section 9)", () => {
  it("badges: under 300 default, under 400 secondary, else destructive", () => {
    expect(statusBadgeVariant(100)).toBe("default");
    expect(statusBadgeVariant(200)).toBe("default");
    expect(statusBadgeVariant(299)).toBe("default");
    expect(statusBadgeVariant(300)).toBe("secondary");
    expect(statusBadgeVariant(304)).toBe("secondary");
    expect(statusBadgeVariant(399)).toBe("secondary");
    expect(statusBadgeVariant(400)).toBe("destructive");
    expect(statusBadgeVariant(499)).toBe("destructive");
    expect(statusBadgeVariant(500)).toBe("destructive");
  });

  it("success is below 400, error 400 and above", () => {
    expect(isSuccessStatus(399)).toBe(true);
    expect(isSuccessStatus(302)).toBe(true);
    expect(isSuccessStatus(400)).toBe(false);
    expect(isSuccessStatus(503)).toBe(false);
  });
});

describe("response-time colours (spec section 9)", () => {
  it("green under 100 ms, amber under 500 ms, else red", () => {
    expect(speedBand(0)).toBe("fast");
    expect(speedBand(99.99)).toBe("fast");
    expect(speedBand(100)).toBe("moderate");
    expect(speedBand(499.9)).toBe("moderate");
    expect(speedBand(500)).toBe("slow");
    expect(speedBand(12_000)).toBe("slow");
  });
});

describe("responseTimeText", () => {
  it("rounds to whole milliseconds and never says 0ms", () => {
    expect(responseTimeText(0.2, "en-US")).toBe("<1ms");
    expect(responseTimeText(0.5, "en-US")).toBe("1ms");
    expect(responseTimeText(42.49, "en-US")).toBe("42ms");
    expect(responseTimeText(1203.6, "en-US")).toBe("1,204ms");
  });
});
