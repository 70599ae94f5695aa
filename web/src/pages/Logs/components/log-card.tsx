import { memo } from "react";
import { Time } from "@/components/ui/time";
import { cn } from "@/lib/utils";
import { responseTimeText } from "../lib/status";
import { MethodBadge, StatusCodeBadge, StatusIcon } from "./log-badges";
import { McpLine, type LogRowProps } from "./log-row";

/** Cards have one fixed height too (the list renders only those in view), spacing included. */
export const CARD_HEIGHT = 112;

/**
 * One logged request as a card, for a phone: the result, method and status; the endpoint (two
 * lines when there is no MCP line); the tool, outcome and error; who, when and how long. Each
 * value is named for a screen reader as the table's headers name them. The endpoint is the card's
 * button, as in the row.
 */
export const LogCard = memo(function LogCard({ entry, index, selected, onOpen }: LogRowProps) {
  const who = entry.clientName ?? entry.clientId;
  return (
    <li data-log-id={entry.id} data-index={index} style={{ height: CARD_HEIGHT }} className="px-3 pb-2">
      <div
        onClick={() => onOpen(entry)}
        className={cn(
          "flex h-full cursor-pointer flex-col justify-between gap-1 rounded-lg border border-border bg-card px-3 py-2.5 text-sm",
          selected && "bg-muted",
        )}
      >
        <div className="flex min-w-0 items-center gap-2">
          <StatusIcon statusCode={entry.statusCode} outcome={entry.outcome} />
          <MethodBadge method={entry.method} />
          <span className="sr-only">Status </span>
          <StatusCodeBadge statusCode={entry.statusCode} />
        </div>
        <button
          type="button"
          className={cn(
            "min-w-0 break-all rounded-sm text-left font-mono text-[13px] leading-[18px] hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
            entry.toolName || entry.rpcMethod || entry.outcome ? "line-clamp-1" : "line-clamp-2",
          )}
          title={entry.endpoint}
        >
          <span className="sr-only">View details of {entry.method} </span>
          <span>{entry.endpoint}</span>
        </button>
        <McpLine entry={entry} />
        <div className="flex min-w-0 items-center gap-2 text-xs text-muted-foreground">
          {who ? (
            <span className="min-w-0 flex-1 truncate" title={entry.clientId ? `Client ID: ${entry.clientId}` : undefined}>
              <span className="sr-only">Client: </span>
              {who}
              {entry.userName && ` · ${entry.userName}`}
            </span>
          ) : (
            // No client (an OAuth step, discovery): where it came from.
            <span className="min-w-0 flex-1 truncate font-mono">
              <span className="sr-only">IP address: </span>
              {entry.ipAddress ?? "—"}
            </span>
          )}
          <Time iso={entry.createdAt} as="timestamp" className="shrink-0 tabular-nums" />
          <span className="shrink-0 tabular-nums">
            <span className="sr-only">Response time </span>
            {responseTimeText(entry.responseTime)}
          </span>
        </div>
      </div>
    </li>
  );
});
