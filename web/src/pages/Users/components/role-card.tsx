import { Lock } from "lucide-react";
import type { RoleDto } from "@contract/users";
import { permissionKey } from "@contract/permissions";
import { ActiveBadge, Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { CardEditDeleteActions } from "@/components/ui/card-actions";

interface RoleCardProps {
  role: RoleDto;
  canWrite: boolean;
  onEdit: (role: RoleDto) => void;
  onDelete: (role: RoleDto) => void;
}

/** One role: name, Built-in, status, description and every permission it grants. */
export function RoleCard({ role, canWrite, onEdit, onDelete }: RoleCardProps) {
  const headingId = `role-${role.id}-name`;
  return (
    <Card role="article" aria-labelledby={headingId} className="flex flex-col gap-3 p-5">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0 space-y-1.5">
          <div className="flex flex-wrap items-center gap-2">
            <h3 id={headingId} className="truncate text-base font-semibold">
              {role.name}
            </h3>
            {role.isBuiltin && (
              <Badge variant="secondary">
                <Lock aria-hidden="true" />
                Built-in
              </Badge>
            )}
            <ActiveBadge active={role.isActive} />
          </div>
          <p className="text-sm text-muted-foreground">{role.description || "No description"}</p>
        </div>
        {canWrite && !role.isBuiltin && (
          <CardEditDeleteActions label={`role ${role.name}`} noun="role" onEdit={() => onEdit(role)} onDelete={() => onDelete(role)} />
        )}
      </div>
      <div>
        <p className="mb-1.5 text-xs font-medium text-muted-foreground">
          {role.permissions.length === 1 ? "1 permission" : `${role.permissions.length} permissions`}
        </p>
        {role.permissions.length === 0 ? (
          <p className="text-xs text-muted-foreground">This role grants nothing yet.</p>
        ) : (
          <ul className="flex flex-wrap gap-1" aria-label={`Permissions of ${role.name}`}>
            {role.permissions.map((p) => (
              <li key={p.id}>
                <Badge variant="outline" className="font-mono text-[11px] font-normal">
                  {permissionKey(p)}
                </Badge>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Card>
  );
}
