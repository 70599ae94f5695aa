import { Radio } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";

/** SSE Connections (SseConnections). The screen's body arrives with a later release; until then it says so plainly. */
export default function SseConnectionsPage() {
  return (
    <div className="space-y-6">
      <PageHeader title="SSE Connections" description="Live event-stream connections from MCP clients" />
      <EmptyState
        icon={Radio}
        title="This screen arrives with a later release."
        description="It will list open and recent event streams with their client, address, user agent and last heartbeat."
      />
    </div>
  );
}
