import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { useForm } from "react-hook-form";
import { UserEditFormSchema, type UserDto } from "@contract/users";
import { useUpdateUser } from "@/api/users";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { DialogFormFooter } from "@/components/ui/dialog-form-footer";
import { formField, TextField } from "@/components/ui/text-field";
import { applyServerFieldErrors } from "@/lib/form-errors";
import { ActiveUserField, IdentityFields, USER_FORM_FIELDS, type UserFormValues } from "./user-form-fields";

interface EditUserDialogProps {
  user: UserDto | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus?: (event: Event) => void;
}

/** "Edit User" (spec sections 2 and 5): a blank new password keeps the current one. */
export function EditUserDialog({ user, open, onOpenChange, onCloseAutoFocus }: EditUserDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-lg" onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <DialogTitle>Edit User</DialogTitle>
          <DialogDescription>Change {user ? `${user.username}'s` : "the"} details, status or password.</DialogDescription>
        </DialogHeader>
        {open && user && <EditUserForm key={user.id} user={user} onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function EditUserForm({ user, onDone }: { user: UserDto; onDone: () => void }) {
  const update = useUpdateUser();
  const form = useForm<UserFormValues, unknown, z.output<typeof UserEditFormSchema>>({
    resolver: zodResolver(UserEditFormSchema),
    defaultValues: {
      firstName: user.firstName ?? "",
      lastName: user.lastName ?? "",
      email: user.email ?? "",
      username: user.username,
      isActive: user.isActive,
      password: "",
      confirmPassword: "",
    },
  });
  const busy = update.isPending;

  const onSubmit = form.handleSubmit(({ confirmPassword: _confirm, password, ...values }) => {
    const changes = {
      ...values,
      firstName: values.firstName ?? null,
      lastName: values.lastName ?? null,
      // Spec section 5: an empty password is omitted from the update.
      ...(password ? { password } : {}),
    };
    update.mutate(
      { id: user.id, changes },
      {
        onSuccess: onDone,
        onError: (error) => applyServerFieldErrors(form, error, USER_FORM_FIELDS),
      },
    );
  });

  return (
    <form noValidate onSubmit={onSubmit} aria-busy={busy} className="grid gap-4">
      <fieldset disabled={busy} className="grid min-w-0 gap-4">
        <IdentityFields form={form} idPrefix="edit-user" />
        <ActiveUserField form={form} idPrefix="edit-user" />
        <fieldset className="grid min-w-0 gap-4 border-t border-border pt-4">
          <legend className="float-left mb-0 text-sm font-semibold">Change Password (optional)</legend>
          <TextField
            {...formField(form, "edit-user", "password")}
            label="New Password"
            type="password"
            autoComplete="new-password"
            hint="Leave blank to keep current password"
            className="clear-left"
          />
          <TextField
            {...formField(form, "edit-user", "confirmPassword")}
            label="Confirm New Password"
            type="password"
            autoComplete="new-password"
          />
        </fieldset>
      </fieldset>
      <DialogFormFooter busy={busy} onCancel={onDone} submitLabel="Update User" pendingLabel="Updating..." />
    </form>
  );
}
