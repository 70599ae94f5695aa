import { Activity, KeyRound, Radio, Server } from "lucide-react";
import { SERVER_RUNNING, type InstanceDto, type StatsDto } from "@contract/stats";
import { NO_DATA, StatCard } from "@/components/ui/stat-card";
import { formatNumber, formatUptime, plural } from "@/lib/format";
import { cn } from "@/lib/utils";
import { StatusDot } from "./status-dot";

/**
 * The four stat cards (spec §2, docs/decisions.md#measured-numbers): Server Status with uptime,
 * Active SSE Connections, OAuth Clients with live grants, API Requests/hour with the 429s among
 * them. A figure the server could not measure (null while its database is down) or stats that
 * failed to load read "No data available". The figures are every instance's together; Server Status
 * lists the instances (issue 29 item 5).
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
        footer={s?.instances && s.instances.length > 0 && <InstanceList instances={s.instances} />}
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

/**
 * The instances serving on the database, each with its version, uptime and open streams; the one
 * that answered is marked. Its id's hostname and pid name it (the random tail is in the tooltip).
 */
function InstanceList({ instances }: { instances: InstanceDto[] }) {
  return (
    <div className="mt-3 border-t pt-3">
      <h3 className="text-xs font-medium text-muted-foreground">{plural(instances.length, "instance")}</h3>
      <ul className="mt-1.5 space-y-1.5" aria-label="Instances">
        {instances.map((i) => (
          <li key={i.id} className="text-xs">
            <div className="flex min-w-0 items-center gap-1.5">
              <span className="truncate font-mono" title={i.id}>
                {i.id.split(":").slice(0, 2).join(":")}
              </span>
              {i.current && <span className="shrink-0 text-muted-foreground">(this one)</span>}
            </div>
            <p className="tabular-nums text-muted-foreground">
              v{i.version} · up {formatUptime(i.uptime)} · {plural(i.openStreams, "stream")}
            </p>
          </li>
        ))}
      </ul>
    </div>
  );
}
