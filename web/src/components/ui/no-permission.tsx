import { Lock } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";

/** What a user without a read permission sees instead of data the server would refuse. */
export function NoPermission({ what }: { what: string }) {
  return (
    <EmptyState
      icon={Lock}
      title={`You do not have permission to view ${what}.`}
      description="Ask an administrator for a role that grants it."
    />
  );
}
