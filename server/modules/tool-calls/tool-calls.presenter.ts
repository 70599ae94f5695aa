import type { ToolCallDto } from "../../../contract/tool-calls";
import type { ToolCallRow } from "../../db/schema";

/** A tool-call audit row as the API shows it: the outcome as ok or error, durations to two decimals, the time as ISO. */
export const toToolCallDto = (row: ToolCallRow): ToolCallDto => ({
  id: row.id,
  at: row.at.toISOString(),
  clientId: row.clientId,
  userId: row.userId,
  tool: row.tool,
  arguments: row.arguments,
  outcome: row.outcome === "error" ? "error" : "ok",
  error: row.error,
  durationMs: Math.round(row.durationMs * 100) / 100,
  objects: row.objects,
  requestId: row.requestId,
  upstreamIdentity: row.upstreamIdentity,
});
