/**
 * The console's one set of formatters (UI.md): numbers with the user's grouping, dates in the
 * user's locale ("Mar 3, 2025" on a card, the full date and time in its tooltip), durations and
 * relative times. Unparseable input comes back as it was, never "Invalid Date".
 */
const numberFormat = new Intl.NumberFormat();
const decimalFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const timestampFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });
const timeFormat = new Intl.DateTimeFormat(undefined, { hour: "numeric", minute: "2-digit" });
const fullFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "full", timeStyle: "long" });

function parse(iso: string | Date): Date | null {
  const date = iso instanceof Date ? iso : new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

const using =
  (format: Intl.DateTimeFormat) =>
  (iso: string | Date): string => {
    const date = parse(iso);
    return date ? format.format(date) : String(iso);
  };

/** 12,345 */
export const formatNumber = (n: number): string => numberFormat.format(n);
/** "Mar 3, 2025" */
export const formatDate = using(dateFormat);
/** "Mar 3, 2025, 2:05 PM" */
export const formatDateTime = using(dateTimeFormat);
/** "Mar 3, 2025, 2:05:09 PM": a log row's timestamp. */
export const formatTimestamp = using(timestampFormat);
/** "2:05 PM": a chat message's time. */
export const formatTime = using(timeFormat);
/** "Monday, March 3, 2025 at 2:05:09 PM GMT+1": for tooltips. */
export const formatFull = using(fullFormat);

/** A response time: "12ms", "1.2s". */
export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  return `${decimalFormat.format(ms / 1000)}s`;
}

/** "3d 4h", "4h 12m", "12m", "45s": how long the server has been up. */
export function formatUptime(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3_600);
  const m = Math.floor((s % 3_600) / 60);
  if (d > 0) return `${d}d ${h}h`;
  if (h > 0) return `${h}h ${m}m`;
  if (m > 0) return `${m}m`;
  return `${s}s`;
}

/** Spec's relative times: "Just now" under a minute, then "Nm ago", "Nh ago", "Nd ago". */
export function formatRelative(iso: string | Date, now: number = Date.now()): string {
  const date = parse(iso);
  if (!date) return String(iso);
  const seconds = Math.max(0, Math.floor((now - date.getTime()) / 1000));
  if (seconds < 60) return "Just now";
  if (seconds < 3_600) return `${Math.floor(seconds / 60)}m ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3_600)}h ago`;
  return `${Math.floor(seconds / 86_400)}d ago`;
}

/** "1 active grant", "12 active grants". */
export const plural = (count: number, one: string, many = `${one}s`): string => `${formatNumber(count)} ${count === 1 ? one : many}`;
