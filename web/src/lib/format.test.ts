import { describe, expect, it } from "vitest";
import { formatMs, formatNumber, formatRelative, formatTime, formatTimestamp, formatUptime, plural } from "./format";

describe("formatRelative (spec: heartbeat times)", () => {
  const now = Date.parse("2026-11-25T12:00:00Z");
  const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();

  it("says Just now under a minute, then minutes, hours and days", () => {
    expect(formatRelative(ago(0), now)).toBe("Just now");
    expect(formatRelative(ago(59), now)).toBe("Just now");
    expect(formatRelative(ago(60), now)).toBe("1m ago");
    expect(formatRelative(ago(59 * 60 + 59), now)).toBe("59m ago");
    expect(formatRelative(ago(3600), now)).toBe("1h ago");
    expect(formatRelative(ago(23 * 3600 + 3599), now)).toBe("23h ago");
    expect(formatRelative(ago(86_400), now)).toBe("1d ago");
    expect(formatRelative(ago(40 * 86_400), now)).toBe("40d ago");
  });

  it("treats a moment in the future (clock skew) as now, and leaves garbage as it came", () => {
    expect(formatRelative(new Date(now + 5000).toISOString(), now)).toBe("Just now");
    expect(formatRelative("not a date", now)).toBe("not a date");
  });
});

describe("numbers, durations and uptimes", () => {
  it("formats response times in ms below a second, seconds above", () => {
    expect(formatMs(0)).toBe("0ms");
    expect(formatMs(12.4)).toBe("12ms");
    expect(formatMs(999)).toBe("999ms");
    expect(formatMs(1500)).toMatch(/^1[.,]5s$/);
  });

  it("formats uptime by its two largest units", () => {
    expect(formatUptime(45)).toBe("45s");
    expect(formatUptime(12 * 60 + 5)).toBe("12m");
    expect(formatUptime(4 * 3600 + 12 * 60)).toBe("4h 12m");
    expect(formatUptime(3 * 86_400 + 4 * 3600 + 59)).toBe("3d 4h");
    expect(formatUptime(-3)).toBe("0s");
  });

  it("groups thousands and pluralises", () => {
    expect(formatNumber(1234567)).toMatch(/^1.234.567$/);
    expect(plural(1, "active grant")).toBe("1 active grant");
    expect(plural(12, "active grant")).toBe("12 active grants");
  });

  it("keeps an unparseable timestamp as it came", () => {
    expect(formatTimestamp("garbage")).toBe("garbage");
    expect(formatTime("garbage")).toBe("garbage");
    expect(formatTimestamp("2026-11-25T12:00:00Z")).toMatch(/2026/);
  });
});
