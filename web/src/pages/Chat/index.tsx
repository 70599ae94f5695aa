import { MessagesSquare } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";

/** AI Chat Assistant (Chat). The screen's body arrives with a later release; until then it says so plainly. */
export default function ChatPage() {
  return (
    <div className="space-y-6">
      <PageHeader title="AI Chat Assistant" description="Enterprise data-enabled conversations" />
      <EmptyState
        icon={MessagesSquare}
        title="This screen arrives with a later release."
        description="It will let you ask questions about your Jira issues, Confluence pages and Bitbucket repositories through a configured AI provider."
      />
    </div>
  );
}
