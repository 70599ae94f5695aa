import { describe, expect, it } from "vitest";
import { createFakeClock } from "../test/fake-clock";
import { createUpstreamMeter } from "./meter";

/** The meter's per-service minute rings: the status cards' hourly use and the dashboard's chart. */
describe("upstream meter", () => {
  it("counts calls per service and minute, sums a budget group's services, and forgets what is over an hour old", () => {
    const clock = createFakeClock(new Date("2026-01-15T09:00:30Z"));
    const meter = createUpstreamMeter({ clock, hourlyBudget: { atlassian: 1000, bitbucket: 500 } });
    meter.recordCall("jira");
    meter.recordCall("jira");
    meter.recordCall("confluence");
    clock.advance(60_000);
    meter.recordCall("bitbucket");
    meter.recordCall("jira");
    expect(meter.callsPerMinute("jira").slice(-2)).toEqual([2, 1]);
    expect(meter.callsPerMinute("confluence").slice(-2)).toEqual([1, 0]);
    expect(meter.callsPerMinute("bitbucket").slice(-2)).toEqual([0, 1]);
    expect(meter.callsPerMinute("jira")).toHaveLength(60);
    expect(meter.usage("atlassian")).toEqual({ used: 4, total: 1000 });
    expect(meter.usage("bitbucket")).toEqual({ used: 1, total: 500 });
    // 59 minutes on, the first minute has left the hour; the second is the oldest in the chart.
    clock.advance(59 * 60_000);
    expect(meter.usage("atlassian")).toEqual({ used: 1, total: 1000 });
    expect(meter.callsPerMinute("jira")[0]).toBe(1);
    expect(meter.callsPerMinute("jira").reduce((a, b) => a + b, 0)).toBe(1);
  });
});
