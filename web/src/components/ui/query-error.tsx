import { CircleAlert, RotateCw } from "lucide-react";
import type { ApiError } from "@/api/client";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";

export interface QueryErrorProps {
  error: ApiError | Error;
  /** Asks again (a query's refetch). */
  onRetry: () => void;
  retrying: boolean;
  /** What could not be loaded, before the server's reason: "The request log could not be loaded." */
  title?: string;
  className?: string;
}

/**
 * Something could not be loaded: say what and why, and offer Retry. The screen around it keeps
 * working; this is never a blank page (server down, a 500, a network error).
 */
export function QueryError({ error, onRetry, retrying, title, className }: QueryErrorProps) {
  const reason = "serverMessage" in error && error.serverMessage ? error.serverMessage : error.message;
  return (
    <div role="alert" className={cn("flex flex-col items-start gap-3 rounded-md border border-destructive/30 bg-destructive/5 p-4 text-sm", className)}>
      <div className="flex items-start gap-2 text-destructive">
        <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <div className="space-y-0.5">
          {title && <p className="font-medium">{title}</p>}
          <p className={title ? "text-destructive/90" : undefined}>{reason}</p>
        </div>
      </div>
      <Button variant="outline" size="sm" onClick={onRetry} disabled={retrying} aria-busy={retrying || undefined}>
        <RotateCw aria-hidden="true" className={retrying ? "animate-spin" : undefined} />
        {retrying ? "Retrying..." : "Retry"}
      </Button>
    </div>
  );
}
