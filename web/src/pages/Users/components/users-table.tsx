import { useCallback, useLayoutEffect, useRef, useState, type UIEvent } from "react";
import type { UserDto } from "@contract/users";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { UserAction } from "./user-actions-menu";
import { ROW_HEIGHT, UserRow } from "./user-row";

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
 * rows, not thousands. It scrolls inside its own box (sticky header; sideways only on a phone).
 */
export function UsersTable({ users, loading, canWrite, currentUserId, resetKey, onAction }: UsersTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const [firstVisible, setFirstVisible] = useState(0);
  const [viewport, setViewport] = useState(INITIAL_VIEWPORT);

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

  const onScroll = useCallback((event: UIEvent<HTMLDivElement>) => {
    setFirstVisible(Math.floor(event.currentTarget.scrollTop / ROW_HEIGHT));
  }, []);

  const start = Math.max(0, firstVisible - OVERSCAN);
  const end = Math.min(users.length, firstVisible + Math.ceil(viewport / ROW_HEIGHT) + OVERSCAN);
  const columns = canWrite ? 6 : 5;

  return (
    <div
      ref={scrollRef}
      onScroll={onScroll}
      role="region"
      aria-label="Users table"
      tabIndex={0}
      className="relative max-h-[max(24rem,calc(100dvh-22rem))] overflow-auto rounded-b-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring"
    >
      {/* Fixed layout: column widths do not depend on the rows in view, so scrolling never jiggles them. */}
      <Table className={canWrite ? "min-w-[58rem] table-fixed" : "min-w-[53rem] table-fixed"} aria-rowcount={loading ? -1 : users.length + 1}>
        <colgroup>
          <col />
          <col className="w-[10rem]" />
          <col className="w-[13rem]" />
          <col className="w-[6.5rem]" />
          <col className="w-[8rem]" />
          {canWrite && <col className="w-[5rem]" />}
        </colgroup>
        <TableHeader>
          <TableRow aria-rowindex={1} className="hover:bg-transparent">
            <TableHead>User</TableHead>
            <TableHead>Username</TableHead>
            <TableHead>Roles</TableHead>
            <TableHead>Status</TableHead>
            <TableHead>Last Login</TableHead>
            {canWrite && <TableHead className="text-right">Actions</TableHead>}
          </TableRow>
        </TableHeader>
        <TableBody>
          {loading ? (
            <SkeletonRows columns={columns} />
          ) : (
            <>
              {start > 0 && <Spacer height={start * ROW_HEIGHT} columns={columns} />}
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
              {end < users.length && <Spacer height={(users.length - end) * ROW_HEIGHT} columns={columns} />}
            </>
          )}
        </TableBody>
      </Table>
    </div>
  );
}

function Spacer({ height, columns }: { height: number; columns: number }) {
  return (
    <tr aria-hidden="true" style={{ height }}>
      <td colSpan={columns} className="p-0" />
    </tr>
  );
}

function SkeletonRows({ columns }: { columns: number }) {
  return Array.from({ length: 6 }, (_, i) => (
    <TableRow key={i} aria-hidden="true" style={{ height: ROW_HEIGHT }} className="hover:bg-transparent">
      <TableCell>
        <div className="flex items-center gap-3">
          <Skeleton className="size-8 rounded-full" />
          <div className="space-y-1.5">
            <Skeleton className="h-3.5 w-32" />
            <Skeleton className="h-3 w-44" />
          </div>
        </div>
      </TableCell>
      <TableCell>
        <Skeleton className="h-3.5 w-20" />
      </TableCell>
      <TableCell>
        <Skeleton className="h-5 w-16" />
      </TableCell>
      <TableCell>
        <Skeleton className="h-5 w-14" />
      </TableCell>
      <TableCell>
        <Skeleton className="h-3.5 w-20" />
      </TableCell>
      {columns === 6 && (
        <TableCell>
          <Skeleton className="ml-auto size-8" />
        </TableCell>
      )}
    </TableRow>
  ));
}
