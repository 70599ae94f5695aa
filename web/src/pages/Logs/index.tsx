import { ScrollText } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";

/** Request Logs (Logs). The screen's body arrives with a later release; until then it says so plainly. */
export default function LogsPage() {
  return (
    <div className="space-y-6">
      <PageHeader title="Request Logs" description="Every request to the MCP, OAuth, proxy and admin endpoints" />
      <EmptyState
        icon={ScrollText}
        title="This screen arrives with a later release."
        description="It will list logged requests with filters, success and error rates, response times and a CSV export."
      />
    </div>
  );
}
