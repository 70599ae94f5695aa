import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { DropReason } from "./batch-writer";

/** Seconds: from a fast cached answer to a slow upstream call. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"]);

/** What the gauges read when Prometheus scrapes (never kept up to date on the request path). */
export interface MetricsProbes {
  openStreams: () => number;
  logQueueDepth: () => number;
}

/**
 * The process's Prometheus metrics (issue 12 item 6), on a registry of its own (two apps in one
 * test process do not share counters). Labels are bounded: a route is its pattern
 * (`/api/users/:id`), never a concrete path; a tool is a catalogue name; a service is one of three.
 */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "bridgekeeper_" });

  const httpRequests = new Counter({
    name: "bridgekeeper_http_requests_total",
    help: "HTTP requests answered, by route pattern, method and status code",
    labelNames: ["route", "method", "status"] as const,
    registers: [registry],
  });
  const httpDuration = new Histogram({
    name: "bridgekeeper_http_request_duration_seconds",
    help: "Time to answer an HTTP request (a stream: its whole life), by route pattern and method",
    labelNames: ["route", "method"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const rateLimited = new Counter({
    name: "bridgekeeper_rate_limit_hits_total",
    help: "Requests answered 429 by a rate or stream limit, by route pattern",
    labelNames: ["route"] as const,
    registers: [registry],
  });
  const toolCalls = new Counter({
    name: "bridgekeeper_mcp_tool_calls_total",
    help: "MCP tools/call requests run, by tool and outcome (ok, error)",
    labelNames: ["tool", "outcome"] as const,
    registers: [registry],
  });
  const toolDuration = new Histogram({
    name: "bridgekeeper_mcp_tool_call_duration_seconds",
    help: "Time to run an MCP tool, upstream calls included, by tool",
    labelNames: ["tool"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const upstreamCalls = new Counter({
    name: "bridgekeeper_upstream_requests_total",
    help: "Calls to Jira, Confluence and Bitbucket (retries included in one call), by service and outcome (ok or the error kind)",
    labelNames: ["service", "outcome"] as const,
    registers: [registry],
  });
  const upstreamDuration = new Histogram({
    name: "bridgekeeper_upstream_request_duration_seconds",
    help: "Time of a call to Jira, Confluence or Bitbucket, retries and waits included, by service",
    labelNames: ["service"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const logRowsDropped = new Counter({
    name: "bridgekeeper_log_rows_dropped_total",
    help: "Request log and tool-call audit rows that could not be written, by log (request_log, tool_calls) and reason (invalid_data, constraint, too_large, database_error, buffer_full)",
    labelNames: ["log", "reason"] as const,
    registers: [registry],
  });
  const probes: Partial<MetricsProbes> = {};
  new Gauge({
    name: "bridgekeeper_open_streams",
    help: "Long-lived streams (SSE, legacy SSE, subscriptions/listen) this process holds open",
    registers: [registry],
    collect() {
      this.set(probes.openStreams?.() ?? 0);
    },
  });
  new Gauge({
    name: "bridgekeeper_request_log_queue_depth",
    help: "Request log rows waiting for their batch to be written",
    registers: [registry],
    collect() {
      this.set(probes.logQueueDepth?.() ?? 0);
    },
  });

  return {
    registry,
    contentType: registry.contentType,
    /** The gauges' sources, known once the app is built. */
    probe(p: MetricsProbes): void {
      Object.assign(probes, p);
    },
    request(route: string, method: string | undefined, status: number, seconds: number): void {
      const m = method && METHODS.has(method) ? method : "OTHER";
      httpRequests.inc({ route, method: m, status: String(status) });
      httpDuration.observe({ route, method: m }, seconds);
      if (status === 429) rateLimited.inc({ route });
    },
    toolCall(tool: string, ok: boolean, seconds: number): void {
      toolCalls.inc({ tool, outcome: ok ? "ok" : "error" });
      toolDuration.observe({ tool }, seconds);
    },
    upstream(service: string, outcome: string, seconds: number): void {
      upstreamCalls.inc({ service, outcome });
      upstreamDuration.observe({ service }, seconds);
    },
    /** Rows of a batched log the database did not take (lib/batch-writer.ts). */
    logRowsDropped(log: "request_log" | "tool_calls", reason: DropReason, rows: number): void {
      logRowsDropped.inc({ log, reason }, rows);
    },
    /** The text exposition format. */
    render: (): Promise<string> => registry.metrics(),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** Where an unrouted request belongs (a guard or a limit answered before any route matched, or a console page). */
const PREFIXES = ["/api/admin", "/api/atlassian", "/api/bitbucket", "/api", "/oauth", "/.well-known", "/mcp", "/sse", "/messages"];

/**
 * A request's route label: the pattern of the Express route that answered (`/api/users/:id`),
 * else the area its path is in (`/api/*`), else `(console)`. Never the path itself: label values
 * stay few whatever clients send. Read when the request ends, when `baseUrl` no longer says where
 * the route was mounted (a router that passed an error on has taken it back; a middleware mounted
 * on a path has put its own): every router is mounted at the root but the one at /api (app.ts).
 */
export function routeLabel(req: { route?: { path?: unknown }; originalUrl?: string; url?: string }): string {
  const path = (req.originalUrl ?? req.url ?? "").split("?")[0]!;
  if (req.route && typeof req.route.path === "string") {
    const pattern = req.route.path;
    return path.startsWith("/api/") && !pattern.startsWith("/api/") ? `/api${pattern}` : pattern;
  }
  const prefix = PREFIXES.find((p) => path === p || path.startsWith(`${p}/`));
  return prefix ? `${prefix}/*` : "(console)";
}
