/**
 * The dashboard's small rules, kept pure so they are tested without a browser: the status-code
 * bands (spec §9), a rate limit's percentage, and which endpoints the dashboard lists and how each
 * one's health is decided (docs/decisions.md#measured-numbers, #view-documentation: real checks,
 * not constants).
 */
import { API_ENDPOINTS, type ApiEndpoint } from "@contract/stats";

/** Spec §2/§9: under 300 green, under 400 blue, under 500 amber, otherwise red. */
export type StatusBand = "success" | "redirect" | "client-error" | "server-error";

export function statusBand(statusCode: number): StatusBand {
  if (statusCode < 300) return "success";
  if (statusCode < 400) return "redirect";
  if (statusCode < 500) return "client-error";
  return "server-error";
}

/** What each band is called (the dot's colour is never the only signal: the code is text beside it). */
export const STATUS_BAND_LABEL: Record<StatusBand, string> = {
  success: "Success",
  redirect: "Redirect",
  "client-error": "Client error",
  "server-error": "Server error",
};

/**
 * Used over total as a percentage, 0 to 100 with one decimal: what the rate-limit bar shows.
 * No budget (total 0) with calls made reads as full; nothing used reads as empty.
 */
export function percentOf(used: number, total: number): number {
  if (!Number.isFinite(used) || used <= 0) return 0;
  if (!Number.isFinite(total) || total <= 0) return 100;
  return Math.min(100, Math.round((used / total) * 1000) / 10);
}

/** How close to the budget a rate limit is: the bar's colour, always shown with its figures. */
export function usageLevel(percent: number): "normal" | "high" | "critical" {
  if (percent >= 90) return "critical";
  if (percent >= 75) return "high";
  return "normal";
}

/** Spec §2: the dashboard's endpoint card lists a shorter set than the API Endpoints screen, in this order. */
const DASHBOARD_ENDPOINT_KEYS = [
  "GET /api/mcp/health",
  "POST /api/mcp/protocol",
  "SSE /api/sse/stream",
  "POST /oauth/token",
  "GET /api/atlassian/jira/*",
  "GET /api/atlassian/confluence/*",
  "GET /api/bitbucket/*",
] as const;

export const endpointKey = (e: { method: string; path: string }): string => `${e.method} ${e.path}`;

/** The dashboard's entries, taken from the one list (contract/stats.ts), not a second copy. */
export const DASHBOARD_ENDPOINTS: readonly ApiEndpoint[] = API_ENDPOINTS.filter((e) =>
  (DASHBOARD_ENDPOINT_KEYS as readonly string[]).includes(endpointKey(e)),
);

export { endpointHealth, serviceSignal, type EndpointHealth, type HealthSignals } from "@/lib/endpoint-health";
import type { EndpointHealth } from "@/lib/endpoint-health";

export const ENDPOINT_HEALTH_LABEL: Record<EndpointHealth, string> = {
  up: "Online",
  down: "Offline",
  unknown: "Unknown",
  "not-configured": "Not configured",
};
