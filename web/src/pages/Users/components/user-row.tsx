import { memo } from "react";
import type { RoleSummaryDto, UserDto } from "@contract/users";
import { ActiveBadge, Badge } from "@/components/ui/badge";
import { TableCell, TableRow } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import { displayName } from "../lib/user-display";
import { UserActionsMenu, type UserAction } from "./user-actions-menu";
import { UserAvatar } from "./user-avatar";

/** Rows have one fixed height so the table can render only the rows in view. */
export const ROW_HEIGHT = 61;
const VISIBLE_ROLES = 3;

export interface UserRowProps {
  user: UserDto;
  /** 1-based position among all rows of the table, header included (aria-rowindex). */
  rowIndex: number;
  isSelf: boolean;
  canWrite: boolean;
  onAction: (action: UserAction, user: UserDto) => void;
}

export const UserRow = memo(function UserRow({ user, rowIndex, isSelf, canWrite, onAction }: UserRowProps) {
  return (
    <TableRow aria-rowindex={rowIndex} style={{ height: ROW_HEIGHT }}>
      <TableCell>
        <div className="flex min-w-0 items-center gap-3">
          <UserAvatar user={user} />
          <div className="min-w-0">
            <div className="flex min-w-0 items-center gap-2">
              <span className="truncate font-medium">{displayName(user)}</span>
              {isSelf && (
                <Badge variant="outline" className="px-1.5 py-0 text-[11px]">
                  You
                </Badge>
              )}
            </div>
            <div className="truncate text-xs text-muted-foreground">{user.email ?? "No email"}</div>
          </div>
        </div>
      </TableCell>
      <TableCell>
        <span className="block truncate font-mono text-xs">{user.username}</span>
      </TableCell>
      <TableCell>
        <RoleBadges roles={user.roles} />
      </TableCell>
      <TableCell><ActiveBadge active={user.isActive} inactive="secondary" /></TableCell>
      <TableCell className="whitespace-nowrap tabular-nums text-muted-foreground">
        <LastLogin iso={user.lastLoginAt} />
      </TableCell>
      {canWrite && (
        <TableCell className="text-right">
          <UserActionsMenu user={user} isSelf={isSelf} onAction={onAction} />
        </TableCell>
      )}
    </TableRow>
  );
});

function RoleBadges({ roles }: { roles: RoleSummaryDto[] }) {
  if (roles.length === 0) return <span className="text-xs text-muted-foreground">No roles assigned</span>;
  const shown = roles.slice(0, VISIBLE_ROLES);
  const hidden = roles.slice(VISIBLE_ROLES);
  return (
    <div className="flex flex-nowrap items-center gap-1">
      {shown.map((role) => (
        <Badge
          key={role.id}
          variant={role.isActive ? "secondary" : "outline"}
          className={role.isActive ? undefined : "text-muted-foreground line-through"}
          title={role.isActive ? role.description ?? undefined : `${role.name} (inactive role)`}
        >
          {role.name}
          {!role.isActive && <span className="sr-only"> (inactive)</span>}
        </Badge>
      ))}
      {hidden.length > 0 && (
        <Badge variant="outline" title={hidden.map((r) => r.name).join(", ")}>
          +{hidden.length} more
        </Badge>
      )}
    </div>
  );
}

function LastLogin({ iso }: { iso: string | null }) {
  if (!iso) return <span>Never</span>;
  return <Time iso={iso} />;
}
