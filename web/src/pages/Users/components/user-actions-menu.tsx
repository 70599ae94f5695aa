import { Pencil, ShieldCheck, Trash2, UserCheck, UserX } from "lucide-react";
import type { UserDto } from "@contract/users";
import { DropdownMenuItem, DropdownMenuSeparator, RowActionsMenu } from "@/components/ui/dropdown-menu";

export type UserAction = "edit" | "roles" | "toggle-status" | "delete";

/** The trigger carries the user's id so focus can return to it after a dialog (see users-tab). */
export const actionsTriggerSelector = (userId: string) => `[data-user-actions="${CSS.escape(userId)}"]`;

/**
 * Spec section 2's row menu. For the signed-in user's own row, Deactivate and Delete are disabled:
 * the server refuses to delete your own account, and deactivating it would end your session.
 */
export function UserActionsMenu({ user, isSelf, onAction }: { user: UserDto; isSelf: boolean; onAction: (action: UserAction, user: UserDto) => void }) {
  return (
    <RowActionsMenu label={`Actions for ${user.username}`} data-user-actions={user.id}>
      <DropdownMenuItem onSelect={() => onAction("edit", user)}>
        <Pencil aria-hidden="true" />
        Edit User
      </DropdownMenuItem>
      <DropdownMenuItem onSelect={() => onAction("roles", user)}>
        <ShieldCheck aria-hidden="true" />
        Manage Roles
      </DropdownMenuItem>
      <DropdownMenuItem
        disabled={isSelf && user.isActive}
        title={isSelf && user.isActive ? "You cannot deactivate your own account here" : undefined}
        onSelect={() => onAction("toggle-status", user)}
      >
        {user.isActive ? <UserX aria-hidden="true" /> : <UserCheck aria-hidden="true" />}
        {user.isActive ? "Deactivate" : "Activate"}
      </DropdownMenuItem>
      <DropdownMenuSeparator />
      <DropdownMenuItem
        variant="destructive"
        disabled={isSelf}
        title={isSelf ? "You cannot delete your own account" : undefined}
        onSelect={() => onAction("delete", user)}
      >
        <Trash2 aria-hidden="true" />
        Delete User
      </DropdownMenuItem>
    </RowActionsMenu>
  );
}
