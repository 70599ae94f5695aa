import { Unplug } from "lucide-react";
import type { SseConnectionDto } from "@contract/connections";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { MiddleTruncate } from "@/components/ui/middle-truncate";
import { cardRows, Table, TableBody, TableCell, TableCellLabel, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import { cn } from "@/lib/utils";
import { kindLabel, orUnknown } from "../lib/connections";

/** The action column stays in view when the table scrolls sideways (a narrow window, long user agents). */
const STICKY_END = "sticky right-0 z-[1] bg-card shadow-[-6px_0_6px_-6px_rgb(0_0_0/0.2)]";
/** On a phone the table's rows are cards (cardRows), stacked on the page, not in a scrolling box. */
const PHONE_BOX = "max-sm:max-h-none max-sm:overflow-visible max-sm:rounded-none max-sm:border-0 max-sm:bg-transparent";
const cell = cardRows.cell;

interface ConnectionsTableProps {
  connections: readonly SseConnectionDto[];
  /** The clock the relative heartbeat times read ("Just now", "5m ago"); ticks without a refetch. */
  now: number;
  /** When given (sse-connections.write), live rows offer "End connection". */
  onEnd?: ((connection: SseConnectionDto) => void) | undefined;
}

/**
 * The registry's rows (spec section 2): id, status, client, connected, last heartbeat, IP, user
 * agent. On a phone (below `sm`) each row is a card: the connection id its title with the status
 * badge beside it, every other value under its column's name (Client ID | IP address, Connected |
 * Last heartbeat, User agent), "End connection" at its foot.
 */
export function ConnectionsTable({ connections, now, onEnd }: ConnectionsTableProps) {
  return (
    <div
      role="region"
      aria-label="SSE connections table"
      tabIndex={0}
      className={cn(
        "max-h-[36rem] overflow-auto rounded-lg border border-border bg-card focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
        PHONE_BOX,
      )}
    >
      <Table role="table" className={cn("sm:min-w-[60rem]", cardRows.table)}>
        <TableHeader role="rowgroup" className={cardRows.header}>
          <TableRow role="row" className="hover:bg-transparent">
            <TableHead role="columnheader">Connection</TableHead>
            <TableHead role="columnheader">Status</TableHead>
            <TableHead role="columnheader">Client ID</TableHead>
            <TableHead role="columnheader">Connected</TableHead>
            <TableHead role="columnheader">Last heartbeat</TableHead>
            <TableHead role="columnheader">IP address</TableHead>
            <TableHead role="columnheader">User agent</TableHead>
            {onEnd && (
              <TableHead role="columnheader" className={STICKY_END}>
                <span className="sr-only">Actions</span>
              </TableHead>
            )}
          </TableRow>
        </TableHeader>
        <TableBody role="rowgroup" className={cn(cardRows.body, "max-sm:space-y-3")}>
          {connections.map((c) => (
            <TableRow role="row" key={c.id} className={cn(cardRows.row, "max-sm:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]")}>
              <TableCell role="cell" className={cn(cell, "max-w-[14rem] max-sm:col-[1/-1] max-sm:row-start-1 max-sm:pr-20")}>
                <div className="flex min-w-0 items-center gap-1">
                  <MiddleTruncate value={c.connectionId} tail={6} className="max-sm:text-sm max-sm:font-medium" />
                  <CopyButton value={c.connectionId} what="Connection ID" label={`Copy connection ID ${c.connectionId}`} />
                </div>
                <p className="text-xs text-muted-foreground">{kindLabel(c.kind)}</p>
              </TableCell>
              <TableCell role="cell" className={cn(cell, "max-sm:col-start-2 max-sm:row-start-1 max-sm:justify-self-end max-sm:pt-1.5")}>
                {c.isActive ? (
                  <Badge variant="success">
                    <span aria-hidden="true" className="size-1.5 rounded-full bg-current" />
                    Active
                  </Badge>
                ) : (
                  <Badge variant="secondary">Inactive</Badge>
                )}
              </TableCell>
              <TableCell role="cell" className={cn(cell, "max-w-[14rem]")}>
                <TableCellLabel>Client ID</TableCellLabel>
                <MiddleTruncate value={c.clientId} tail={6} className="max-sm:leading-5" />
              </TableCell>
              <TableCell
                role="cell"
                className={cn(cell, "whitespace-nowrap text-muted-foreground max-sm:whitespace-normal max-sm:text-foreground")}
              >
                <TableCellLabel>Connected</TableCellLabel>
                <Time iso={c.createdAt} as="dateTime" />
              </TableCell>
              <TableCell role="cell" className={cn(cell, "whitespace-nowrap tabular-nums")}>
                <TableCellLabel>Last heartbeat</TableCellLabel>
                <Time iso={c.lastHeartbeat} as="relative" now={now} />
              </TableCell>
              <TableCell
                role="cell"
                className={cn(
                  cell,
                  "whitespace-nowrap font-mono text-xs max-sm:col-start-2 max-sm:row-start-2 max-sm:whitespace-normal max-sm:leading-5 max-sm:[overflow-wrap:anywhere]",
                )}
              >
                <TableCellLabel>IP address</TableCellLabel>
                {orUnknown(c.clientInfo.ipAddress)}
              </TableCell>
              {/* On a phone the user agent is shown whole, across the card, wrapping where it must. */}
              <TableCell
                role="cell"
                className={cn(
                  cell,
                  "max-w-[12rem] truncate text-xs text-muted-foreground max-sm:col-[1/-1] max-sm:whitespace-normal max-sm:leading-5 max-sm:[overflow-wrap:anywhere]",
                )}
                title={orUnknown(c.clientInfo.userAgent)}
              >
                <TableCellLabel>User agent</TableCellLabel>
                {orUnknown(c.clientInfo.userAgent)}
              </TableCell>
              {onEnd && (
                <TableCell
                  role="cell"
                  className={cn(
                    STICKY_END,
                    cell,
                    cardRows.foot,
                    "text-right max-sm:static max-sm:bg-transparent max-sm:shadow-none max-sm:empty:hidden",
                  )}
                >
                  {c.isActive && (
                    <Button
                      variant="outline"
                      size="sm"
                      className="max-sm:w-full"
                      onClick={() => onEnd(c)}
                      aria-label={`End connection ${c.connectionId} of ${c.clientId}`}
                    >
                      <Unplug aria-hidden="true" />
                      End connection
                    </Button>
                  )}
                </TableCell>
              )}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
