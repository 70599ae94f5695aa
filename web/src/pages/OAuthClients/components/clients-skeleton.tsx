import { Card } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";

/** Spec section 9: three skeleton cards, shaped like the client cards, while the list loads. */
export function ClientsSkeleton() {
  return (
    <div className="grid gap-4 xl:grid-cols-2" role="status" aria-label="Loading OAuth clients">
      {Array.from({ length: 3 }, (_, i) => (
        <Card key={i} data-skeleton-card="" aria-hidden="true" className="flex flex-col gap-4 p-5 sm:p-6">
          <div className="flex items-start justify-between gap-3">
            <div className="space-y-2">
              <div className="flex items-center gap-2">
                <Skeleton className="h-5 w-40" />
                <Skeleton className="h-5 w-14 rounded-md" />
              </div>
              <Skeleton className="h-3.5 w-48" />
            </div>
            <Skeleton className="size-8" />
          </div>
          {Array.from({ length: 2 }, (_, row) => (
            <div key={row} className="grid gap-1.5 sm:grid-cols-[7.5rem_minmax(0,1fr)] sm:items-center sm:gap-4">
              <Skeleton className="h-3.5 w-20" />
              <Skeleton className="h-9 w-full" />
            </div>
          ))}
          <div className="grid gap-1.5 sm:grid-cols-[7.5rem_minmax(0,1fr)] sm:items-center sm:gap-4">
            <Skeleton className="h-3.5 w-24" />
            <Skeleton className="h-3.5 w-3/4" />
          </div>
          <div className="grid gap-1.5 sm:grid-cols-[7.5rem_minmax(0,1fr)] sm:items-center sm:gap-4">
            <Skeleton className="h-3.5 w-16" />
            <div className="flex gap-1">
              <Skeleton className="h-5 w-12" />
              <Skeleton className="h-5 w-12" />
            </div>
          </div>
        </Card>
      ))}
    </div>
  );
}
