import { describe, expect, it } from "vitest";
import { averageText, errorRateText, successRateText } from "./summary";

describe("stat card captions (spec section 2)", () => {
  it("says No requests and No errors when nothing matched", () => {
    expect(successRateText({ total: 0, successful: 0 }, "en-US")).toBe("No requests");
    expect(errorRateText({ total: 0, errors: 0 }, "en-US")).toBe("No errors");
  });

  it("says No errors when every request succeeded", () => {
    expect(successRateText({ total: 40, successful: 40 }, "en-US")).toBe("100% success rate");
    expect(errorRateText({ total: 40, errors: 0 }, "en-US")).toBe("No errors");
  });

  it("gives the rates with at most one decimal", () => {
    expect(successRateText({ total: 200, successful: 197 }, "en-US")).toBe("98.5% success rate");
    expect(errorRateText({ total: 200, errors: 3 }, "en-US")).toBe("1.5% error rate");
    expect(successRateText({ total: 3, successful: 1 }, "en-US")).toBe("33.3% success rate");
    expect(errorRateText({ total: 4, errors: 4 }, "en-US")).toBe("100% error rate");
    expect(successRateText({ total: 4, successful: 0 }, "en-US")).toBe("0% success rate");
  });

  it("never rounds a real error away", () => {
    expect(errorRateText({ total: 1_000_000, errors: 1 }, "en-US")).toBe("<0.1% error rate");
    expect(successRateText({ total: 1_000_000, successful: 999_999 }, "en-US")).toBe(">99.9% success rate");
  });

  it("follows the locale", () => {
    expect(successRateText({ total: 200, successful: 197 }, "de-DE")).toMatch(/^98,5\s%\ssuccess rate$/u);
  });
});

describe("averageText", () => {
  it("is whole milliseconds, grouped, or a dash", () => {
    expect(averageText(12.4, "en-US")).toBe("12ms");
    expect(averageText(99.5, "en-US")).toBe("100ms");
    expect(averageText(1234.56, "en-US")).toBe("1,235ms");
    expect(averageText(null, "en-US")).toBe("—");
  });
});
