import { describe, expect, it } from "vitest";
import type { AtlassianStatusDto, BitbucketStatusDto } from "@contract/integrations";
import type { StatsDto } from "@contract/stats";
import { API_ENDPOINTS, examples, healthCounts, healthOf, isHealthy, statOf } from "./endpoints";

const running = { serverStatus: "Running" } as StatsDto;
const atlassian = (jira: boolean, confluence: boolean, configured = true) =>
  ({ configured, isActive: true, jiraConnected: jira, confluenceConnected: confluence }) as AtlassianStatusDto;
const bitbucket = (connected: boolean, configured = true) => ({ configured, isActive: true, connected }) as BitbucketStatusDto;
const byPath = (path: string) => API_ENDPOINTS.find((e) => e.path === path)!;

describe("API endpoints", () => {
  it("lists the spec's ten endpoints in its order, with /mcp and the Bitbucket proxy added", () => {
    const spec = [
      "GET /api/mcp/health",
      "POST /api/mcp/protocol",
      "SSE /api/sse/stream",
      "POST /oauth/token",
      "GET /oauth/authorize",
      "GET /api/atlassian/jira/*",
      "GET /api/atlassian/confluence/*",
      "GET /api/admin/stats",
      "GET /api/admin/oauth-clients",
      "GET /api/admin/logs",
    ];
    const listed = API_ENDPOINTS.map((e) => `${e.method} ${e.path}`);
    expect(listed.filter((e) => spec.includes(e))).toEqual(spec);
    expect(listed).toContain("POST /mcp");
    expect(listed).toContain("GET /api/bitbucket/*");
  });

  it("a service's proxy is healthy only when that service is connected; the rest while the server runs", () => {
    const inputs = { stats: running, atlassian: atlassian(true, false), bitbucket: bitbucket(false) };
    expect(isHealthy(byPath("/api/atlassian/jira/*"), inputs)).toBe(true);
    expect(isHealthy(byPath("/api/atlassian/confluence/*"), inputs)).toBe(false);
    expect(isHealthy(byPath("/api/bitbucket/*"), inputs)).toBe(false);
    expect(isHealthy(byPath("/api/mcp/health"), inputs)).toBe(true);
    expect(isHealthy(byPath("/api/mcp/health"), { ...inputs, stats: { serverStatus: "Database unavailable" } as StatsDto })).toBe(false);
    expect(isHealthy(byPath("/api/atlassian/jira/*"), { stats: running, atlassian: null, bitbucket: null })).toBe(false);
    // The Dashboard's card and this screen read one rule: a server that is not running takes its proxies down too.
    expect(isHealthy(byPath("/api/atlassian/jira/*"), { ...inputs, stats: { serverStatus: "Database unavailable" } as StatsDto })).toBe(
      false,
    );
    expect(healthCounts(inputs)).toEqual({ total: API_ENDPOINTS.length, healthy: API_ENDPOINTS.length - 2, unhealthy: 2, failing: 2 });
  });

  it("a service nobody has set up (or switched off) is not healthy (spec), but not down either: waiting to be configured", () => {
    const fresh = { stats: running, atlassian: atlassian(false, false, false), bitbucket: bitbucket(false, false) };
    for (const path of ["/api/atlassian/jira/*", "/api/atlassian/confluence/*", "/api/bitbucket/*"]) {
      expect(healthOf(byPath(path), fresh)).toBe("not-configured");
      expect(isHealthy(byPath(path), fresh)).toBe(false);
    }
    expect(healthCounts(fresh)).toEqual({ total: API_ENDPOINTS.length, healthy: API_ENDPOINTS.length - 3, unhealthy: 3, failing: 0 });
    const switchedOff = { ...fresh, bitbucket: { ...bitbucket(true), isActive: false } as BitbucketStatusDto };
    expect(healthOf(byPath("/api/bitbucket/*"), switchedOff)).toBe("not-configured");
    // A server that is not running takes them down all the same.
    expect(healthOf(byPath("/api/bitbucket/*"), { ...fresh, stats: { serverStatus: "Database unavailable" } as StatsDto })).toBe("down");
  });

  it("finds an endpoint's measured figures", () => {
    expect(statOf(byPath("/oauth/token"), [{ method: "POST", path: "/oauth/token", requests: 3, medianMs: 12.5 }])).toEqual({
      method: "POST",
      path: "/oauth/token",
      requests: 3,
      medianMs: 12.5,
    });
    expect(statOf(byPath("/oauth/token"), null)).toBeUndefined();
  });

  it("writes the examples with this server's address", () => {
    const e = examples("https://bk.example.com");
    expect(e.protocol).toContain("https://bk.example.com/api/mcp/protocol");
    expect(e.protocol).toContain('"method": "tools/list"');
    expect(e.protocol).toContain("Authorization: Bearer");
    expect(e.sse).toContain("Accept: text/event-stream");
    expect(e.token).toContain("grant_type=authorization_code");
    for (const field of ["client_id", "client_secret", "code", "redirect_uri", "code_verifier"]) expect(e.token).toContain(`${field}=`);
  });
});
