import type { LucideIcon } from "lucide-react";
import { useId, type ReactNode } from "react";
import { Card } from "@/components/ui/card";
import { cn } from "@/lib/utils";

export interface DashboardCardProps {
  title: string;
  description?: ReactNode;
  icon?: LucideIcon;
  /** Shown at the right of the title instead of the icon (a link, a small button). */
  action?: ReactNode;
  /** Its data is loading: announced as busy (aria-busy) while the skeleton shows. */
  busy?: boolean;
  className?: string;
  children: ReactNode;
}

/** One of the dashboard's cards: a named region (its title), so each is found and read as a whole. */
export function DashboardCard({ title, description, icon: Icon, action, busy = false, className, children }: DashboardCardProps) {
  const id = useId();
  return (
    <Card role="region" aria-labelledby={id} aria-busy={busy} className={cn("flex min-w-0 flex-col", className)}>
      <div className="flex items-start justify-between gap-4 p-6 pb-4">
        <div className="min-w-0 flex-1 space-y-1.5">
          <h2 id={id} className="text-base font-semibold leading-none">
            {title}
          </h2>
          {description && <p className="text-sm text-muted-foreground">{description}</p>}
        </div>
        {action ?? (Icon && <Icon className="size-5 shrink-0 text-muted-foreground" aria-hidden="true" />)}
      </div>
      <div className="flex-1 px-6 pb-6">{children}</div>
    </Card>
  );
}
