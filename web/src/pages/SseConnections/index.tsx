import { Activity, Radio, Users } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import type { SseConnectionDto } from "@contract/connections";
import { useEndConnection, useSseConnections } from "@/api/connections";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { NoPermission } from "@/components/ui/no-permission";
import { PageHeader } from "@/components/ui/page-header";
import { QueryError } from "@/components/ui/query-error";
import { Skeleton } from "@/components/ui/skeleton";
import { StatCard } from "@/components/ui/stat-card";
import { useCan } from "@/hooks/use-permission";
import { formatNumber } from "@/lib/format";
import { ConnectionsTable } from "./components/connections-table";
import { useMcpConnection } from "@/api/connect";
import { StreamInfoCard } from "./components/stream-info-card";
import { byLiveThenRecent, connectionCounts } from "./lib/connections";

/** How often the relative heartbeat times are read again, without asking the server. */
const CLOCK_TICK_MS = 15_000;

function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/**
 * SSE Connections (spec section 2; docs/decisions.md#mcp-transports): the connection registry,
 * polled every 10 s. Reading needs sse-connections.read; ending a live stream (beyond the spec)
 * sse-connections.write.
 */
export default function SseConnectionsPage() {
  const canRead = useCan("sse-connections.read");
  const canEnd = useCan("sse-connections.write");
  const connections = useSseConnections(canRead);
  const end = useEndConnection();
  // The addresses clients are told: the public URL, as everywhere the MCP address is shown.
  const connection = useMcpConnection();
  const now = useNow(CLOCK_TICK_MS);
  const [ending, setEnding] = useState<SseConnectionDto | null>(null);

  const list = useMemo(() => [...(connections.data ?? [])].sort(byLiveThenRecent), [connections.data]);
  const counts = connectionCounts(list);
  const loading = canRead && connections.isPending;
  const failed = connections.isError;

  return (
    <div className="space-y-6">
      <PageHeader
        title="SSE Connections"
        description="Live event-stream connections from MCP clients"
        onRefresh={canRead ? () => void connections.refetch() : undefined}
        refreshing={connections.isFetching && !connections.isPending}
      />

      {!canRead ? (
        <NoPermission what="SSE connections" />
      ) : (
        <>
          <section aria-label="Connection figures" className="grid gap-4 sm:grid-cols-3">
            <StatCard
              title="Active Connections"
              icon={Radio}
              loading={loading}
              value={failed ? null : formatNumber(counts.active)}
              tone={counts.active > 0 ? "success" : "default"}
              caption="Streams open now"
            />
            <StatCard
              title="Total Connections"
              icon={Activity}
              loading={loading}
              value={failed ? null : formatNumber(counts.total)}
              caption="Open and recently ended"
            />
            <StatCard
              title="Unique Clients"
              icon={Users}
              loading={loading}
              value={failed ? null : formatNumber(counts.uniqueClients)}
              caption="Distinct OAuth client ids"
            />
          </section>

          {loading ? (
            <div role="status" aria-label="Loading SSE connections" className="space-y-2 rounded-lg border border-border bg-card p-4">
              {Array.from({ length: 4 }, (_, i) => (
                <Skeleton key={i} className="h-10 w-full" />
              ))}
            </div>
          ) : connections.error ? (
            <QueryError
              title="The SSE connections could not be loaded."
              error={connections.error}
              onRetry={() => void connections.refetch()}
              retrying={connections.isFetching}
            />
          ) : list.length === 0 ? (
            <EmptyState
              icon={Radio}
              title="No SSE connections"
              description="Streams appear here when MCP clients connect to the event stream or listen for tool changes."
            />
          ) : (
            <ConnectionsTable connections={list} now={now} onEnd={canEnd ? setEnding : undefined} />
          )}

          <StreamInfoCard origin={connection.data?.publicUrl ?? window.location.origin} />
        </>
      )}

      {canEnd && (
        <ConfirmDialog
          open={ending !== null}
          onOpenChange={(open) => !open && setEnding(null)}
          title="End this connection?"
          description={
            ending ? (
              <>
                The stream <span className="font-mono">{ending.connectionId}</span> of <span className="font-mono">{ending.clientId}</span>{" "}
                closes at once with an error event. The client may connect again.
              </>
            ) : null
          }
          confirmLabel="End connection"
          pendingLabel="Ending..."
          busy={end.isPending}
          onConfirm={() => ending && end.mutate(ending, { onSettled: () => setEnding(null) })}
        />
      )}
    </div>
  );
}
