import { describe, expect, it } from "vitest";
import type { TrafficMinuteDto } from "@contract/stats";
import {
  errorRate,
  errorRateSummary,
  formatPercent,
  perMinuteHeadline,
  requestsSummary,
  shapeTraffic,
  trafficTotals,
  upstreamSummary,
} from "./chart-data";

const at = (i: number) => new Date(Date.UTC(2026, 10, 25, 14, i)).toISOString();
const minute = (i: number, requests: number, errors = 0, upstream = { jira: 0, confluence: 0, bitbucket: 0 }): TrafficMinuteDto => ({
  minute: at(i),
  requests,
  errors,
  upstream,
});
/** Tests read minutes as "14:MM" (UTC), whatever the machine's locale. */
const clock = (iso: string) => iso.slice(11, 16);

describe("shapeTraffic (uPlot's aligned data)", () => {
  it("keeps the order and turns each minute into Unix seconds, one array per series", () => {
    const shaped = shapeTraffic([
      minute(0, 10, 1, { jira: 3, confluence: 1, bitbucket: 0 }),
      minute(1, 0),
      minute(2, 4, 4, { jira: 0, confluence: 0, bitbucket: 7 }),
    ]);
    expect(shaped.x).toEqual([
      Date.UTC(2026, 10, 25, 14, 0) / 1000,
      Date.UTC(2026, 10, 25, 14, 1) / 1000,
      Date.UTC(2026, 10, 25, 14, 2) / 1000,
    ]);
    expect(shaped.requests).toEqual([10, 0, 4]);
    expect(shaped.errors).toEqual([1, 0, 4]);
    expect(shaped.upstream).toEqual({ jira: [3, 0, 0], confluence: [1, 0, 0], bitbucket: [0, 0, 7] });
  });

  it("leaves a gap (null), not a zero, for the error rate of a minute without requests", () => {
    expect(shapeTraffic([minute(0, 10, 1), minute(1, 0), minute(2, 4, 4)]).errorRate).toEqual([10, null, 100]);
  });

  it("gives every series the length of x, and drops a minute whose time cannot be read", () => {
    const shaped = shapeTraffic([minute(0, 1), { ...minute(1, 2), minute: "not a date" }, minute(2, 3)]);
    expect(shaped.x).toHaveLength(2);
    expect(shaped.requests).toEqual([1, 3]);
    expect(shaped.upstream.jira).toHaveLength(2);
  });

  it("handles an empty hour", () => {
    expect(shapeTraffic([])).toEqual({
      x: [],
      requests: [],
      errors: [],
      errorRate: [],
      upstream: { jira: [], confluence: [], bitbucket: [] },
    });
  });
});

describe("errorRate", () => {
  it("is errors over requests in percent, null without requests", () => {
    expect(errorRate(4, 312)).toBeCloseTo(1.282, 3);
    expect(errorRate(0, 0)).toBeNull();
    expect(errorRate(5, 2)).toBe(100);
  });
});

describe("trafficTotals and the text alternatives", () => {
  const hour = [minute(0, 100, 0), minute(5, 172, 2, { jira: 12, confluence: 3, bitbucket: 0 }), minute(7, 40, 2), minute(9, 0)];

  it("adds the hour up and finds the busiest minute and the worst error rate", () => {
    const t = trafficTotals(hour);
    expect(t.requests).toBe(312);
    expect(t.errors).toBe(4);
    expect(t.errorRate).toBeCloseTo(1.282, 3);
    expect(t.busiest).toEqual({ minute: at(5), requests: 172 });
    expect(t.worstErrorMinute).toEqual({ minute: at(7), rate: 5 });
    expect(t.upstream).toEqual({ jira: 12, confluence: 3, bitbucket: 0 });
    expect(t.upstreamPeak).toBe(15);
  });

  it("heads a per-minute chart with a per-minute figure: the busiest minute's", () => {
    expect(perMinuteHeadline(trafficTotals(hour).busiest!.requests)).toBe("peak 172/min");
    expect(perMinuteHeadline(0)).toBe("–");
  });

  it("says what the charts show, in words", () => {
    const t = trafficTotals(hour);
    expect(requestsSummary(t, clock)).toBe("312 requests in the last hour, 4 errors (1.3 %). Busiest minute: 14:05, 172 requests.");
    expect(errorRateSummary(t, clock)).toBe("Error rate over the last hour: 1.3 % (4 of 312 requests). Highest: 5 % at 14:07.");
    expect(upstreamSummary(t)).toBe("Upstream calls in the last hour: Jira 12, Confluence 3, Bitbucket 0.");
  });

  it("says a quiet hour plainly", () => {
    const t = trafficTotals([minute(0, 0), minute(1, 0)]);
    expect(t.busiest).toBeNull();
    expect(t.worstErrorMinute).toBeNull();
    expect(requestsSummary(t, clock)).toBe("No requests in the last hour.");
    expect(errorRateSummary(t, clock)).toBe("No requests in the last hour, so no error rate.");
    expect(requestsSummary(trafficTotals([minute(0, 1)]), clock)).toBe(
      "1 request in the last hour, no errors. Busiest minute: 14:00, 1 request.",
    );
  });

  it("formats a percentage with one decimal and a space before the sign", () => {
    expect(formatPercent(1.2821)).toBe("1.3 %");
    expect(formatPercent(100)).toBe("100 %");
  });
});
