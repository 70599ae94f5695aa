import { Skeleton } from "@/components/ui/skeleton";

/** Shown inside the shell while a page's code loads: a header and a card, like the page itself. */
export function PageSkeleton() {
  return (
    <div role="status" aria-label="Loading..." className="space-y-6">
      <div className="space-y-2">
        <Skeleton className="h-8 w-56" />
        <Skeleton className="h-4 w-80 max-w-full" />
      </div>
      <Skeleton className="h-48 w-full rounded-lg" />
    </div>
  );
}
