import { CardListSkeleton } from "@/components/ui/card-list-skeleton";
import { Skeleton } from "@/components/ui/skeleton";

const ROW = "grid gap-1.5 sm:grid-cols-[7.5rem_minmax(0,1fr)] sm:items-center sm:gap-4";

/** Spec section 9: three skeleton cards, shaped like the client cards, while the list loads. */
export function ClientsSkeleton() {
  return (
    <CardListSkeleton
      label="Loading OAuth clients"
      gridClassName="xl:grid-cols-2"
      subtitleClassName="h-3.5 w-48"
      rows={
        <>
          {Array.from({ length: 2 }, (_, row) => (
            <div key={row} className={ROW}>
              <Skeleton className="h-3.5 w-20" />
              <Skeleton className="h-9 w-full" />
            </div>
          ))}
          <div className={ROW}>
            <Skeleton className="h-3.5 w-24" />
            <Skeleton className="h-3.5 w-3/4" />
          </div>
          <div className={ROW}>
            <Skeleton className="h-3.5 w-16" />
            <div className="flex gap-1">
              <Skeleton className="h-5 w-12" />
              <Skeleton className="h-5 w-12" />
            </div>
          </div>
        </>
      }
    />
  );
}
