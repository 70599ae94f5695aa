import { Card } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";

/** Three cards shaped like the provider cards while the list loads (UI.md). */
export function ProvidersSkeleton() {
  return (
    <div className="grid gap-4 lg:grid-cols-2 2xl:grid-cols-3" role="status" aria-label="Loading AI providers">
      {Array.from({ length: 3 }, (_, i) => (
        <Card key={i} data-skeleton-card="" aria-hidden="true" className="flex flex-col gap-4 p-5 sm:p-6">
          <div className="flex items-start justify-between gap-3">
            <div className="space-y-2">
              <div className="flex items-center gap-2">
                <Skeleton className="h-5 w-40" />
                <Skeleton className="h-5 w-14 rounded-md" />
              </div>
              <Skeleton className="h-4 w-36" />
            </div>
            <Skeleton className="size-8" />
          </div>
          {/* The card's rows: the API key box, the status switch, the created date. */}
          {["h-9 w-full", "h-5 w-20", "h-5 w-28"].map((value) => (
            <div key={value} className="grid grid-cols-[5.5rem_minmax(0,1fr)] items-center gap-3 sm:grid-cols-[6rem_minmax(0,1fr)] sm:gap-4">
              <Skeleton className="h-3.5 w-16" />
              <Skeleton className={value} />
            </div>
          ))}
        </Card>
      ))}
    </div>
  );
}
