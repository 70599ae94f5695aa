import type { McpCall, TokenUsage } from "@contract/chat";
import { formatNumber, plural } from "@/lib/format";

/**
 * Spec §2: an assistant message's badge per tool call, "tool: N results", word for word (also for
 * one result: the spec's texts are requirements as written); a failed call shows its sentence.
 */
export function toolBadgeText(call: Pick<McpCall, "tool" | "results" | "error">): string {
  if (call.error) return `${call.tool}: ${call.error}`;
  return `${call.tool}: ${formatNumber(call.results)} results`;
}

/** A reply's token usage, small and muted under the answer; null when the provider reported none. */
export function usageText(usage: TokenUsage | null): string | null {
  if (!usage || (usage.inputTokens === null && usage.outputTokens === null)) return null;
  const parts: string[] = [];
  if (usage.inputTokens !== null) parts.push(`${formatNumber(usage.inputTokens)} in`);
  if (usage.outputTokens !== null) parts.push(`${formatNumber(usage.outputTokens)} out`);
  return `Tokens: ${parts.join(" · ")}`;
}

/** The data-sources badge: "3 data sources", "1 data source". */
export const sourcesBadgeText = (count: number): string => plural(count, "data source");
