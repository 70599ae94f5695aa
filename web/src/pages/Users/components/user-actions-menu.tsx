import { Link2, Pencil, ShieldCheck, Trash2, UserCheck, UserX } from "lucide-react";
import type { UserDto } from "@contract/users";
import { Button } from "@/components/ui/button";
import { DropdownMenuItem, DropdownMenuSeparator, RowActionsMenu } from "@/components/ui/dropdown-menu";
import { cn } from "@/lib/utils";

export type UserAction = "edit" | "roles" | "toggle-status" | "links" | "delete";

interface UserActionsProps {
  user: UserDto;
  isSelf: boolean;
  onAction: (action: UserAction, user: UserDto) => void;
  className?: string;
}

/**
 * Where focus goes back after a dialog a row's action opened (see users-tab): on a phone the
 * card's button for that action, from `sm` up the row's Actions button (the one of the two shown).
 */
export function actionsTrigger(userId: string, action: UserAction): HTMLElement | null {
  const id = CSS.escape(userId);
  for (const selector of [`[data-user-id="${id}"][data-user-action="${action}"]`, `[data-user-actions="${id}"]`]) {
    const element = document.querySelector<HTMLElement>(selector);
    if (element && element.getClientRects().length > 0) return element;
  }
  return null;
}

/** Why the signed-in user's own row offers no Deactivate or Delete. */
const selfReason = (user: UserDto, isSelf: boolean, action: "toggle-status" | "delete"): string | undefined => {
  if (action === "toggle-status") return isSelf && user.isActive ? "You cannot deactivate your own account here" : undefined;
  return isSelf ? "You cannot delete your own account" : undefined;
};

/**
 * Spec section 2's row menu, and the user's linked accounts (issue 27) before Delete. For the signed-in user's own row, Deactivate and Delete are disabled:
 * the server refuses to delete your own account, and deactivating it would end your session.
 */
export function UserActionsMenu({ user, isSelf, onAction, className }: UserActionsProps) {
  const toggleReason = selfReason(user, isSelf, "toggle-status");
  const deleteReason = selfReason(user, isSelf, "delete");
  return (
    <RowActionsMenu label={`Actions for ${user.username}`} data-user-actions={user.id} className={className}>
      <DropdownMenuItem onSelect={() => onAction("edit", user)}>
        <Pencil aria-hidden="true" />
        Edit User
      </DropdownMenuItem>
      <DropdownMenuItem onSelect={() => onAction("roles", user)}>
        <ShieldCheck aria-hidden="true" />
        Manage Roles
      </DropdownMenuItem>
      <DropdownMenuItem disabled={toggleReason !== undefined} title={toggleReason} onSelect={() => onAction("toggle-status", user)}>
        {user.isActive ? <UserX aria-hidden="true" /> : <UserCheck aria-hidden="true" />}
        {user.isActive ? "Deactivate" : "Activate"}
      </DropdownMenuItem>
      <DropdownMenuItem onSelect={() => onAction("links", user)}>
        <Link2 aria-hidden="true" />
        Linked accounts
      </DropdownMenuItem>
      <DropdownMenuSeparator />
      <DropdownMenuItem
        variant="destructive"
        disabled={deleteReason !== undefined}
        title={deleteReason}
        onSelect={() => onAction("delete", user)}
      >
        <Trash2 aria-hidden="true" />
        Delete User
      </DropdownMenuItem>
    </RowActionsMenu>
  );
}

/**
 * The spec's four actions as buttons, for a row shown as a card on a phone (its foot), in the
 * menu's order; the linked accounts (issue 27) under them, across the card. Each name says whose
 * account it acts on ("Edit User grace"), as the menu's trigger does.
 */
export function UserCardActions({ user, isSelf, onAction, className }: UserActionsProps) {
  const toggleReason = selfReason(user, isSelf, "toggle-status");
  const deleteReason = selfReason(user, isSelf, "delete");
  const common = { variant: "outline", size: "sm", className: "w-full", "data-user-id": user.id } as const;
  return (
    <div className={cn("space-y-2", className)}>
      <div role="group" aria-label={`Actions for ${user.username}`} className="grid grid-cols-2 gap-2">
        <Button {...common} data-user-action="edit" aria-label={`Edit User ${user.username}`} onClick={() => onAction("edit", user)}>
          <Pencil aria-hidden="true" />
          Edit User
        </Button>
        <Button
          {...common}
          data-user-action="roles"
          aria-label={`Manage Roles of ${user.username}`}
          onClick={() => onAction("roles", user)}
        >
          <ShieldCheck aria-hidden="true" />
          Manage Roles
        </Button>
        <Button
          {...common}
          data-user-action="toggle-status"
          aria-label={`${user.isActive ? "Deactivate" : "Activate"} ${user.username}`}
          disabled={toggleReason !== undefined}
          title={toggleReason}
          onClick={() => onAction("toggle-status", user)}
        >
          {user.isActive ? <UserX aria-hidden="true" /> : <UserCheck aria-hidden="true" />}
          {user.isActive ? "Deactivate" : "Activate"}
        </Button>
        <Button
          {...common}
          className="w-full text-destructive hover:bg-destructive/10 hover:text-destructive"
          data-user-action="delete"
          aria-label={`Delete User ${user.username}`}
          disabled={deleteReason !== undefined}
          title={deleteReason}
          onClick={() => onAction("delete", user)}
        >
          <Trash2 aria-hidden="true" />
          Delete User
        </Button>
      </div>
      <Button
        {...common}
        data-user-action="links"
        aria-label={`Linked accounts of ${user.username}`}
        onClick={() => onAction("links", user)}
      >
        <Link2 aria-hidden="true" />
        Linked accounts
      </Button>
    </div>
  );
}
