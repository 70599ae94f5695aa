import { useCallback, useLayoutEffect, useRef, useState, type UIEvent } from "react";
import { PHONE_QUERY, useMediaQuery } from "@/hooks/use-media-query";
import type { UserDto } from "@contract/users";
import { Skeleton } from "@/components/ui/skeleton";
import { cardRows, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { cn } from "@/lib/utils";
import type { UserAction } from "./user-actions-menu";
import { rowClass, rowSizeStyle, rowStride, UserRow } from "./user-row";

/** Rows rendered above and below the visible ones, so fast scrolling and Tab never show a gap. */
const OVERSCAN = 10;
/** Until the container is measured, assume a tall one (first paint shows a full table). */
const INITIAL_VIEWPORT = 900;

export interface UsersTableProps {
  users: readonly UserDto[];
  loading: boolean;
  canWrite: boolean;
  currentUserId: string | undefined;
  /** When it changes (a new search), the table scrolls back to the top. */
  resetKey: string;
  onAction: (action: UserAction, user: UserDto) => void;
}

/**
 * The users table, windowed: with 10,000 users only the rows in view (plus OVERSCAN) are in the
 * DOM, spacer rows stand in for the rest, so a keystroke in the search re-renders a few dozen
 * rows, not thousands. It scrolls inside its own box (sticky header). On a phone (below `sm`) the
 * same rows are cards, one under another (cardRows): each value under its column's name, the
 * actions as buttons at the card's foot; nothing scrolls sideways.
 */
export function UsersTable({ users, loading, canWrite, currentUserId, resetKey, onAction }: UsersTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const [firstVisible, setFirstVisible] = useState(0);
  const [viewport, setViewport] = useState(INITIAL_VIEWPORT);
  const phone = useMediaQuery(PHONE_QUERY);
  const stride = rowStride(phone, canWrite);

  useLayoutEffect(() => {
    const box = scrollRef.current;
    if (!box) return;
    const measure = () => setViewport(box.clientHeight || INITIAL_VIEWPORT);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    return () => observer.disconnect();
  }, []);

  // A new search starts at the top of its results (a refetch after an edit keeps the position).
  const [shownKey, setShownKey] = useState(resetKey);
  if (shownKey !== resetKey) {
    setShownKey(resetKey);
    setFirstVisible(0);
  }
  useLayoutEffect(() => {
    if (scrollRef.current) scrollRef.current.scrollTop = 0;
  }, [resetKey]);

  const onScroll = useCallback(
    (event: UIEvent<HTMLDivElement>) => {
      setFirstVisible(Math.floor(event.currentTarget.scrollTop / stride));
    },
    [stride],
  );

  const start = Math.max(0, firstVisible - OVERSCAN);
  const end = Math.min(users.length, firstVisible + Math.ceil(viewport / stride) + OVERSCAN);
  const columns = canWrite ? 6 : 5;

  return (
    <div
      ref={scrollRef}
      onScroll={onScroll}
      role="region"
      aria-label="Users table"
      tabIndex={0}
      className="relative max-h-[max(24rem,calc(100dvh-22rem))] overflow-auto rounded-b-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring max-sm:bg-muted/40"
    >
      {/* Fixed layout: column widths do not depend on the rows in view, so scrolling never jiggles them. */}
      <Table
        role="table"
        className={cn(canWrite ? "sm:min-w-[58rem]" : "sm:min-w-[53rem]", "table-fixed", cardRows.table)}
        aria-rowcount={loading ? -1 : users.length + 1}
      >
        <colgroup>
          <col />
          <col className="w-[10rem]" />
          <col className="w-[13rem]" />
          <col className="w-[6.5rem]" />
          <col className="w-[8rem]" />
          {canWrite && <col className="w-[5rem]" />}
        </colgroup>
        <TableHeader role="rowgroup" className={cardRows.header}>
          <TableRow role="row" aria-rowindex={1} className="hover:bg-transparent">
            <TableHead role="columnheader">User</TableHead>
            <TableHead role="columnheader">Username</TableHead>
            <TableHead role="columnheader">Roles</TableHead>
            <TableHead role="columnheader">Status</TableHead>
            <TableHead role="columnheader">Last Login</TableHead>
            {canWrite && (
              <TableHead role="columnheader" className="text-right">
                Actions
              </TableHead>
            )}
          </TableRow>
        </TableHeader>
        {/* On a phone: the cards, 12 px from the box's edges and from each other (each card's bottom margin). */}
        <TableBody role="rowgroup" className={cn(cardRows.body, "max-sm:px-3 max-sm:pt-3")}>
          {loading ? (
            <SkeletonRows columns={columns} canWrite={canWrite} />
          ) : (
            <>
              {start > 0 && <Spacer height={start * stride} columns={columns} />}
              {users.slice(start, end).map((user, i) => (
                <UserRow
                  key={user.id}
                  user={user}
                  rowIndex={start + i + 2}
                  isSelf={user.id === currentUserId}
                  canWrite={canWrite}
                  onAction={onAction}
                />
              ))}
              {end < users.length && <Spacer height={(users.length - end) * stride} columns={columns} />}
            </>
          )}
        </TableBody>
      </Table>
    </div>
  );
}

function Spacer({ height, columns }: { height: number; columns: number }) {
  return (
    <tr aria-hidden="true" style={{ height }} className="max-sm:block">
      <td colSpan={columns} className="p-0 max-sm:hidden" />
    </tr>
  );
}

/** Shaped like the rows (on a phone, like the cards: the title, two values, the roles, the actions). */
function SkeletonRows({ columns, canWrite }: { columns: number; canWrite: boolean }) {
  const cell = cardRows.cell;
  return Array.from({ length: 6 }, (_, i) => (
    <TableRow key={i} aria-hidden="true" style={rowSizeStyle(canWrite)} className={cn(rowClass(canWrite), "hover:bg-transparent")}>
      <TableCell className={cn(cell, "max-sm:col-[1/-1]")}>
        <div className="flex items-center gap-3">
          <Skeleton className="size-8 rounded-full" />
          <div className="space-y-1.5">
            <Skeleton className="h-3.5 w-32" />
            <Skeleton className="h-3 w-44" />
          </div>
        </div>
      </TableCell>
      <TableCell className={cell}>
        <Skeleton className="h-3.5 w-20 max-sm:my-3" />
      </TableCell>
      <TableCell className={cn(cell, "max-sm:col-start-1 max-sm:row-start-3")}>
        <Skeleton className="h-5 w-16" />
      </TableCell>
      <TableCell className={cn(cell, "max-sm:hidden")}>
        <Skeleton className="h-5 w-14" />
      </TableCell>
      <TableCell className={cn(cell, "max-sm:col-start-2 max-sm:row-start-2")}>
        <Skeleton className="h-3.5 w-20 max-sm:my-3" />
      </TableCell>
      {columns === 6 && (
        <TableCell className={cn(cell, cardRows.foot, "max-sm:row-start-4 max-sm:self-end")}>
          <Skeleton className="ml-auto size-8 max-sm:h-[4.5rem] max-sm:w-full" />
        </TableCell>
      )}
    </TableRow>
  ));
}
