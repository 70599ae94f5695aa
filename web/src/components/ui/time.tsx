import { formatDate, formatDateTime, formatFull, formatRelative, formatTime, formatTimestamp } from "@/lib/format";

const SHORT = {
  date: formatDate,
  dateTime: formatDateTime,
  time: formatTime,
  timestamp: formatTimestamp,
  relative: (iso: string) => formatRelative(iso),
} as const;

/** A moment shown short ("Mar 3, 2025", "5m ago"), its full date and time in the tooltip (UI.md). */
export function Time({ iso, as = "date", now, className }: { iso: string; as?: keyof typeof SHORT; now?: number; className?: string }) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return <span className={className}>{iso}</span>;
  return (
    <time dateTime={date.toISOString()} title={formatFull(date)} className={className}>
      {as === "relative" && now !== undefined ? formatRelative(date, now) : SHORT[as](iso)}
    </time>
  );
}
