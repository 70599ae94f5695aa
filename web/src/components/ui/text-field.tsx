import type { ReactNode } from "react";
import type { FieldPath, FieldValues, UseFormRegisterReturn, UseFormReturn } from "react-hook-form";
import { FieldError } from "@/components/ui/field-error";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { cn } from "@/lib/utils";

/** What a field of a react-hook-form form passes: `<TextField {...formField(form, "create-user", "email")} label="Email" />`. */
export function formField<T extends FieldValues>(
  form: UseFormReturn<T, unknown, unknown>,
  idPrefix: string,
  name: FieldPath<T>,
): Pick<TextFieldProps, "id" | "registration" | "error"> {
  const message = (form.formState.errors as Record<string, { message?: unknown } | undefined>)[name]?.message;
  return { id: `${idPrefix}-${name}`, registration: form.register(name), error: typeof message === "string" ? message : undefined };
}

export interface TextFieldProps {
  id: string;
  label: string;
  registration: UseFormRegisterReturn;
  error?: string | undefined;
  hint?: ReactNode;
  type?: "text" | "email" | "url" | "password";
  placeholder?: string | undefined;
  autoComplete?: string;
  className?: string;
}

/** Label above, the input, then the field's message in the destructive colour and the hint (UI.md). */
export function TextField({
  id,
  label,
  registration,
  error,
  hint,
  type = "text",
  placeholder,
  autoComplete = "off",
  className,
}: TextFieldProps) {
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={cn("min-w-0 space-y-2", className)}>
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type={type}
        placeholder={placeholder}
        autoComplete={autoComplete}
        autoCapitalize="none"
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={type === "password" ? "font-mono" : undefined}
        {...registration}
      />
      <FieldError id={`${id}-error`} message={error} />
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
    </div>
  );
}
