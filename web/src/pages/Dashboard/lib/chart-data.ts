/**
 * The traffic charts' data (GET /api/admin/stats/traffic: 60 minutes, oldest first) shaped for
 * uPlot (one x array in Unix seconds, one y array per series), and the figures and sentences that
 * stand in for each chart for someone who cannot see it.
 */
import type { TrafficMinuteDto } from "@contract/stats";
// Relative, not the @ alias: the vitest "web" project resolves no aliases.
import { formatNumber } from "../../../lib/format";

export const UPSTREAM_SERVICES = ["jira", "confluence", "bitbucket"] as const;
export type UpstreamService = (typeof UPSTREAM_SERVICES)[number];
export const SERVICE_LABEL: Record<UpstreamService, string> = { jira: "Jira", confluence: "Confluence", bitbucket: "Bitbucket" };

export interface TrafficSeries {
  /** Each minute's start, Unix seconds (uPlot's time scale). */
  x: number[];
  requests: number[];
  errors: number[];
  /** Errors over requests in percent; null for a minute without requests (a gap, not a zero). */
  errorRate: (number | null)[];
  upstream: Record<UpstreamService, number[]>;
}

/** Errors over requests in percent (0–100), or null when there were no requests. */
export function errorRate(errors: number, requests: number): number | null {
  if (!(requests > 0)) return null;
  return Math.min(100, Math.max(0, (errors / requests) * 100));
}

export function shapeTraffic(minutes: readonly TrafficMinuteDto[]): TrafficSeries {
  const rows = minutes.filter((m) => Number.isFinite(Date.parse(m.minute)));
  return {
    x: rows.map((m) => Date.parse(m.minute) / 1000),
    requests: rows.map((m) => m.requests),
    errors: rows.map((m) => m.errors),
    errorRate: rows.map((m) => errorRate(m.errors, m.requests)),
    upstream: {
      jira: rows.map((m) => m.upstream.jira),
      confluence: rows.map((m) => m.upstream.confluence),
      bitbucket: rows.map((m) => m.upstream.bitbucket),
    },
  };
}

export interface TrafficTotals {
  requests: number;
  errors: number;
  /** Over the hour, in percent; null without requests. */
  errorRate: number | null;
  /** The minute with the most requests (the earliest of equals); null when the hour was quiet. */
  busiest: { minute: string; requests: number } | null;
  /** The minute with the highest error rate; null when no minute had an error. */
  worstErrorMinute: { minute: string; rate: number } | null;
  upstream: Record<UpstreamService, number>;
  /** The most upstream calls (all services) in one minute. */
  upstreamPeak: number;
}

/** A chart's headline in its own unit: the busiest minute's count ("peak 172/min"), "–" for a quiet hour. */
export const perMinuteHeadline = (peak: number): string => (peak === 0 ? "–" : `peak ${formatNumber(peak)}/min`);

export function trafficTotals(minutes: readonly TrafficMinuteDto[]): TrafficTotals {
  let requests = 0;
  let errors = 0;
  let busiest: TrafficTotals["busiest"] = null;
  let worstErrorMinute: TrafficTotals["worstErrorMinute"] = null;
  const upstream = { jira: 0, confluence: 0, bitbucket: 0 };
  let upstreamPeak = 0;
  for (const m of minutes) {
    upstreamPeak = Math.max(
      upstreamPeak,
      UPSTREAM_SERVICES.reduce((sum, service) => sum + m.upstream[service], 0),
    );
    requests += m.requests;
    errors += m.errors;
    if (m.requests > 0 && (!busiest || m.requests > busiest.requests)) busiest = { minute: m.minute, requests: m.requests };
    const rate = m.errors > 0 ? errorRate(m.errors, m.requests) : null;
    if (rate !== null && (!worstErrorMinute || rate > worstErrorMinute.rate)) worstErrorMinute = { minute: m.minute, rate };
    for (const service of UPSTREAM_SERVICES) upstream[service] += m.upstream[service];
  }
  return { requests, errors, errorRate: errorRate(errors, requests), busiest, worstErrorMinute, upstream, upstreamPeak };
}

const percentFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
/** "1.3 %" */
export const formatPercent = (percent: number): string => `${percentFormat.format(percent)} %`;

const timeFormat = new Intl.DateTimeFormat(undefined, { timeStyle: "short" });
/** A minute's start (ISO, or epoch milliseconds) as the user's clock reads it ("2:05 PM", "14:05"). */
export const formatMinute = (at: string | number): string => timeFormat.format(new Date(at));

const count = (n: number, one: string, many = `${one}s`) => `${formatNumber(n)} ${n === 1 ? one : many}`;

/** "312 requests in the last hour, 4 errors (1.3 %). Busiest minute: 2:05 PM, 40 requests." */
export function requestsSummary(t: TrafficTotals, minute: (iso: string) => string = formatMinute): string {
  if (t.requests === 0) return "No requests in the last hour.";
  const errors = t.errors === 0 ? "no errors" : `${count(t.errors, "error")} (${formatPercent(t.errorRate ?? 0)})`;
  const busiest = t.busiest ? ` Busiest minute: ${minute(t.busiest.minute)}, ${count(t.busiest.requests, "request")}.` : "";
  return `${count(t.requests, "request")} in the last hour, ${errors}.${busiest}`;
}

/** "Error rate over the last hour: 1.3 % (4 of 312 requests). Highest: 25 % at 2:07 PM." */
export function errorRateSummary(t: TrafficTotals, minute: (iso: string) => string = formatMinute): string {
  if (t.requests === 0) return "No requests in the last hour, so no error rate.";
  const overall = `Error rate over the last hour: ${formatPercent(t.errorRate ?? 0)} (${formatNumber(t.errors)} of ${count(t.requests, "request")}).`;
  return t.worstErrorMinute
    ? `${overall} Highest: ${formatPercent(t.worstErrorMinute.rate)} at ${minute(t.worstErrorMinute.minute)}.`
    : overall;
}

/** "Upstream calls in the last hour: Jira 12, Confluence 3, Bitbucket 0." */
export function upstreamSummary(t: TrafficTotals): string {
  return `Upstream calls in the last hour: ${UPSTREAM_SERVICES.map((s) => `${SERVICE_LABEL[s]} ${formatNumber(t.upstream[s])}`).join(", ")}.`;
}
