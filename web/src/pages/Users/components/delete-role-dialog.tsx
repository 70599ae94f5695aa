import type { RoleDto } from "@contract/users";
import { useDeleteRole } from "@/api/roles";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";

/** Confirmation before a custom role goes; its users lose what it granted. */
export function DeleteRoleDialog({ role, open, onOpenChange }: { role: RoleDto | null; open: boolean; onOpenChange: (open: boolean) => void }) {
  const remove = useDeleteRole();
  const busy = remove.isPending;
  return (
    <AlertDialog open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete Role</AlertDialogTitle>
          <AlertDialogDescription>
            Are you sure you want to delete {role?.name}? Users who hold it lose its permissions. This action cannot be undone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={busy}>Cancel</AlertDialogCancel>
          <Button variant="destructive" disabled={busy} onClick={() => role && remove.mutate({ id: role.id }, { onSuccess: () => onOpenChange(false) })}>
            {busy && <Spinner />}
            Delete
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
