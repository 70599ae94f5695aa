import { LayoutDashboard } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";

/** Server Dashboard (Dashboard). The screen's body arrives with a later release; until then it says so plainly. */
export default function DashboardPage() {
  return (
    <div className="space-y-6">
      <PageHeader title="Server Dashboard" description="Monitor and manage your MCP Atlassian integration" />
      <EmptyState
        icon={LayoutDashboard}
        title="This screen arrives with a later release."
        description="It will show server health and uptime, live SSE connections, OAuth clients, hourly API requests, the Jira, Confluence and Bitbucket integrations and recent activity."
      />
    </div>
  );
}
