import { Lock } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";

/** What a user without oauth-clients.read sees instead of a list the server would refuse. */
export function NoPermission() {
  return (
    <EmptyState
      icon={Lock}
      title="You do not have permission to view OAuth clients."
      description="Ask an administrator for a role that grants it."
    />
  );
}
