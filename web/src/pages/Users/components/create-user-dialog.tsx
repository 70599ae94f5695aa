import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { useForm } from "react-hook-form";
import { UserCreateFormSchema } from "@contract/users";
import { useCreateUser } from "@/api/users";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { DialogFormFooter } from "@/components/ui/dialog-form-footer";
import { formField, TextField } from "@/components/ui/text-field";
import { applyServerFieldErrors } from "@/lib/form-errors";
import { ActiveUserField, IdentityFields, USER_FORM_FIELDS, type UserFormValues } from "./user-form-fields";

const EMPTY: UserFormValues = { firstName: "", lastName: "", email: "", username: "", password: "", confirmPassword: "", isActive: true };

/** "Create New User" (spec sections 2 and 5): new users default to active. */
export function CreateUserDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>Create New User</DialogTitle>
          <DialogDescription>Add an account that can sign in to the console. Assign its roles afterwards.</DialogDescription>
        </DialogHeader>
        {open && <CreateUserForm onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function CreateUserForm({ onDone }: { onDone: () => void }) {
  const create = useCreateUser();
  const form = useForm<UserFormValues, unknown, z.output<typeof UserCreateFormSchema>>({
    resolver: zodResolver(UserCreateFormSchema),
    defaultValues: EMPTY,
  });
  const busy = create.isPending;

  const onSubmit = form.handleSubmit(({ confirmPassword: _confirm, ...values }) => {
    const body = { ...values, firstName: values.firstName ?? null, lastName: values.lastName ?? null };
    create.mutate(body, {
      onSuccess: onDone,
      onError: (error) => applyServerFieldErrors(form, error, USER_FORM_FIELDS),
    });
  });

  return (
    <form noValidate onSubmit={onSubmit} aria-busy={busy} className="grid gap-4">
      <fieldset disabled={busy} className="grid min-w-0 gap-4">
        <IdentityFields form={form} idPrefix="create-user" />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField {...formField(form, "create-user", "password")} label="Password" type="password" autoComplete="new-password" />
          <TextField
            {...formField(form, "create-user", "confirmPassword")}
            label="Confirm Password"
            type="password"
            autoComplete="new-password"
          />
        </div>
        <ActiveUserField form={form} idPrefix="create-user" />
      </fieldset>
      <DialogFormFooter busy={busy} onCancel={onDone} submitLabel="Create User" pendingLabel="Creating..." />
    </form>
  );
}
