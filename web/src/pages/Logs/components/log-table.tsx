import { useVirtualizer } from "@tanstack/react-virtual";
import { ChevronsDown } from "lucide-react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import type { LogEntryDto } from "@contract/logs";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { PHONE_QUERY, useMediaQuery } from "@/hooks/use-media-query";
import { formatNumber } from "@/lib/format";
import { CARD_HEIGHT, LogCard } from "./log-card";
import { LogRow, ROW_HEIGHT } from "./log-row";

/** The sticky header row's height: the first row starts below it. */
const HEADER_HEIGHT = 40;
/** Space above the first card on a phone. */
const CARD_LIST_PADDING = 12;
/** Rows rendered beyond the visible ones, so fast scrolling and Tab never meet a gap. */
const OVERSCAN = 12;
const SKELETON_ROWS = 8;

export interface LogTableProps {
  rows: readonly LogEntryDto[];
  loading: boolean;
  /** Every matching row the server counted (the summary); undefined until it arrives. */
  total: number | undefined;
  hasNextPage: boolean;
  fetchingNextPage: boolean;
  onLoadMore: () => Promise<unknown>;
  selectedId: string | null;
  onOpen: (entry: LogEntryDto) => void;
}

/**
 * The request log, virtualised: whatever was loaded (a page is 200 rows), only the rows in view
 * and OVERSCAN more are in the DOM. It scrolls inside its own box under a sticky header; on a
 * phone the rows are cards (LogCard), a list that never scrolls sideways. Scrolling to the end
 * loads the next page; a Load more button does the same for the keyboard and moves focus to the
 * first new row.
 */
export function LogTable({ rows, loading, total, hasNextPage, fetchingNextPage, onLoadMore, selectedId, onOpen }: LogTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const phone = useMediaQuery(PHONE_QUERY);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => (phone ? CARD_HEIGHT : ROW_HEIGHT),
    overscan: OVERSCAN,
    paddingStart: phone ? CARD_LIST_PADDING : HEADER_HEIGHT,
    getItemKey: (index) => rows[index]?.id ?? index,
  });
  // The other layout's sizes are not this one's.
  useEffect(() => virtualizer.measure(), [phone, virtualizer]);
  const items = virtualizer.getVirtualItems();
  const lastRendered = items.at(-1)?.index ?? -1;

  // The end of the loaded rows came into the rendered range: ask for the next page.
  useEffect(() => {
    if (hasNextPage && !fetchingNextPage && rows.length > 0 && lastRendered >= rows.length - 1) void onLoadMore();
  }, [hasNextPage, fetchingNextPage, rows.length, lastRendered, onLoadMore]);

  // After Load more, focus the first new row once it is rendered.
  const [focusIndex, setFocusIndex] = useState<number | null>(null);
  useEffect(() => {
    if (focusIndex === null || focusIndex >= rows.length) return;
    const button = scrollRef.current?.querySelector<HTMLButtonElement>(`[data-index="${focusIndex}"] button`);
    if (button) {
      button.focus({ preventScroll: true });
      setFocusIndex(null);
    } else {
      virtualizer.scrollToIndex(focusIndex, { align: "start" });
    }
  }, [focusIndex, rows.length, items, virtualizer]);

  const loadMore = async () => {
    const firstNew = rows.length;
    await onLoadMore();
    setFocusIndex(firstNew);
  };

  const top = items.length > 0 ? items[0]!.start - (phone ? CARD_LIST_PADDING : HEADER_HEIGHT) : 0;
  const bottom = items.length > 0 ? virtualizer.getTotalSize() - items.at(-1)!.end : 0;

  return (
    <>
      <div
        ref={scrollRef}
        role="region"
        aria-label="Request log"
        tabIndex={0}
        className="relative max-h-[max(24rem,calc(100dvh-25rem))] overflow-auto focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring"
      >
        {phone ? (
          <CardList loading={loading} top={top} bottom={bottom}>
            {items.map((item) => {
              const entry = rows[item.index]!;
              return <LogCard key={entry.id} entry={entry} index={item.index} selected={entry.id === selectedId} onOpen={onOpen} />;
            })}
          </CardList>
        ) : (
          <>
            {/* Fixed layout: column widths do not depend on the rows in view, so scrolling never jiggles them. */}
            <Table
              className="min-w-[66rem] table-fixed [&_td]:px-3 [&_th]:px-3"
              aria-rowcount={loading ? -1 : rows.length + 1}
              aria-busy={loading || undefined}
            >
              <colgroup>
                <col className="w-10" />
                <col className="w-[5rem]" />
                <col />
                <col className="w-[4.5rem]" />
                <col className="w-[12.5rem]" />
                <col className="w-[11rem]" />
                <col className="w-[7.5rem]" />
                <col className="w-[7rem]" />
              </colgroup>
              <TableHeader>
                <TableRow aria-rowindex={1} className="hover:bg-transparent" style={{ height: HEADER_HEIGHT }}>
                  <TableHead>
                    <span className="sr-only">Result</span>
                  </TableHead>
                  <TableHead>Method</TableHead>
                  <TableHead>Endpoint</TableHead>
                  <TableHead>Status</TableHead>
                  <TableHead>Timestamp</TableHead>
                  <TableHead>Client ID</TableHead>
                  <TableHead>IP Address</TableHead>
                  <TableHead className="text-right">Response Time</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {loading ? (
                  <SkeletonRows />
                ) : (
                  <>
                    {top > 0 && <Spacer height={top} />}
                    {items.map((item) => {
                      const entry = rows[item.index]!;
                      return <LogRow key={entry.id} entry={entry} index={item.index} selected={entry.id === selectedId} onOpen={onOpen} />;
                    })}
                    {bottom > 0 && <Spacer height={bottom} />}
                  </>
                )}
              </TableBody>
            </Table>
          </>
        )}
      </div>
      {!loading && (
        <div className="flex flex-wrap items-center justify-between gap-3 border-t border-border px-4 py-3 text-sm text-muted-foreground sm:px-6">
          <p aria-live="polite" className="tabular-nums">
            {total !== undefined && total >= rows.length
              ? `Showing ${formatNumber(rows.length)} of ${formatNumber(total)} requests`
              : `Showing ${formatNumber(rows.length)} requests`}
          </p>
          {hasNextPage ? (
            <Button
              variant="outline"
              size="sm"
              onClick={() => void loadMore()}
              disabled={fetchingNextPage}
              aria-busy={fetchingNextPage || undefined}
            >
              {fetchingNextPage ? <Spinner /> : <ChevronsDown aria-hidden="true" />}
              {fetchingNextPage ? "Loading more..." : "Load more"}
            </Button>
          ) : (
            <span className="text-xs">End of the log</span>
          )}
        </div>
      )}
    </>
  );
}

