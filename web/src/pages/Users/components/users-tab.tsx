import { QueryError } from "@/components/ui/query-error";
import { formatNumber } from "@/lib/format";
import { Search, UserPlus, UserRoundX, Users } from "lucide-react";
import { useCallback, useDeferredValue, useMemo, useState } from "react";
import type { UserDto } from "@contract/users";
import { useSession } from "@/api/session";
import { useSetUserStatus, useUsers } from "@/api/users";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { useCan } from "@/hooks/use-permission";
import { filterUsers, indexUsers } from "../lib/user-display";
import { CreateUserDialog } from "./create-user-dialog";
import { DeleteUserDialog } from "./delete-user-dialog";
import { EditUserDialog } from "./edit-user-dialog";
import { LinkedAccountsDialog } from "./linked-accounts-dialog";
import { ManageRolesDialog } from "./manage-roles-dialog";
import { NoPermission } from "@/components/ui/no-permission";
import { actionsTrigger, type UserAction } from "./user-actions-menu";
import { UsersTable } from "./users-table";

type DialogKind = "create" | "edit" | "roles" | "links" | "delete";
interface DialogState {
  kind: DialogKind;
  user: UserDto | null;
  open: boolean;
}

/** The Users tab (spec section 2): search, the "Users (N)" card with the table, and the dialogs. */
export function UsersTab() {
  const canRead = useCan("users.read");
  const canWrite = useCan("users.write");
  const { user: me } = useSession();
  const users = useUsers(canRead);
  const { mutate: setStatus } = useSetUserStatus();

  const [search, setSearch] = useState("");
  // The input updates at once; filtering and the table follow at a lower priority.
  const deferredSearch = useDeferredValue(search);
  const index = useMemo(() => indexUsers(users.data ?? []), [users.data]);
  const filtered = useMemo(() => filterUsers(index, deferredSearch), [index, deferredSearch]);

  const [dialog, setDialog] = useState<DialogState>({ kind: "create", user: null, open: false });
  const onAction = useCallback(
    (action: UserAction, user: UserDto) => {
      if (action === "toggle-status") setStatus({ id: user.id, isActive: !user.isActive });
      else setDialog({ kind: action, user, open: true });
    },
    [setStatus],
  );
  const dialogProps = (kind: DialogKind) => ({
    open: dialog.open && dialog.kind === kind,
    onOpenChange: (open: boolean) => setDialog((d) => ({ ...d, open })),
    // The menu that opened the dialog has closed; give focus back to the row's Actions button
    // (on a phone, to the card's button that opened it).
    onCloseAutoFocus: (event: Event) => {
      const trigger = dialog.user && dialog.kind !== "create" ? actionsTrigger(dialog.user.id, dialog.kind) : null;
      if (trigger) {
        event.preventDefault();
        trigger.focus();
      }
    },
  });

  if (!canRead) return <NoPermission what="users" />;

  const loading = users.isPending;
  const total = users.data?.length ?? 0;

  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="relative w-full sm:max-w-sm">
          <Search
            className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground"
            aria-hidden="true"
          />
          <Input
            type="search"
            aria-label="Search users"
            placeholder="Search users by email, username, or name..."
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            className="pl-9"
          />
        </div>
        {canWrite && (
          <Button onClick={() => setDialog({ kind: "create", user: null, open: true })}>
            <UserPlus aria-hidden="true" />
            Add User
          </Button>
        )}
      </div>

      {/* data-filter: the search the shown rows answer (bench/users-search.bench.mjs waits for it). */}
      <Card className="overflow-hidden" data-filter={deferredSearch}>
        <div className="flex items-center justify-between gap-3 border-b border-border px-6 py-4">
          <h2 className="text-base font-semibold leading-none" aria-live="polite">
            {loading ? "Users" : `Users (${formatNumber(filtered.length)})`}
          </h2>
          {!loading && deferredSearch.trim() !== "" && <span className="text-xs text-muted-foreground">of {formatNumber(total)}</span>}
        </div>
        {users.error ? (
          <div className="p-6">
            <QueryError
              title="The users could not be loaded."
              error={users.error}
              onRetry={() => void users.refetch()}
              retrying={users.isFetching}
            />
          </div>
        ) : !loading && filtered.length === 0 ? (
          <EmptyList searching={total > 0} />
        ) : (
          <UsersTable
            users={filtered}
            loading={loading}
            canWrite={canWrite}
            currentUserId={me?.id}
            resetKey={deferredSearch}
            onAction={onAction}
          />
        )}
      </Card>

      {canWrite && (
        <>
          <CreateUserDialog {...dialogProps("create")} />
          <EditUserDialog user={dialog.user} {...dialogProps("edit")} />
          <ManageRolesDialog user={dialog.user} {...dialogProps("roles")} />
          <DeleteUserDialog user={dialog.user} {...dialogProps("delete")} />
          <LinkedAccountsDialog user={dialog.user} canWrite={canWrite} {...dialogProps("links")} />
        </>
      )}
    </div>
  );
}

function EmptyList({ searching }: { searching: boolean }) {
  const Icon = searching ? UserRoundX : Users;
  return (
    <div className="flex flex-col items-center px-6 py-14 text-center">
      <span className="mb-3 flex size-11 items-center justify-center rounded-full bg-muted text-muted-foreground">
        <Icon className="size-5" aria-hidden="true" />
      </span>
      <p className="text-sm font-medium">{searching ? "No users match your search" : "No users yet"}</p>
      <p className="mt-1 text-sm text-muted-foreground">
        {searching ? "Try another email, username or name." : "Users you add appear here."}
      </p>
    </div>
  );
}
