import { useState } from "react";
import type { RoleDto, UserDto } from "@contract/users";
import { permissionKey } from "@contract/permissions";
import { useRoles } from "@/api/roles";
import { useSetUserRoles, useUserRoles } from "@/api/users";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { LoadingState, Spinner } from "@/components/ui/spinner";

/** Spec section 9: at most five permission badges per role, then "+N more". */
const PERMISSION_BADGES = 5;

interface ManageRolesDialogProps {
  user: UserDto | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus?: (event: Event) => void;
}

/** "Manage User Roles" (spec sections 2 and 4): the selection starts from the user's current roles. */
export function ManageRolesDialog({ user, open, onOpenChange, onCloseAutoFocus }: ManageRolesDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        className="sm:max-w-xl"
        onCloseAutoFocus={onCloseAutoFocus}
        // The roles arrive after the dialog opens: start on the dialog itself (its title is read
        // out), not on the Close button, the only control there while loading.
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          (event.currentTarget as HTMLElement | null)?.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>Manage User Roles</DialogTitle>
          <DialogDescription asChild>
            <div className="space-y-1">
              <p className="font-medium text-foreground">Assign Roles to {user?.username}</p>
              <p>Select the roles this user holds. The user gets every permission of each active role; inactive roles grant nothing.</p>
            </div>
          </DialogDescription>
        </DialogHeader>
        {open && user && <RolesPicker key={user.id} user={user} onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function RolesPicker({ user, onDone }: { user: UserDto; onDone: () => void }) {
  const roles = useRoles();
  const current = useUserRoles(user.id);

  if (roles.isPending || current.isPending) return <LoadingState label="Loading roles..." className="py-10" />;
  const error = roles.error ?? current.error;
  if (error) {
    return (
      <p role="alert" className="rounded-md border border-destructive/30 bg-destructive/10 px-3 py-2.5 text-sm text-destructive">
        {error.serverMessage ?? error.message}
      </p>
    );
  }
  const currentIds = (current.data ?? user.roles).map((r) => r.id);
  return <RolesSelection user={user} roles={roles.data ?? []} currentIds={currentIds} onDone={onDone} />;
}

function RolesSelection({
  user,
  roles,
  currentIds,
  onDone,
}: {
  user: UserDto;
  roles: RoleDto[];
  currentIds: string[];
  onDone: () => void;
}) {
  const save = useSetUserRoles();
  const [selected, setSelected] = useState(() => new Set(currentIds));
  const current = new Set(currentIds);
  const changed = selected.size !== current.size || [...selected].some((id) => !current.has(id));
  const busy = save.isPending;

  const toggle = (id: string, checked: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (checked) next.add(id);
      else next.delete(id);
      return next;
    });

  const onSave = () => save.mutate({ id: user.id, roleIds: [...selected] }, { onSuccess: onDone });

  return (
    <>
      {roles.length === 0 ? (
        <p className="rounded-md border border-dashed border-border px-4 py-8 text-center text-sm text-muted-foreground">
          No roles available. Create roles first to assign them to users.
        </p>
      ) : (
        <ul aria-label="Roles" className="-mx-1 max-h-96 space-y-2 overflow-y-auto px-1 py-1">
          {roles.map((role) => (
            <RoleOption
              key={role.id}
              role={role}
              checked={selected.has(role.id)}
              isCurrent={current.has(role.id)}
              disabled={busy}
              onToggle={toggle}
            />
          ))}
        </ul>
      )}
      <DialogFooter className="items-center sm:justify-between">
        <p className="text-sm text-muted-foreground" aria-live="polite">
          {selected.size} role(s) selected
        </p>
        <div className="flex flex-col-reverse gap-2 sm:flex-row">
          <Button variant="outline" onClick={onDone} disabled={busy}>
            Cancel
          </Button>
          <Button onClick={onSave} disabled={!changed || busy}>
            {busy && <Spinner />}
            {busy ? "Saving..." : "Save Changes"}
          </Button>
        </div>
      </DialogFooter>
    </>
  );
}

interface RoleOptionProps {
  role: RoleDto;
  checked: boolean;
  isCurrent: boolean;
  disabled: boolean;
  onToggle: (id: string, checked: boolean) => void;
}

function RoleOption({ role, checked, isCurrent, disabled, onToggle }: RoleOptionProps) {
  const id = `role-option-${role.id}`;
  const shown = role.permissions.slice(0, PERMISSION_BADGES);
  const more = role.permissions.length - shown.length;
  return (
    <li>
      <label
        htmlFor={id}
        className="flex cursor-pointer items-start gap-3 rounded-md border border-border p-3 transition-colors hover:bg-muted/50 has-[[data-state=checked]]:border-primary/50 has-[[data-state=checked]]:bg-primary/5"
      >
        <Checkbox
          id={id}
          checked={checked}
          disabled={disabled}
          onCheckedChange={(value) => onToggle(role.id, value === true)}
          className="mt-0.5"
          aria-labelledby={`${id}-name`}
          aria-describedby={`${id}-description`}
        />
        <span className="min-w-0 flex-1 space-y-1.5">
          <span className="flex flex-wrap items-center gap-2">
            <span id={`${id}-name`} className="font-medium">
              {role.name}
            </span>
            {isCurrent && <Badge variant="info">Current</Badge>}
            {!role.isActive && <Badge variant="warning">Inactive</Badge>}
          </span>
          <span id={`${id}-description`} className="block text-xs text-muted-foreground">
            {role.description || "No description"}
          </span>
          {role.permissions.length > 0 && (
            <span className="flex flex-wrap gap-1">
              {shown.map((p) => (
                <Badge key={p.id} variant="outline" className="font-mono text-[11px] font-normal">
                  {permissionKey(p)}
                </Badge>
              ))}
              {more > 0 && (
                <Badge variant="secondary" className="text-[11px]">
                  +{more} more
                </Badge>
              )}
            </span>
          )}
        </span>
      </label>
    </li>
  );
}
