import type { UseQueryResult } from "@tanstack/react-query";
import { Inbox } from "lucide-react";
import { Link } from "wouter";
import type { LogEntryDto } from "@contract/logs";
import type { ApiError } from "@/api/client";
import { QueryError } from "@/components/ui/query-error";
import { Skeleton } from "@/components/ui/skeleton";
import { Time } from "@/components/ui/time";
import { formatMs } from "@/lib/format";
import { cn } from "@/lib/utils";
import { RECENT_ACTIVITY_LIMIT } from "../api";
import { STATUS_BAND_LABEL, statusBand, type StatusBand } from "../lib/status";
import { DashboardCard } from "./dashboard-card";
import { StatusDot, type DotTone } from "./status-dot";

const BAND_TONE: Record<StatusBand, DotTone> = {
  success: "success",
  redirect: "info",
  "client-error": "warning",
  "server-error": "destructive",
};

function ActivityRow({ entry, now }: { entry: LogEntryDto; now: number }) {
  const band = statusBand(entry.statusCode);
  const detail = entry.toolName ?? entry.rpcMethod;
  const who = entry.clientName ?? entry.clientId;
  const failed = entry.outcome === "tool_error" || entry.outcome === "rpc_error";
  return (
    <li className="flex flex-col gap-1 py-3 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:gap-3">
      <div className="flex min-w-0 flex-1 items-center gap-2">
        <span className="w-14 shrink-0 font-mono text-xs font-semibold">{entry.method}</span>
        <span className={cn("min-w-[2.5rem] truncate font-mono text-xs", detail && "max-w-[45%] shrink-0")} title={entry.endpoint}>
          {entry.endpoint}
        </span>
        {detail && (
          <span
            className={
              entry.toolName
                ? "min-w-0 truncate rounded bg-muted px-1.5 py-0.5 font-mono text-[11px] text-foreground"
                : "min-w-0 truncate font-mono text-[11px] text-muted-foreground"
            }
            title={entry.toolName ? `Tool ${entry.toolName}` : `JSON-RPC ${detail}`}
          >
            {detail}
          </span>
        )}
        {failed && (
          <span
            className={
              entry.outcome === "tool_error"
                ? "shrink-0 text-[11px] font-medium text-warning"
                : "shrink-0 text-[11px] font-medium text-destructive"
            }
            title={entry.error ?? undefined}
          >
            {entry.outcome === "tool_error" ? "Tool error" : "JSON-RPC error"}
          </span>
        )}
        {who && (
          <span
            className="hidden min-w-0 shrink truncate text-[11px] text-muted-foreground md:inline"
            title={entry.clientId ? `Client ID: ${entry.clientId}` : undefined}
          >
            {who}
            {entry.userName && ` · ${entry.userName}`}
          </span>
        )}
      </div>
      <div className="flex shrink-0 items-center gap-3 pl-16 text-xs text-muted-foreground sm:pl-0">
        <span className="flex items-center gap-1.5 font-medium text-foreground" title={STATUS_BAND_LABEL[band]}>
          <StatusDot tone={BAND_TONE[band]} />
          <span className="tabular-nums">{entry.statusCode}</span>
          <span className="sr-only">{STATUS_BAND_LABEL[band]}</span>
        </span>
        <Time iso={entry.createdAt} as="relative" now={now} className="w-14 whitespace-nowrap" />
        <span className="w-14 text-right tabular-nums">{formatMs(entry.responseTime)}</span>
      </div>
    </li>
  );
}

/**
 * Recent Activity (spec §2): the newest five entries of client traffic with method, endpoint,
 * status code (a coloured dot beside the code), time and response time; an MCP call shows its
 * tool, a failed answer says so, and the client (and user) are named where there is room.
 */
export function RecentActivity({ query }: { query: UseQueryResult<LogEntryDto[] | null, ApiError> }) {
  const entries = (query.data ?? []).slice(0, RECENT_ACTIVITY_LIMIT);
  return (
    <DashboardCard
      title="Recent Activity"
      description="The latest requests from clients (MCP, OAuth, proxy)"
      busy={query.isPending}
      action={
        <Link href="/logs" className="shrink-0 text-sm font-medium text-primary underline-offset-4 hover:underline">
          View all logs
        </Link>
      }
    >
      {query.isPending ? (
        <div className="space-y-4">
          {Array.from({ length: RECENT_ACTIVITY_LIMIT }, (_, i) => (
            <div key={i} className="flex items-center gap-3">
              <Skeleton className="h-4 w-10" />
              <Skeleton className="h-4 flex-1" />
              <Skeleton className="h-4 w-28" />
            </div>
          ))}
        </div>
      ) : query.error ? (
        <QueryError
          title="Recent activity could not be loaded."
          error={query.error}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      ) : entries.length === 0 ? (
        <div className="flex flex-col items-center gap-2 py-8 text-center text-sm text-muted-foreground">
          <Inbox className="size-6" aria-hidden="true" />
          <p>No recent activity</p>
        </div>
      ) : (
        <ul aria-label="Latest requests" className="divide-y divide-border">
          {entries.map((entry) => (
            <ActivityRow key={entry.id} entry={entry} now={query.dataUpdatedAt} />
          ))}
        </ul>
      )}
    </DashboardCard>
  );
}
