import { Activity, KeyRound, Radio, Server, type LucideIcon } from "lucide-react";
import { useId, type ReactNode } from "react";
import { SERVER_RUNNING, type StatsDto } from "@contract/stats";
import { Card } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { formatNumber, formatUptime, plural } from "@/lib/format";
import { cn } from "@/lib/utils";
import { StatusDot } from "./status-dot";

export const NO_DATA = "No data available";

interface StatCardProps {
  title: string;
  icon: LucideIcon;
  loading: boolean;
  /** The card's figure; null when there is none to show (the card then reads "No data available"). */
  value: ReactNode | null;
  caption?: ReactNode;
}

/** A figure with its caption (UI.md: tabular figures); a skeleton while loading; "No data available" without a figure. */
function StatCard({ title, icon: Icon, loading, value, caption }: StatCardProps) {
  const id = useId();
  return (
    <Card role="region" aria-labelledby={id} aria-busy={loading} className="min-w-0 p-6">
      <div className="flex items-center justify-between gap-3 pb-3">
        <h2 id={id} className="text-sm font-medium text-muted-foreground">
          {title}
        </h2>
        <Icon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      </div>
      {loading ? (
        <div className="space-y-2.5 pt-0.5">
          <Skeleton className="h-7 w-24" />
          <Skeleton className="h-3.5 w-32" />
        </div>
      ) : value === null ? (
        <p className="py-2 text-sm text-muted-foreground">{NO_DATA}</p>
      ) : (
        <>
          <div data-slot="stat-value" className="truncate text-2xl font-semibold tabular-nums">
            {value}
          </div>
          {caption && <p className="mt-1 text-xs text-muted-foreground">{caption}</p>}
        </>
      )}
    </Card>
  );
}

/**
 * The four stat cards (spec §2, D14): Server Status with uptime, Active SSE Connections, OAuth
 * Clients with live grants, API Requests/hour with the 429s among them. A figure the server could
 * not measure (null while its database is down) or stats that failed to load read "No data available".
 */
export function StatCards({ stats, loading }: { stats: StatsDto | null | undefined; loading: boolean }) {
  const s = stats ?? null;
  const figure = <T,>(pick: (s: StatsDto) => T | null): T | null => (s ? pick(s) : null);

  const sse = figure((x) => x.activeSSEConnections);
  const clients = figure((x) => x.totalOAuthClients);
  const sessions = figure((x) => x.activeOAuthSessions);
  const requests = figure((x) => x.apiRequestsPerHour);
  const limited = figure((x) => x.rateLimitHits);
  const running = s?.serverStatus === SERVER_RUNNING;

  return (
    <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      <StatCard
        title="Server Status"
        icon={Server}
        loading={loading}
        value={
          s && (
            <span className="flex items-center gap-2">
              <StatusDot tone={running ? "success" : "destructive"} className="size-2.5" />
              <span className={cn("truncate", !running && "text-destructive")}>{s.serverStatus}</span>
            </span>
          )
        }
        caption={s && `Uptime: ${formatUptime(s.uptime)}`}
      />
      <StatCard
        title="Active SSE Connections"
        icon={Radio}
        loading={loading}
        value={sse === null ? null : formatNumber(sse)}
        caption={sse === null ? undefined : sse > 0 ? "Active connections" : "No active connections"}
      />
      <StatCard
        title="OAuth Clients"
        icon={KeyRound}
        loading={loading}
        value={clients === null ? null : formatNumber(clients)}
        caption={sessions === null ? `Active sessions: ${NO_DATA.toLowerCase()}` : plural(sessions, "active session")}
      />
      <StatCard
        title="API Requests/hour"
        icon={Activity}
        loading={loading}
        value={requests === null ? null : formatNumber(requests)}
        caption={
          limited === null ? undefined : limited > 0 ? (
            <span className="font-medium text-destructive">{plural(limited, "rate limit")} hit</span>
          ) : (
            "No rate limits hit"
          )
        }
      />
    </div>
  );
}
