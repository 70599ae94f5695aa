import { Braces, Wrench } from "lucide-react";
import { memo } from "react";
import type { LogEntryDto } from "@contract/logs";
import { TableCell, TableRow } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import { cn } from "@/lib/utils";
import { responseTimeText } from "../lib/status";
import { MethodBadge, OutcomeBadge, StatusCodeBadge, StatusIcon } from "./log-badges";

/** Rows have one fixed height, so the list can render only the rows in view. */
export const ROW_HEIGHT = 53;

/** The selector of a row's details button (focus goes back there when the panel closes). */
export const rowButtonSelector = (id: string) => `[data-log-id="${CSS.escape(id)}"] button`;

export interface LogRowProps {
  entry: LogEntryDto;
  /** Position among the loaded rows (0-based). */
  index: number;
  selected: boolean;
  onOpen: (entry: LogEntryDto) => void;
}

/**
 * One logged request. The endpoint is the row's button (Tab reaches it, Enter or Space opens
 * the detail panel); a click anywhere on the row does the same.
 */
export const LogRow = memo(function LogRow({ entry, index, selected, onOpen }: LogRowProps) {
  return (
    <TableRow
      data-log-id={entry.id}
      data-index={index}
      aria-rowindex={index + 2}
      data-state={selected ? "selected" : undefined}
      style={{ height: ROW_HEIGHT }}
      onClick={() => onOpen(entry)}
      className={cn("cursor-pointer", selected && "bg-muted hover:bg-muted")}
    >
      <TableCell>
        <StatusIcon statusCode={entry.statusCode} outcome={entry.outcome} />
      </TableCell>
      <TableCell>
        <MethodBadge method={entry.method} />
      </TableCell>
      <TableCell className="max-w-0">
        <button
          type="button"
          className="block max-w-full truncate rounded-sm text-left font-mono text-[13px] hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          title={entry.endpoint}
        >
          <span className="sr-only">View details of {entry.method} </span>
          <span>{entry.endpoint}</span>
        </button>
        <McpLine entry={entry} />
      </TableCell>
      <TableCell>
        <StatusCodeBadge statusCode={entry.statusCode} />
      </TableCell>
      <TableCell className="whitespace-nowrap text-[13px] text-muted-foreground tabular-nums">
        <Time iso={entry.createdAt} as="timestamp" />
      </TableCell>
      <TableCell className="max-w-0">
        <ClientCell entry={entry} />
      </TableCell>
      <TableCell className="max-w-0">
        <Optional value={entry.ipAddress} className="font-mono text-xs" />
      </TableCell>
      <TableCell className="text-right tabular-nums">{responseTimeText(entry.responseTime)}</TableCell>
    </TableRow>
  );
});

/** An MCP row's second line: the tool (or JSON-RPC method), the outcome badge and the error's text. */
export function McpLine({ entry }: { entry: LogEntryDto }) {
  const mcp = entry.toolName
    ? { icon: Wrench, label: "Tool", text: entry.toolName }
    : entry.rpcMethod
      ? { icon: Braces, label: "JSON-RPC method", text: entry.rpcMethod }
      : null;
  if (!mcp && !entry.outcome) return null;
  return (
    <span className="mt-0.5 flex min-w-0 items-center gap-1.5 text-xs text-muted-foreground">
      {mcp && (
        <span className={cn("flex min-w-0 shrink items-center gap-1", entry.error && "max-w-[40%]")} title={`${mcp.label}: ${mcp.text}`}>
          <mcp.icon className="size-3 shrink-0" aria-hidden="true" />
          <span className="sr-only">{mcp.label}: </span>
          <span className="truncate font-mono">{mcp.text}</span>
        </span>
      )}
      {entry.outcome && <OutcomeBadge outcome={entry.outcome} error={entry.error} />}
      {entry.error && (
        <span className="min-w-0 flex-1 truncate" title={entry.error}>
          {entry.error}
        </span>
      )}
    </span>
  );
}

/**
 * Who called: the client's name (its id on hover and for screen readers), or its id when the
 * name is not known or not the reader's to see; the user behind the token or session below.
 */
export function ClientCell({ entry }: { entry: LogEntryDto }) {
  const { clientId, clientName, userName } = entry;
  return (
    <>
      {clientId && clientName ? (
        <span className="block truncate text-[13px] font-medium" title={`Client ID: ${clientId}`}>
          {clientName}
          <span className="sr-only"> (client ID {clientId})</span>
        </span>
      ) : (
        <Optional value={clientId} className="font-mono text-xs" />
      )}
      {(userName ?? entry.userId) && (
        <span className="mt-0.5 block truncate text-xs text-muted-foreground" title={`User: ${userName ?? entry.userId}`}>
          <span className="sr-only">User: </span>
          {userName ?? entry.userId}
        </span>
      )}
    </>
  );
}

export function Optional({ value, className }: { value: string | null; className?: string }) {
  if (!value) {
    return (
      <span className="text-muted-foreground">
        <span aria-hidden="true">—</span>
        <span className="sr-only">None</span>
      </span>
    );
  }
  return (
    <span className={cn("block truncate", className)} title={value}>
      {value}
    </span>
  );
}
