import { Settings } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";

/** Configuration (Configuration). The screen's body arrives with a later release; until then it says so plainly. */
export default function ConfigurationPage() {
  return (
    <div className="space-y-6">
      <PageHeader title="Configuration" description="Atlassian and Bitbucket integrations, server settings, CORS and rate limits" />
      <EmptyState
        icon={Settings}
        title="This screen arrives with a later release."
        description="It will let you connect Jira, Confluence and Bitbucket and show the server settings and rate limits in force."
      />
    </div>
  );
}
