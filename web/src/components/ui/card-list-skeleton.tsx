import type { ReactNode } from "react";
import { Card } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { cn } from "@/lib/utils";

/**
 * Three cards shaped like a page's cards while its list loads (UI.md, spec section 9): a name with
 * its status badge, a line under it and an action button, then the card's own `rows`.
 */
export function CardListSkeleton({
  label,
  gridClassName,
  subtitleClassName,
  rows,
}: {
  label: string;
  gridClassName: string;
  subtitleClassName: string;
  rows: ReactNode;
}) {
  return (
    <div className={cn("grid gap-4", gridClassName)} role="status" aria-label={label}>
      {Array.from({ length: 3 }, (_, i) => (
        <Card key={i} data-skeleton-card="" aria-hidden="true" className="flex flex-col gap-4 p-5 sm:p-6">
          <div className="flex items-start justify-between gap-3">
            <div className="space-y-2">
              <div className="flex items-center gap-2">
                <Skeleton className="h-5 w-40" />
                <Skeleton className="h-5 w-14 rounded-md" />
              </div>
              <Skeleton className={subtitleClassName} />
            </div>
            <Skeleton className="size-8" />
          </div>
          {rows}
        </Card>
      ))}
    </div>
  );
}
