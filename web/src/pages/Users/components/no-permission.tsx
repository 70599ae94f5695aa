import { Lock } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";

/** What a user without the read permission sees instead of a list the server would refuse. */
export function NoPermission({ message }: { message: string }) {
  return <EmptyState icon={Lock} title={message} description="Ask an administrator for a role that grants it." />;
}
