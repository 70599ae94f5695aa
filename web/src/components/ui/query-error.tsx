import { CircleAlert, RotateCw } from "lucide-react";
import { ApiError } from "@/api/client";
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
  const { reason, details } = explain(error);
  return (
    <div
      role="alert"
      className={cn("flex flex-col items-start gap-3 rounded-md border border-destructive/30 bg-destructive/5 p-4 text-sm", className)}
    >
      <div className="flex items-start gap-2 text-destructive">
        <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <div className="space-y-0.5">
          {title && <p className="font-medium">{title}</p>}
          <p className={title ? "text-destructive/90" : undefined}>{reason}</p>
          {details && (
            <details className="pt-1 text-xs text-muted-foreground">
              <summary className="cursor-pointer select-none">Details</summary>
              <pre className="mt-1 max-h-48 max-w-full overflow-auto whitespace-pre-wrap break-all rounded bg-muted p-2 font-mono">
                {details}
              </pre>
            </details>
          )}
        </div>
      </div>
      <Button variant="outline" size="sm" onClick={onRetry} disabled={retrying} aria-busy={retrying || undefined}>
        <RotateCw aria-hidden="true" className={retrying ? "animate-spin" : undefined} />
        {retrying ? "Retrying..." : "Retry"}
      </Button>
    </div>
  );
}

/**
 * The server's own sentence when it sent one; otherwise what happened in words (never a raw body).
 * Whatever the server answered goes under Details, as it came, for whoever needs it.
 */
export function explain(error: ApiError | Error): { reason: string; details: string | null } {
  if (!(error instanceof ApiError)) return { reason: error.message, details: null };
  const details = error.body === undefined ? null : JSON.stringify(error.body, null, 2);
  if (error.serverMessage) return { reason: error.serverMessage, details };
  if (error.status === 0) return { reason: error.message, details: null };
  return { reason: `The server answered ${error.status}${error.statusText ? ` ${error.statusText}` : ""}.`, details };
}
