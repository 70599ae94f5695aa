import { z } from "zod";

/** A long-lived stream as the SSE Connections screen shows it (spec §3, plus kind, user and end time). */
export interface SseConnectionDto {
  id: string;
  connectionId: string;
  clientId: string;
  isActive: boolean;
  createdAt: string;
  lastHeartbeat: string;
  clientInfo: { userAgent: string | null; ipAddress: string | null };
  /** `sse-stream` (/api/sse/stream), `legacy-sse` (/sse) or `listen` (subscriptions/listen on /mcp). */
  kind: string;
  userId: string | null;
  closedAt: string | null;
}

export const ConnectionIdParamSchema = z.object({
  connectionId: z.string().regex(/^[0-9a-f-]{36}$/i, "connectionId must be a connection id such as 0f8e…-…"),
});
