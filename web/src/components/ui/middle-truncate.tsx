import { cn } from "@/lib/utils";

interface MiddleTruncateProps {
  value: string;
  /** How many characters always stay visible at the end. */
  tail?: number;
  className?: string;
}

/**
 * A long id or secret that shortens in the middle when it does not fit ("bk_3f9a…c81e", UI.md).
 * The whole value stays in the DOM (selection, copy, screen readers, tests read all of it); only
 * the head is clipped with an ellipsis, the last `tail` characters always show.
 */
export function MiddleTruncate({ value, tail = 8, className }: MiddleTruncateProps) {
  const split = value.length > tail * 2;
  const head = split ? value.slice(0, -tail) : value;
  const end = split ? value.slice(-tail) : "";
  return (
    <span className={cn("flex min-w-0 whitespace-nowrap font-mono text-xs", className)} title={value}>
      <span className="min-w-0 truncate">{head}</span>
      {end && <span className="shrink-0">{end}</span>}
    </span>
  );
}
