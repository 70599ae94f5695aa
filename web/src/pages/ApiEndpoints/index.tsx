import { Network } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";

/** API Endpoints (ApiEndpoints). The screen's body arrives with a later release; until then it says so plainly. */
export default function ApiEndpointsPage() {
  return (
    <div className="space-y-6">
      <PageHeader title="API Endpoints" description="The endpoints this server exposes, with their health and measured response times" />
      <EmptyState
        icon={Network}
        title="This screen arrives with a later release."
        description="It will list the MCP, SSE, OAuth, proxy and admin endpoints with live health checks and examples of how to call them."
      />
    </div>
  );
}
