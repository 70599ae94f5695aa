import { Lock } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";

/** What a user without config.read sees instead of settings the server would refuse. */
export function NoPermission() {
  return (
    <EmptyState
      icon={Lock}
      title="You do not have permission to view the configuration."
      description="Ask an administrator for a role that grants it."
    />
  );
}
