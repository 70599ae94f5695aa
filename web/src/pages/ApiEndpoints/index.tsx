import { CircleCheck, Server, TriangleAlert } from "lucide-react";
import { SERVER_RUNNING } from "@contract/stats";
import { useAtlassianStatus, useBitbucketStatus, useEndpointStats, useStats } from "@/api/stats";
import { NoPermission } from "@/components/ui/no-permission";
import { PageHeader } from "@/components/ui/page-header";
import { QueryError } from "@/components/ui/query-error";
import { StatCard } from "@/components/ui/stat-card";
import { useCan } from "@/hooks/use-permission";
import { formatNumber } from "@/lib/format";
import { useMcpConnection } from "@/api/connect";
import { ConnectAiClient } from "@/components/connect/connect-ai-client";
import { CodeExample } from "./components/code-example";
import { EndpointList } from "./components/endpoint-list";
import { examples, healthCounts } from "./lib/endpoints";

/**
 * API Endpoints (spec section 2; docs/decisions.md#measured-numbers, #view-documentation): what
 * this server exposes, each with a health dot from real checks and its measured median response
 * time over the last hour (a dash when none), how to call it, and how to point an MCP client at it.
 */
export default function ApiEndpointsPage() {
  const canRead = useCan("stats.read");
  const stats = useStats({ admin: true, enabled: canRead });
  const atlassian = useAtlassianStatus({ admin: true, enabled: canRead });
  const bitbucket = useBitbucketStatus({ enabled: canRead });
  const endpointStats = useEndpointStats({ enabled: canRead });

  const health = { stats: stats.data, atlassian: atlassian.data, bitbucket: bitbucket.data };
  const counts = healthCounts(health);
  const loading = canRead && (stats.isPending || atlassian.isPending || bitbucket.isPending);
  // The examples name the server as clients must: its public URL (the page's own address until that is known).
  const connection = useMcpConnection();
  const code = examples(connection.data?.publicUrl ?? window.location.origin);
  const refresh = () => void Promise.all([stats.refetch(), atlassian.refetch(), bitbucket.refetch(), endpointStats.refetch()]);
  const refreshing = [stats, atlassian, bitbucket, endpointStats].some((q) => q.isFetching && !q.isPending);

  return (
    <div className="space-y-6">
      <PageHeader
        title="API Endpoints"
        description="The endpoints this server exposes, with their health and measured response times"
        healthy={canRead && stats.data ? stats.data.serverStatus === SERVER_RUNNING : undefined}
        onRefresh={canRead ? refresh : undefined}
        refreshing={refreshing}
      />

      {!canRead ? (
        <NoPermission what="the API endpoints' health" />
      ) : (
        <>
          <section aria-label="Endpoint health" className="grid gap-4 sm:grid-cols-3">
            <StatCard
              title="Total Endpoints"
              icon={Server}
              loading={loading}
              value={formatNumber(counts.total)}
              caption="Served by this server"
            />
            <StatCard
              title="Healthy"
              icon={CircleCheck}
              loading={loading}
              value={formatNumber(counts.healthy)}
              tone="success"
              caption="Answering as expected"
            />
            <StatCard
              title="Unhealthy"
              icon={TriangleAlert}
              loading={loading}
              value={formatNumber(counts.unhealthy)}
              // Red for a failure; a service only waiting to be set up keeps the spec's caption without the alarm.
              tone={counts.failing > 0 ? "destructive" : "default"}
              caption={counts.unhealthy > 0 ? "Requires attention" : "All endpoints healthy"}
            />
          </section>

          {stats.error && (
            <QueryError
              title="The server's status could not be read."
              error={stats.error}
              onRetry={() => void stats.refetch()}
              retrying={stats.isFetching}
            />
          )}
          {endpointStats.error && (
            <QueryError
              title="The response times could not be loaded."
              error={endpointStats.error}
              onRetry={() => void endpointStats.refetch()}
              retrying={endpointStats.isFetching}
            />
          )}

          <EndpointList
            health={health}
            stats={endpointStats.error ? null : endpointStats.data}
            openStreams={stats.data?.activeSSEConnections}
            loading={endpointStats.isPending}
          />

          <section aria-labelledby="docs-title" className="space-y-4">
            <h2 id="docs-title" className="text-lg font-semibold tracking-tight">
              Documentation
            </h2>
            <ConnectAiClient />
            <div className="grid gap-4">
              <CodeExample
                id="example-protocol"
                title="MCP protocol call"
                description="JSON-RPC 2.0 over HTTP with a bearer token: list the tools."
                code={code.protocol}
                what="Example"
              />
              <CodeExample
                id="example-sse"
                title="SSE connection"
                description="The event stream: connected, heartbeat every 30 seconds, mcp-response, error."
                code={code.sse}
                what="Example"
              />
              <CodeExample
                id="example-token"
                title="OAuth token request"
                description="Exchange an authorization code for an access token (form-encoded; this server requires PKCE, so the code verifier goes with it)."
                code={code.token}
                what="Example"
              />
            </div>
          </section>
        </>
      )}
    </div>
  );
}
