import type { UseFormReturn } from "react-hook-form";
import type { z } from "zod";
import type { UserCreateFormSchema } from "@contract/users";
import { FormSwitchField } from "@/components/ui/switch-field";
import { formField, TextField } from "@/components/ui/text-field";

/** What the create and edit forms hold (the two contract schemas take the same input shape). */
export type UserFormValues = z.input<typeof UserCreateFormSchema>;
export type UserForm = UseFormReturn<UserFormValues, unknown, unknown>;

/** The fields a 400 or 409 may name (spec section 5). */
export const USER_FORM_FIELDS = ["firstName", "lastName", "email", "username", "password", "confirmPassword", "isActive"] as const;

/** First Name, Last Name, Email and Username: the top of both user forms. */
export function IdentityFields({ form, idPrefix }: { form: UserForm; idPrefix: string }) {
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField {...formField(form, idPrefix, "firstName")} label="First Name" autoComplete="off" />
        <TextField {...formField(form, idPrefix, "lastName")} label="Last Name" autoComplete="off" />
      </div>
      <TextField {...formField(form, idPrefix, "email")} label="Email" type="email" />
      <TextField {...formField(form, idPrefix, "username")} label="Username" />
    </>
  );
}

/** The "Active User" switch with its explanation (spec section 2). */
export function ActiveUserField({ form, idPrefix }: { form: UserForm; idPrefix: string }) {
  return (
    <FormSwitchField
      control={form.control}
      name="isActive"
      id={`${idPrefix}-isActive`}
      label="Active User"
      description="User can log in and access the system"
    />
  );
}
