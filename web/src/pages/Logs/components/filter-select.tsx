import { ChevronDown } from "lucide-react";
import { cn } from "@/lib/utils";

interface FilterSelectProps<T extends string> {
  id: string;
  /** The accessible name ("Filter by status"); the options speak for themselves on screen. */
  label: string;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (value: T) => void;
  className?: string;
}

/**
 * A filter's select: the platform's own (keyboard, screen readers and a phone's picker for free),
 * drawn like the console's inputs.
 */
export function FilterSelect<T extends string>({ id, label, value, options, onChange, className }: FilterSelectProps<T>) {
  return (
    <div className={cn("relative", className)}>
      <select
        id={id}
        aria-label={label}
        value={value}
        onChange={(event) => {
          const next = options.find((o) => o.value === event.target.value);
          if (next) onChange(next.value);
        }}
        className={cn(
          "h-9 w-full appearance-none rounded-md border border-input bg-background py-1 pl-3 pr-9 text-sm shadow-xs transition-colors",
          "focus-visible:border-ring focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring/40",
        )}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <ChevronDown className="pointer-events-none absolute right-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
    </div>
  );
}
