import type { RoleDto } from "@contract/users";
import { useDeleteRole } from "@/api/roles";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";

/** Confirmation before a custom role goes; its users lose what it granted. */
export function DeleteRoleDialog({
  role,
  open,
  onOpenChange,
}: {
  role: RoleDto | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const remove = useDeleteRole();
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Delete Role"
      description={<>Are you sure you want to delete {role?.name}? Users who hold it lose its permissions. This action cannot be undone.</>}
      confirmLabel="Delete"
      busy={remove.isPending}
      onConfirm={() => role && remove.mutate({ id: role.id }, { onSuccess: () => onOpenChange(false) })}
    />
  );
}
