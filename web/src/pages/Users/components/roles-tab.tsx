import { QueryError } from "@/components/ui/query-error";
import { Plus, ShieldCheck } from "lucide-react";
import { useState } from "react";
import type { RoleDto } from "@contract/users";
import { useRoles } from "@/api/roles";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import { useCan } from "@/hooks/use-permission";
import { DeleteRoleDialog } from "./delete-role-dialog";
import { NoPermission } from "@/components/ui/no-permission";
import { RoleCard } from "./role-card";
import { RoleFormDialog } from "./role-form-dialog";

/** The Roles tab: built-in roles are read-only; custom ones can be edited and deleted (roles.write). */
export function RolesTab() {
  const canRead = useCan("roles.read");
  const canWrite = useCan("roles.write");
  const roles = useRoles(canRead);
  const [form, setForm] = useState<{ role: RoleDto | null; open: boolean }>({ role: null, open: false });
  const [deleting, setDeleting] = useState<{ role: RoleDto | null; open: boolean }>({ role: null, open: false });

  if (!canRead) return <NoPermission what="roles" />;

  const list = roles.data ?? [];
  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-muted-foreground">
          {roles.isPending
            ? "Loading roles..."
            : `${list.length} ${list.length === 1 ? "role" : "roles"}. Built-in roles cannot be changed.`}
        </p>
        {canWrite && (
          <Button onClick={() => setForm({ role: null, open: true })}>
            <Plus aria-hidden="true" />
            Add Role
          </Button>
        )}
      </div>

      {roles.isPending ? (
        <div className="grid gap-4 lg:grid-cols-2" aria-hidden="true">
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} className="h-40 rounded-lg" />
          ))}
        </div>
      ) : roles.error ? (
        <QueryError
          title="The roles could not be loaded."
          error={roles.error}
          onRetry={() => void roles.refetch()}
          retrying={roles.isFetching}
        />
      ) : list.length === 0 ? (
        <EmptyState icon={ShieldCheck} title="No roles yet" description="Create a role to group permissions and assign it to users." />
      ) : (
        <div className="grid gap-4 lg:grid-cols-2">
          {list.map((role) => (
            <RoleCard
              key={role.id}
              role={role}
              canWrite={canWrite}
              onEdit={(r) => setForm({ role: r, open: true })}
              onDelete={(r) => setDeleting({ role: r, open: true })}
            />
          ))}
        </div>
      )}

      {canWrite && (
        <>
          <RoleFormDialog role={form.role} open={form.open} onOpenChange={(open) => setForm((f) => ({ ...f, open }))} />
          <DeleteRoleDialog role={deleting.role} open={deleting.open} onOpenChange={(open) => setDeleting((d) => ({ ...d, open }))} />
        </>
      )}
    </div>
  );
}
