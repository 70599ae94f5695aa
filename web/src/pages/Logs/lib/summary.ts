import type { LogSummaryDto } from "@contract/logs";

/**
 * The stat cards' captions (spec section 2): the success rate or "No requests", the error rate or
 * "No errors". A rate that would round to 0% or 100% while it is not says so ("<0.1%"), so one
 * error in a million still shows as an error.
 */
function percent(part: number, whole: number, locale: string | undefined): string {
  const format = new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 });
  const rate = part / whole;
  if (rate > 0 && rate < 0.001) return `<${format.format(0.001)}`;
  if (rate < 1 && rate > 0.999) return `>${format.format(0.999)}`;
  return format.format(rate);
}

export function successRateText(summary: Pick<LogSummaryDto, "total" | "successful">, locale?: string): string {
  if (summary.total === 0) return "No requests";
  return `${percent(summary.successful, summary.total, locale)} success rate`;
}

export function errorRateText(summary: Pick<LogSummaryDto, "total" | "errors">, locale?: string): string {
  if (summary.errors === 0 || summary.total === 0) return "No errors";
  return `${percent(summary.errors, summary.total, locale)} error rate`;
}

/** The average response time in whole milliseconds ("124ms", "1,234ms"); a dash when nothing matched. */
export function averageText(ms: number | null, locale?: string): string {
  if (ms === null) return "—";
  return `${new Intl.NumberFormat(locale).format(Math.round(ms))}ms`;
}
