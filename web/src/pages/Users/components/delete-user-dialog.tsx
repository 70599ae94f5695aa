import type { UserDto } from "@contract/users";
import { useDeleteUser } from "@/api/users";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";

interface DeleteUserDialogProps {
  user: UserDto | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus?: (event: Event) => void;
}

/** "Delete User" confirmation (spec section 2). It stays open until the server has answered. */
export function DeleteUserDialog({ user, open, onOpenChange, onCloseAutoFocus }: DeleteUserDialogProps) {
  const remove = useDeleteUser();
  const onDelete = () => {
    if (user) remove.mutate({ id: user.id }, { onSuccess: () => onOpenChange(false) });
  };
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      onCloseAutoFocus={onCloseAutoFocus}
      title="Delete User"
      description={<>Are you sure you want to delete {user?.username}? This action cannot be undone.</>}
      confirmLabel="Delete"
      busy={remove.isPending}
      onConfirm={onDelete}
    />
  );
}
