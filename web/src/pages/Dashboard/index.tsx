import { useState } from "react";
import { SERVER_RUNNING } from "@contract/stats";
import { queryClient } from "@/api/query-client";
import { useAtlassianStatus, useBitbucketStatus, useStats, useTraffic } from "@/api/stats";
import { ConnectAiClient } from "@/components/connect/connect-ai-client";
import { NoPermission } from "@/components/ui/no-permission";
import { PageHeader } from "@/components/ui/page-header";
import { QueryError } from "@/components/ui/query-error";
import { useCan } from "@/hooks/use-permission";
import { prefetchDashboard, useRecentActivity } from "./api";
import { EndpointsCard } from "./components/endpoints-card";
import { GetStarted } from "./components/get-started";
import { AtlassianCard, BitbucketCard } from "./components/integration-cards";
import { RecentActivity } from "./components/recent-activity";
import { StatCards } from "./components/stat-cards";
import { TrafficCard } from "./components/traffic-card";
import { serviceSignal, type HealthSignals } from "./lib/status";

// The data is asked for when this module loads, not when React first shows the page (see prefetchDashboard).
prefetchDashboard(queryClient);

/**
 * Server Dashboard (spec §2, §3, §7, §9; docs/decisions.md#measured-numbers, #view-documentation).
 * Every figure is measured by the server and polled at the spec's interval (stats and traffic 30 s,
 * integration status 60 s, recent activity 30 s). Each card stands on its own: a failing request
 * shows that card's unavailable state or Retry, never a blank page. Without stats.read (or
 * logs.read) the parts that need it say so instead of asking for a 403.
 */
export default function DashboardPage() {
  const canStats = useCan("stats.read");
  const canLogs = useCan("logs.read");
  const stats = useStats({ enabled: canStats });
  const atlassian = useAtlassianStatus({ enabled: canStats });
  const bitbucket = useBitbucketStatus({ enabled: canStats });
  const traffic = useTraffic({ enabled: canStats });
  const activity = useRecentActivity({ enabled: canLogs });
  const [refreshing, setRefreshing] = useState(false);

  const canRefresh = canStats || canLogs;
  const refresh = async () => {
    setRefreshing(true);
    try {
      const queries = [...(canStats ? [stats, atlassian, bitbucket, traffic] : []), ...(canLogs ? [activity] : [])];
      await Promise.all(queries.map((q) => q.refetch()));
    } finally {
      setRefreshing(false);
    }
  };

  // Spec §2: "Healthy" only when the server says exactly "Running". The latest answer counts: a
  // failed poll after a good one is unhealthy and shows no stale figures; no answer yet (or no
  // permission to ask) shows no badge.
  const latestStats = stats.error ? null : stats.data;
  const serverRunning = stats.error ? false : latestStats ? latestStats.serverStatus === SERVER_RUNNING : undefined;
  const signals: HealthSignals = {
    serverRunning,
    jira: serviceSignal(atlassian.data, (s) => s.jiraConnected),
    confluence: serviceSignal(atlassian.data, (s) => s.confluenceConnected),
    bitbucket: serviceSignal(bitbucket.data, (s) => s.connected),
  };

  return (
    <div className="space-y-6">
      <PageHeader
        title="Server Dashboard"
        description="Monitor and manage your MCP Atlassian integration"
        healthy={serverRunning}
        onRefresh={canRefresh ? () => void refresh() : undefined}
        refreshing={refreshing}
      />

      <GetStarted />

      {canStats ? (
        <>
          {stats.error && (
            <QueryError
              title="The server's statistics could not be loaded."
              error={stats.error}
              onRetry={() => void stats.refetch()}
              retrying={stats.isFetching}
            />
          )}
          <StatCards stats={latestStats} loading={stats.isPending} />
          <div className="grid gap-4 lg:grid-cols-2">
            <AtlassianCard query={atlassian} />
            <BitbucketCard query={bitbucket} />
          </div>
          <TrafficCard query={traffic} />
        </>
      ) : (
        <NoPermission what="the server's statistics and integration status" />
      )}

      <div className="grid gap-4 xl:grid-cols-5">
        <div className="min-w-0 xl:col-span-3">
          {canLogs ? <RecentActivity query={activity} /> : <NoPermission what="recent activity" />}
        </div>
        <div className="min-w-0 xl:col-span-2">
          {/* The list and its documentation are for everyone; without stats.read each dot reads "Unknown". */}
          <EndpointsCard signals={signals} />
          <ConnectAiClient className="mt-4" />
        </div>
      </div>
    </div>
  );
}
