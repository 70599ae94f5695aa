import type { SseConnectionDto } from "@contract/connections";

/** The three cards (spec section 2): active ones, all of them, and distinct client ids. */
export function connectionCounts(list: readonly SseConnectionDto[]): { active: number; total: number; uniqueClients: number } {
  return {
    active: list.filter((c) => c.isActive).length,
    total: list.length,
    uniqueClients: new Set(list.map((c) => c.clientId)).size,
  };
}

/** What kind of stream a row is, in words. */
export const KIND_LABELS: Record<string, string> = {
  "sse-stream": "Event stream",
  "legacy-sse": "Legacy SSE",
  listen: "MCP listen",
};

export const kindLabel = (kind: string): string => KIND_LABELS[kind] ?? kind;

/** Live ones first, then the most recent heartbeat first. */
export const byLiveThenRecent = (a: SseConnectionDto, b: SseConnectionDto): number =>
  Number(b.isActive) - Number(a.isActive) || b.lastHeartbeat.localeCompare(a.lastHeartbeat);

/** "Unknown" for a missing IP or user agent (spec section 2). */
export const orUnknown = (value: string | null | undefined): string => (value && value.trim() ? value : "Unknown");
