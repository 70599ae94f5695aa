import type { LucideIcon } from "lucide-react";
import { useId, type ReactNode } from "react";
import { Card } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { cn } from "@/lib/utils";

export interface StatCardProps {
  title: string;
  icon: LucideIcon;
  /** The figure; null shows the spec's "No data available". */
  value: ReactNode | null;
  /** The line under the figure. */
  caption?: ReactNode;
  /** More below the caption (a short list), shown with the figure. */
  footer?: ReactNode;
  /** Colours the figure for a status (UI.md: status colours only for status, with the words beside). */
  tone?: "default" | "success" | "warning" | "destructive";
  loading?: boolean;
  className?: string;
}

/** Spec section 2: what a card reads when it has no figure. */
export const NO_DATA = "No data available";

const TONES = { default: "", success: "text-success", warning: "text-warning", destructive: "text-destructive" } as const;

/** A figure card of the observability screens: title and icon, a large tabular number, a caption. */
export function StatCard({ title, icon: Icon, value, caption, footer, tone = "default", loading = false, className }: StatCardProps) {
  const id = useId();
  return (
    <Card role="region" aria-labelledby={id} aria-busy={loading} className={cn("min-w-0 p-6", className)}>
      <div className="flex items-center justify-between gap-3">
        <h2 id={id} className="text-sm font-medium text-muted-foreground">
          {title}
        </h2>
        <Icon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      </div>
      {loading ? (
        <div className="mt-3 space-y-2">
          <Skeleton className="h-7 w-20" />
          <Skeleton className="h-3.5 w-32" />
        </div>
      ) : value === null ? (
        <p className="mt-3 text-sm text-muted-foreground">{NO_DATA}</p>
      ) : (
        <>
          <div
            data-slot="stat-value"
            data-tone={tone}
            className={cn("mt-2 truncate text-2xl font-semibold tabular-nums tracking-tight", TONES[tone])}
          >
            {value}
          </div>
          {caption && <p className="mt-1 text-xs text-muted-foreground">{caption}</p>}
          {footer}
        </>
      )}
    </Card>
  );
}
