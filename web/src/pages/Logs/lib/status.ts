/** Spec section 9's bands for a log's status code and response time, as the Logs screen shows them. */

/** Log success means status below 400; error 400 and above. */
export const isSuccessStatus = (statusCode: number): boolean => statusCode < 400;

export type StatusBadgeVariant = "default" | "secondary" | "destructive";

/** In the logs list the badge bands are: under 300 default, under 400 secondary, else destructive. */
export function statusBadgeVariant(statusCode: number): StatusBadgeVariant {
  if (statusCode < 300) return "default";
  if (statusCode < 400) return "secondary";
  return "destructive";
}

export type SpeedBand = "fast" | "moderate" | "slow";

/** Response-time colours: green under 100 ms, amber under 500 ms, else red. */
export function speedBand(ms: number): SpeedBand {
  if (ms < 100) return "fast";
  if (ms < 500) return "moderate";
  return "slow";
}

/** The colour and the words that go with it (colour is never the only signal, UI.md). */
export const SPEED: Record<SpeedBand, { label: string; hint: string; className: string }> = {
  fast: { label: "Fast", hint: "under 100ms", className: "text-success" },
  moderate: { label: "Moderate", hint: "under 500ms", className: "text-warning" },
  slow: { label: "Slow", hint: "500ms or more", className: "text-destructive" },
};

/** A row's response time in whole milliseconds ("3ms", "1,204ms"); under half a millisecond "<1ms". */
export function responseTimeText(ms: number, locale?: string): string {
  if (ms < 0.5) return "<1ms";
  return `${new Intl.NumberFormat(locale).format(Math.round(ms))}ms`;
}
