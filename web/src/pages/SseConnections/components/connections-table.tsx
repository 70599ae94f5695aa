import { Unplug } from "lucide-react";
import type { SseConnectionDto } from "@contract/connections";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { MiddleTruncate } from "@/components/ui/middle-truncate";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import { cn } from "@/lib/utils";
import { kindLabel, orUnknown } from "../lib/connections";

/** The action column stays in view when the table scrolls sideways (a narrow window, long user agents). */
const STICKY_END = "sticky right-0 z-[1] bg-card shadow-[-6px_0_6px_-6px_rgb(0_0_0/0.2)]";

interface ConnectionsTableProps {
  connections: readonly SseConnectionDto[];
  /** The clock the relative heartbeat times read ("Just now", "5m ago"); ticks without a refetch. */
  now: number;
  /** When given (sse-connections.write), live rows offer "End connection". */
  onEnd?: ((connection: SseConnectionDto) => void) | undefined;
}

/** The registry's rows (spec section 2): id, status, client, connected, last heartbeat, IP, user agent. */
export function ConnectionsTable({ connections, now, onEnd }: ConnectionsTableProps) {
  return (
    <div role="region" aria-label="SSE connections table" tabIndex={0} className="max-h-[36rem] overflow-auto rounded-lg border border-border bg-card focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
      <Table className="min-w-[60rem]">
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            <TableHead>Connection</TableHead>
            <TableHead>Status</TableHead>
            <TableHead>Client ID</TableHead>
            <TableHead>Connected</TableHead>
            <TableHead>Last heartbeat</TableHead>
            <TableHead>IP address</TableHead>
            <TableHead>User agent</TableHead>
            {onEnd && (
              <TableHead className={STICKY_END}>
                <span className="sr-only">Actions</span>
              </TableHead>
            )}
          </TableRow>
        </TableHeader>
        <TableBody>
          {connections.map((c) => (
            <TableRow key={c.id}>
              <TableCell className="max-w-[14rem]">
                <div className="flex min-w-0 items-center gap-1">
                  <MiddleTruncate value={c.connectionId} tail={6} />
                  <CopyButton value={c.connectionId} what="Connection ID" label={`Copy connection ID ${c.connectionId}`} />
                </div>
                <p className="text-xs text-muted-foreground">{kindLabel(c.kind)}</p>
              </TableCell>
              <TableCell>
                {c.isActive ? (
                  <Badge variant="success">
                    <span aria-hidden="true" className="size-1.5 rounded-full bg-current" />
                    Active
                  </Badge>
                ) : (
                  <Badge variant="secondary">Inactive</Badge>
                )}
              </TableCell>
              <TableCell className="max-w-[14rem]">
                <MiddleTruncate value={c.clientId} tail={6} />
              </TableCell>
              <TableCell className="whitespace-nowrap text-muted-foreground">
                <Time iso={c.createdAt} as="dateTime" />
              </TableCell>
              <TableCell className="whitespace-nowrap tabular-nums">
                <Time iso={c.lastHeartbeat} as="relative" now={now} />
              </TableCell>
              <TableCell className="whitespace-nowrap font-mono text-xs">{orUnknown(c.clientInfo.ipAddress)}</TableCell>
              <TableCell className="max-w-[12rem] truncate text-xs text-muted-foreground" title={orUnknown(c.clientInfo.userAgent)}>
                {orUnknown(c.clientInfo.userAgent)}
              </TableCell>
              {onEnd && (
                <TableCell className={cn(STICKY_END, "text-right")}>
                  {c.isActive && (
                    <Button variant="outline" size="sm" onClick={() => onEnd(c)} aria-label={`End connection ${c.connectionId} of ${c.clientId}`}>
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
