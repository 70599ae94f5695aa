import type { ReactNode, Ref } from "react";
import { FieldError } from "@/components/ui/field-error";
import { RadioGroup, RadioGroupItem } from "@/components/ui/radio-group";

export interface ChoiceFieldProps {
  /** Each option's radio is `${id}-${value}`; the group is named by its label and described by the hint. */
  id: string;
  label: string;
  options: readonly { value: string; label: string }[];
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  disabled?: boolean;
  hint?: ReactNode;
  error?: string | undefined;
  /** Where focus goes for a field error: the checked radio. */
  inputRef?: Ref<HTMLButtonElement>;
}

/**
 * A short choice as a row of bordered options (one under the other on a phone): a Radix radio group, so the
 * arrow keys move between the options and Tab leaves the group (UI.md, accessibility).
 */
export function ChoiceField({ id, label, options, value, onChange, onBlur, disabled, hint, error, inputRef }: ChoiceFieldProps) {
  const labelId = `${id}-label`;
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="min-w-0 space-y-2">
      <p id={labelId} className="text-sm font-medium leading-none">
        {label}
      </p>
      <RadioGroup
        aria-labelledby={labelId}
        aria-describedby={describedBy}
        aria-invalid={error ? true : undefined}
        value={value}
        onValueChange={onChange}
        disabled={disabled}
        className="grid grid-cols-1 gap-2 sm:flex sm:flex-wrap"
      >
        {options.map((option) => (
          <label
            key={option.value}
            htmlFor={`${id}-${option.value}`}
            className="flex min-h-9 cursor-pointer items-center gap-2 rounded-md border border-border px-3 py-2 text-sm transition-colors hover:bg-muted/50 has-[[data-state=checked]]:border-primary/60 has-[[data-state=checked]]:bg-primary/5 has-[:disabled]:cursor-default has-[:disabled]:opacity-60 has-[:disabled]:hover:bg-transparent"
          >
            <RadioGroupItem
              id={`${id}-${option.value}`}
              value={option.value}
              onBlur={onBlur}
              ref={option.value === value ? inputRef : undefined}
            />
            <span className="leading-none">{option.label}</span>
          </label>
        ))}
      </RadioGroup>
      <FieldError id={`${id}-error`} message={error} />
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
    </div>
  );
}
