import { Users } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";

/** User Management (Users). The screen's body arrives with a later release; until then it says so plainly. */
export default function UsersPage() {
  return (
    <div className="space-y-6">
      <PageHeader title="User Management" description="Manage who can sign in to the console and which roles they hold" />
      <EmptyState
        icon={Users}
        title="This screen arrives with a later release."
        description="It will list console users with their roles, status and last login, and let you create, edit, deactivate and delete them."
      />
    </div>
  );
}
