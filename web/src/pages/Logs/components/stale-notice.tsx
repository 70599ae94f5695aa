import { RotateCw, TriangleAlert } from "lucide-react";
import type { ApiError } from "@/api/client";
import { Button } from "@/components/ui/button";

/** The rows and totals shown are from the last answer: a refresh failed. Quiet, with a way to try again. */
export function StaleNotice({ error, onRetry, retrying }: { error: ApiError; onRetry: () => void; retrying: boolean }) {
  return (
    <div
      role="status"
      className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-md border border-warning/30 bg-warning/5 px-4 py-2 text-sm"
    >
      <TriangleAlert className="size-4 shrink-0 text-warning" aria-hidden="true" />
      <p className="min-w-0 flex-1">
        <span className="font-medium">Showing the last loaded data.</span>{" "}
        <span className="text-muted-foreground">Refreshing failed: {error.serverMessage ?? error.message}</span>
      </p>
      <Button variant="ghost" size="sm" onClick={onRetry} disabled={retrying}>
        <RotateCw aria-hidden="true" className={retrying ? "animate-spin" : undefined} />
        Retry
      </Button>
    </div>
  );
}
