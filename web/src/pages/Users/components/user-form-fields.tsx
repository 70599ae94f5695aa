import type { FieldPath, UseFormReturn } from "react-hook-form";
import type { z } from "zod";
import type { UserCreateFormSchema } from "@contract/users";
import type { ApiError } from "@/api/client";
import { FieldError } from "@/components/ui/field-error";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { FormSwitchField } from "@/components/ui/switch-field";
import { cn } from "@/lib/utils";

/** What the create and edit forms hold (the two contract schemas take the same input shape). */
export type UserFormValues = z.input<typeof UserCreateFormSchema>;
export type UserForm = UseFormReturn<UserFormValues, unknown, unknown>;

const FIELD_NAMES = ["firstName", "lastName", "email", "username", "password", "confirmPassword", "isActive"] as const;

/** A 400 or 409 names the fields it rejected: show those messages under the fields (spec section 5). */
export function applyServerFieldErrors(form: UserForm, error: ApiError): void {
  for (const name of FIELD_NAMES) {
    const message = error.fields?.[name];
    if (message) form.setError(name, { type: "server", message }, { shouldFocus: true });
  }
}

interface TextFieldProps {
  form: UserForm;
  name: FieldPath<UserFormValues>;
  idPrefix: string;
  label: string;
  type?: "text" | "email" | "password";
  autoComplete?: string;
  hint?: string;
  className?: string;
}

/** Label above, input, then the hint or the field's message (UI.md). */
export function TextField({ form, name, idPrefix, label, type = "text", autoComplete = "off", hint, className }: TextFieldProps) {
  const id = `${idPrefix}-${name}`;
  const message = form.formState.errors[name]?.message;
  const describedBy = [hint ? `${id}-hint` : null, message ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={cn("space-y-2", className)}>
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type={type}
        autoComplete={autoComplete}
        autoCapitalize="none"
        spellCheck={false}
        aria-invalid={message ? true : undefined}
        aria-describedby={describedBy}
        {...form.register(name)}
      />
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`} message={message} />
    </div>
  );
}

/** First Name, Last Name, Email and Username: the top of both user forms. */
export function IdentityFields({ form, idPrefix }: { form: UserForm; idPrefix: string }) {
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField form={form} idPrefix={idPrefix} name="firstName" label="First Name" autoComplete="off" />
        <TextField form={form} idPrefix={idPrefix} name="lastName" label="Last Name" autoComplete="off" />
      </div>
      <TextField form={form} idPrefix={idPrefix} name="email" label="Email" type="email" />
      <TextField form={form} idPrefix={idPrefix} name="username" label="Username" />
    </>
  );
}

/** The "Active User" switch with its explanation (spec section 2). */
export function ActiveUserField({ form, idPrefix }: { form: UserForm; idPrefix: string }) {
  return (
    <FormSwitchField control={form.control} name="isActive" id={`${idPrefix}-isActive`} label="Active User" description="User can log in and access the system" />
  );
}
