import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInAs } from "../test/factories";
import { modernRpc, startMcpRig, type McpRig } from "../mcp/mcp.test-rig";

const TOKEN = "metrics-token-".padEnd(40, "x");

/** The value of one sample line (`name{labels} value`), 0 when the series does not exist yet. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`)) continue;
    const inside = line.slice(name.length + 1, line.indexOf("}"));
    const parts = inside.split(",");
    if (wanted.every((w) => parts.includes(w))) return Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return 0;
}

/** GET /metrics (issue 12 item 6): Prometheus text, guarded, and counting what happens. */
describe("metrics", () => {
  let rig: McpRig;
  const scrape = async (token = TOKEN) => fetch(`${rig.baseUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  const text = async () => {
    const res = await scrape();
    expect(res.status).toBe(200);
    return res.text();
  };

  beforeAll(async () => {
    rig = await startMcpRig({ METRICS_TOKEN: TOKEN, RATE_LIMIT_API_PER_MINUTE: 1, RATE_LIMIT_API_BURST: 1 });
  });
  afterAll(async () => {
    await rig?.t.close();
    await rig?.sandbox.close();
  });

  it("opens to the scraper's token and to a console session with stats.read; refuses anyone else", async () => {
    const res = await scrape();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const body = await res.text();
    for (const name of [
      "bridgekeeper_http_requests_total",
      "bridgekeeper_http_request_duration_seconds",
      "bridgekeeper_mcp_tool_calls_total",
      "bridgekeeper_upstream_requests_total",
      "bridgekeeper_open_streams",
      "bridgekeeper_request_log_queue_depth",
      "bridgekeeper_rate_limit_hits_total",
      "bridgekeeper_process_cpu_seconds_total",
    ]) {
      expect(body, name).toContain(`# TYPE ${name} `);
    }
    expect((await scrape("wrong-token".padEnd(40, "y"))).status).toBe(401);
    expect((await fetch(`${rig.baseUrl}/metrics`)).status).toBe(401);
    expect((await (await signedInAs(rig.t, ["viewer"])).client.get("/metrics")).status).toBe(200);
    expect((await (await signedInAs(rig.t, [])).client.get("/metrics")).status).toBe(403);
  });

  it("counts requests by route pattern, never by concrete path", async () => {
    const id = randomUUID();
    const before = sample(await text(), "bridgekeeper_http_requests_total", { route: "/api/users/:id", method: "GET", status: "404" });
    for (let i = 0; i < 3; i++) expect((await rig.admin.get(`/api/users/${id}`)).status).toBe(404);
    const after = await text();
    expect(sample(after, "bridgekeeper_http_requests_total", { route: "/api/users/:id", method: "GET", status: "404" }) - before).toBe(3);
    expect(after).not.toContain(id);
  });

  it("counts tool calls by tool and outcome, upstream calls by service, and rate-limit hits", async () => {
    const token = await rig.token("read");
    const before = await text();
    const ask = () =>
      modernRpc(rig.baseUrl, token, "tools/call", { name: "jira_search", arguments: { jql: "project = BK", maxResults: 2 } });
    // The API budget is 1 a minute plus a burst of 1: the first two calls run, the third is refused.
    for (let i = 0; i < 2; i++) {
      const call = await ask();
      expect(call.status).toBe(200);
      expect(call.json.result.isError).toBeFalsy();
    }
    expect((await ask()).status).toBe(429);
    const after = await text();
    const delta = (name: string, labels: Record<string, string>) => sample(after, name, labels) - sample(before, name, labels);
    expect(delta("bridgekeeper_mcp_tool_calls_total", { tool: "jira_search", outcome: "ok" })).toBe(2);
    expect(delta("bridgekeeper_upstream_requests_total", { service: "jira", outcome: "ok" })).toBeGreaterThanOrEqual(2);
    expect(delta("bridgekeeper_rate_limit_hits_total", { route: "/mcp" })).toBe(1);
    expect(delta("bridgekeeper_http_requests_total", { route: "/mcp", method: "POST", status: "200" })).toBe(2);
  });
});
