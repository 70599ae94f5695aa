import { describe, expect, it } from "vitest";
import { API_ENDPOINTS } from "@contract/stats";
import { DASHBOARD_ENDPOINTS, endpointHealth, endpointKey, percentOf, statusBand, usageLevel, type HealthSignals } from "./status";

describe("statusBand (spec §9: under 300, under 400, under 500, else)", () => {
  it.each([
    [100, "success"],
    [200, "success"],
    [299, "success"],
    [300, "redirect"],
    [304, "redirect"],
    [399, "redirect"],
    [400, "client-error"],
    [429, "client-error"],
    [499, "client-error"],
    [500, "server-error"],
    [503, "server-error"],
    [599, "server-error"],
  ] as const)("%i is %s", (code, band) => {
    expect(statusBand(code)).toBe(band);
  });
});

describe("percentOf (the rate-limit bar)", () => {
  it("is used over total, with one decimal", () => {
    expect(percentOf(1, 3)).toBe(33.3);
    expect(percentOf(250, 1000)).toBe(25);
    expect(percentOf(2, 1000)).toBe(0.2);
  });
  it("stays between 0 and 100", () => {
    expect(percentOf(0, 1000)).toBe(0);
    expect(percentOf(1500, 1000)).toBe(100);
    expect(percentOf(-3, 1000)).toBe(0);
  });
  it("reads as full when calls were made against no budget, and as empty when nothing was used", () => {
    expect(percentOf(5, 0)).toBe(100);
    expect(percentOf(0, 0)).toBe(0);
    expect(percentOf(Number.NaN, 10)).toBe(0);
  });
  it("names the level the bar's colour shows", () => {
    expect(usageLevel(0)).toBe("normal");
    expect(usageLevel(74.9)).toBe("normal");
    expect(usageLevel(75)).toBe("high");
    expect(usageLevel(90)).toBe("critical");
  });
});

describe("the dashboard's endpoint list", () => {
  it("is the spec's shorter set, in the spec's order, taken from API_ENDPOINTS", () => {
    expect(DASHBOARD_ENDPOINTS.map(endpointKey)).toEqual([
      "GET /api/mcp/health",
      "POST /api/mcp/protocol",
      "SSE /api/sse/stream",
      "POST /oauth/token",
      "GET /api/atlassian/jira/*",
      "GET /api/atlassian/confluence/*",
      "GET /api/bitbucket/*",
    ]);
    for (const e of DASHBOARD_ENDPOINTS) expect(API_ENDPOINTS).toContain(e);
  });

  const find = (key: string) => DASHBOARD_ENDPOINTS.find((e) => endpointKey(e) === key)!;
  const all: HealthSignals = { serverRunning: true, jira: true, confluence: true, bitbucket: true };

  it("marks the server's own endpoints by the server status", () => {
    expect(endpointHealth(find("GET /api/mcp/health"), all)).toBe("up");
    expect(endpointHealth(find("SSE /api/sse/stream"), { ...all, serverRunning: undefined })).toBe("unknown");
    expect(endpointHealth(find("POST /oauth/token"), { ...all, serverRunning: false })).toBe("down");
  });

  it("marks each proxy by its own service's status", () => {
    const signals = { serverRunning: true, jira: true, confluence: false, bitbucket: undefined };
    expect(endpointHealth(find("GET /api/atlassian/jira/*"), signals)).toBe("up");
    expect(endpointHealth(find("GET /api/atlassian/confluence/*"), signals)).toBe("down");
    expect(endpointHealth(find("GET /api/bitbucket/*"), signals)).toBe("unknown");
  });

  it("takes every endpoint down with a server that is not running", () => {
    for (const e of DASHBOARD_ENDPOINTS) expect(endpointHealth(e, { ...all, serverRunning: false })).toBe("down");
  });
});
