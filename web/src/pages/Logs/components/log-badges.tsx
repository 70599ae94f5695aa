import { CircleAlert, CircleCheck, TriangleAlert } from "lucide-react";
import type { McpOutcome } from "@contract/logs";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/utils";
import { isSuccessStatus, statusBadgeVariant } from "../lib/status";

/** How an MCP answer ended, in words (the badge, the filter, the detail panel). */
export const OUTCOME_TEXT: Record<McpOutcome, string> = { ok: "OK", tool_error: "Tool error", rpc_error: "JSON-RPC error" };
const OUTCOME_VARIANT = { ok: "success", tool_error: "warning", rpc_error: "destructive" } as const satisfies Record<McpOutcome, string>;

/**
 * A check for success (status below 400), an alert for an error; the word is there for screen
 * readers. An MCP answer that failed under a status below 400 (a tool error, a JSON-RPC error) is
 * not shown as a success.
 */
export function StatusIcon({
  statusCode,
  outcome = null,
  className,
}: {
  statusCode: number;
  outcome?: McpOutcome | null;
  className?: string;
}) {
  const ok = isSuccessStatus(statusCode);
  const failedAnswer = ok && outcome !== null && outcome !== "ok";
  const Icon = failedAnswer ? TriangleAlert : ok ? CircleCheck : CircleAlert;
  const word = failedAnswer ? OUTCOME_TEXT[outcome] : ok ? "Success" : "Error";
  const tone = failedAnswer ? (outcome === "tool_error" ? "text-warning" : "text-destructive") : ok ? "text-success" : "text-destructive";
  return (
    <span className={cn("inline-flex", tone, className)} title={word}>
      <Icon className="size-4" aria-hidden="true" />
      <span className="sr-only">{word}</span>
    </span>
  );
}

/** An MCP row's outcome as a badge; the error's text on hover (and in the row and the detail panel). */
export function OutcomeBadge({ outcome, error, className }: { outcome: McpOutcome; error?: string | null; className?: string }) {
  return (
    <Badge variant={OUTCOME_VARIANT[outcome]} className={cn("px-1.5 py-0 text-[11px]", className)} title={error ?? undefined}>
      {OUTCOME_TEXT[outcome]}
    </Badge>
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
