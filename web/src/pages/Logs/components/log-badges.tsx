import { CircleAlert, CircleCheck } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/utils";
import { isSuccessStatus, statusBadgeVariant } from "../lib/status";

/** A check for success (status below 400), an alert for an error; the word is there for screen readers. */
export function StatusIcon({ statusCode, className }: { statusCode: number; className?: string }) {
  const ok = isSuccessStatus(statusCode);
  const Icon = ok ? CircleCheck : CircleAlert;
  return (
    <span className={cn("inline-flex", ok ? "text-success" : "text-destructive", className)} title={ok ? "Success" : "Error"}>
      <Icon className="size-4" aria-hidden="true" />
      <span className="sr-only">{ok ? "Success" : "Error"}</span>
    </span>
  );
}

export function MethodBadge({ method }: { method: string }) {
  return (
    <Badge variant="outline" className="font-mono text-[11px] tracking-wide">
      {method}
    </Badge>
  );
}

/** Spec section 9's list bands: under 300 default, under 400 secondary, else destructive. */
export function StatusCodeBadge({ statusCode }: { statusCode: number }) {
  return (
    <Badge variant={statusBadgeVariant(statusCode)} className="font-mono tabular-nums">
      {statusCode}
    </Badge>
  );
}
