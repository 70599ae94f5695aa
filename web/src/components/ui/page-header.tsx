import { CircleCheck, CircleX, RefreshCw } from "lucide-react";
import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";

export interface PageHeaderProps {
  title: string;
  description?: ReactNode;
  /** When a boolean, a "Healthy" / "Unhealthy" badge shows beside the title; omit it to show none. */
  healthy?: boolean;
  /** When given, a Refresh button calls it. */
  onRefresh?: () => void;
  /** The refresh is running: the button reads "Refreshing..." and is disabled. */
  refreshing?: boolean;
  /** Extra actions (buttons) at the right, after the refresh button. */
  actions?: ReactNode;
  className?: string;
}

/** The page title block (UI.md: 24 px semibold title, muted 14 px description). */
export function PageHeader({ title, description, healthy, onRefresh, refreshing = false, actions, className }: PageHeaderProps) {
  return (
    <header className={cn("flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between", className)}>
      <div className="min-w-0 space-y-1">
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
          {healthy !== undefined &&
            (healthy ? (
              <Badge variant="success">
                <CircleCheck aria-hidden="true" />
                Healthy
              </Badge>
            ) : (
              <Badge variant="destructive">
                <CircleX aria-hidden="true" />
                Unhealthy
              </Badge>
            ))}
        </div>
        {description && <p className="text-sm text-muted-foreground">{description}</p>}
      </div>
      {(onRefresh || actions) && (
        <div className="flex shrink-0 flex-wrap items-center gap-2">
          {onRefresh && (
            <Button variant="outline" onClick={onRefresh} disabled={refreshing} aria-busy={refreshing}>
              <RefreshCw aria-hidden="true" className={cn(refreshing && "animate-spin")} />
              {refreshing ? "Refreshing..." : "Refresh"}
            </Button>
          )}
          {actions}
        </div>
      )}
    </header>
  );
}
