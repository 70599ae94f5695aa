import { NativeSelect } from "@/components/ui/native-select";

interface FilterSelectProps<T extends string> {
  id: string;
  /** The accessible name ("Filter by status"); the options speak for themselves on screen. */
  label: string;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (value: T) => void;
  className?: string;
}

/** A filter's select: the console's native select, named for screen readers by `label`. */
export function FilterSelect<T extends string>({ id, label, value, options, onChange, className }: FilterSelectProps<T>) {
  return (
    <NativeSelect
      id={id}
      aria-label={label}
      value={value}
      className={className}
      onChange={(event) => {
        const next = options.find((o) => o.value === event.target.value);
        if (next) onChange(next.value);
      }}
    >
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </NativeSelect>
  );
}
