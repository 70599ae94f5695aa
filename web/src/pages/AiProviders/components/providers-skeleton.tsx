import { CardListSkeleton } from "@/components/ui/card-list-skeleton";
import { Skeleton } from "@/components/ui/skeleton";

/** Three cards shaped like the provider cards while the list loads: the API key box, the status switch, the created date. */
export function ProvidersSkeleton() {
  return (
    <CardListSkeleton
      label="Loading AI providers"
      gridClassName="lg:grid-cols-2 2xl:grid-cols-3"
      subtitleClassName="h-4 w-36"
      rows={["h-9 w-full", "h-5 w-20", "h-5 w-28"].map((value) => (
        <div key={value} className="grid grid-cols-[5.5rem_minmax(0,1fr)] items-center gap-3 sm:grid-cols-[6rem_minmax(0,1fr)] sm:gap-4">
          <Skeleton className="h-3.5 w-16" />
          <Skeleton className={value} />
        </div>
      ))}
    />
  );
}