/** The cards' list on a phone: skeleton cards while loading; the space of the cards not rendered above and below. */
function CardList({ loading, top, bottom, children }: { loading: boolean; top: number; bottom: number; children: ReactNode }) {
  if (loading) {
    return (
      <ul aria-hidden="true" className="pt-3">
        {Array.from({ length: 4 }, (_, i) => (
          <li key={i} style={{ height: CARD_HEIGHT }} className="px-3 pb-2">
            <Skeleton className="h-full w-full rounded-lg" />
          </li>
        ))}
      </ul>
    );
  }
  return (
    <ul aria-label="Logged requests" style={{ paddingTop: CARD_LIST_PADDING + top, paddingBottom: bottom }}>
      {children}
    </ul>
  );
}

function Spacer({ height }: { height: number }) {
  return (
    <tr aria-hidden="true" style={{ height }}>
      <td colSpan={8} className="p-0" />
    </tr>
  );
}

function SkeletonRows() {
  return Array.from({ length: SKELETON_ROWS }, (_, i) => (
    <TableRow key={i} aria-hidden="true" style={{ height: ROW_HEIGHT }} className="hover:bg-transparent">
      <TableCell>
        <Skeleton className="size-4 rounded-full" />
      </TableCell>
      <TableCell>
        <Skeleton className="h-5 w-12" />
      </TableCell>
      <TableCell>
        <Skeleton className="h-3.5" style={{ width: `${45 + ((i * 17) % 40)}%` }} />
      </TableCell>
      <TableCell>
        <Skeleton className="h-5 w-10" />
      </TableCell>
      <TableCell>
        <Skeleton className="h-3.5 w-36" />
      </TableCell>
      <TableCell>
        <Skeleton className="h-3.5 w-24" />
      </TableCell>
      <TableCell>
        <Skeleton className="h-3.5 w-20" />
      </TableCell>
      <TableCell>
        <Skeleton className="ml-auto h-3.5 w-12" />
      </TableCell>
    </TableRow>
  ));
}
