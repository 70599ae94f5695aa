import { KeyRound } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";

/** OAuth Clients (OAuthClients). The screen's body arrives with a later release; until then it says so plainly. */
export default function OAuthClientsPage() {
  return (
    <div className="space-y-6">
      <PageHeader title="OAuth Clients" description="Manage OAuth 2.0 clients for MCP server access" />
      <EmptyState
        icon={KeyRound}
        title="This screen arrives with a later release."
        description="It will list the OAuth clients allowed to call the MCP server, with their IDs, secrets, redirect URIs and scopes."
      />
    </div>
  );
}
