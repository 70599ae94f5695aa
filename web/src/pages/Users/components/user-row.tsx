import { memo, type CSSProperties } from "react";
import type { RoleSummaryDto, UserDto } from "@contract/users";
import { ActiveBadge, Badge } from "@/components/ui/badge";
import { cardRows, TableCell, TableCellLabel, TableRow } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import { cn } from "@/lib/utils";
import { displayName } from "../lib/user-display";
import { UserActionsMenu, UserCardActions, type UserAction } from "./user-actions-menu";
import { UserAvatar } from "./user-avatar";

/** Rows have one fixed height so the table can render only the rows in view. */
export const ROW_HEIGHT = 61;
/**
 * On a phone (below `sm`) each row is a card of one fixed height too, with the space under it:
 * the distance from one card's top to the next one's. With the actions at its foot, and without.
 */
export const CARD_STRIDE = { withActions: 325, readOnly: 188 } as const;
const CARD_GAP = 12;

/** The height of a row, or on a phone of a card plus the gap under it, for the windowing. */
export const rowStride = (phone: boolean, canWrite: boolean): number =>
  phone ? CARD_STRIDE[canWrite ? "withActions" : "readOnly"] : ROW_HEIGHT;

/**
 * A row's (or card's) height, as CSS variables its class reads: from `sm` up the row's, below it
 * the card's (stride less the gap, which is its bottom margin). Also for the skeleton rows.
 */
export const rowSizeStyle = (canWrite: boolean): CSSProperties =>
  ({ "--row-h": `${ROW_HEIGHT}px`, "--card-h": `${rowStride(true, canWrite) - CARD_GAP}px` }) as CSSProperties;
/**
 * On a phone: the title (the user, the status badge over its end), Username | Last Login, Roles,
 * and the actions, kept at the card's foot.
 */
export const rowClass = (canWrite: boolean): string =>
  cn(cardRows.row, "h-(--row-h) max-sm:mb-3 max-sm:h-(--card-h) max-sm:content-start", canWrite && "max-sm:grid-rows-[auto_auto_auto_1fr]");
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
    <TableRow role="row" aria-rowindex={rowIndex} style={rowSizeStyle(canWrite)} className={rowClass(canWrite)}>
      <TableCell role="cell" className={cn(cardRows.cell, "max-sm:col-[1/-1] max-sm:row-start-1 max-sm:pr-20")}>
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
      <TableCell role="cell" className={cn(cardRows.cell, "max-sm:row-start-2")}>
        <TableCellLabel>Username</TableCellLabel>
        <span className="block truncate font-mono text-xs max-sm:leading-5">{user.username}</span>
      </TableCell>
      <TableCell role="cell" className={cn(cardRows.cell, "max-sm:col-[1/-1] max-sm:row-start-3 max-sm:overflow-x-clip")}>
        <TableCellLabel>Roles</TableCellLabel>
        <RoleBadges roles={user.roles} />
      </TableCell>
      <TableCell
        role="cell"
        className={cn(cardRows.cell, "max-sm:col-start-2 max-sm:row-start-1 max-sm:self-center max-sm:justify-self-end")}
      >
        <ActiveBadge active={user.isActive} inactive="secondary" />
      </TableCell>
      <TableCell
        role="cell"
        className={cn(
          cardRows.cell,
          "whitespace-nowrap tabular-nums text-muted-foreground max-sm:col-start-2 max-sm:row-start-2 max-sm:text-foreground",
        )}
      >
        <TableCellLabel>Last Login</TableCellLabel>
        <LastLogin iso={user.lastLoginAt} />
      </TableCell>
      {canWrite && (
        <TableCell role="cell" className={cn(cardRows.cell, cardRows.foot, "text-right max-sm:row-start-4 max-sm:self-end")}>
          <UserActionsMenu user={user} isSelf={isSelf} onAction={onAction} className="max-sm:hidden" />
          <UserCardActions user={user} isSelf={isSelf} onAction={onAction} className="sm:hidden" />
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
          title={role.isActive ? (role.description ?? undefined) : `${role.name} (inactive role)`}
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
