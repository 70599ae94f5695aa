import { z } from "zod";

/** `GET /api/admin/tool-calls` filters (issue 11 item 5): newest first, paged by `before`. */
export const ToolCallQuerySchema = z.object({
  limit: z.coerce
    .number({ error: "limit must be a number" })
    .int("limit must be a whole number")
    .min(1, "limit must be at least 1")
    .max(500, "limit may be at most 500")
    .default(100),
  before: z
    .string()
    .regex(/^[\w.-]{1,200}$/, "before must be the nextCursor of a previous page")
    .optional(),
  tool: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,63}$/, "tool must be a tool name such as jira_search")
    .optional(),
  clientId: z.string().min(1).max(300, "clientId may be at most 300 characters").optional(),
  outcome: z.enum(["ok", "error"], { error: "outcome must be ok or error" }).optional(),
});
export type ToolCallQuery = z.infer<typeof ToolCallQuerySchema>;

export interface ToolCallDto {
  id: string;
  at: string;
  clientId: string;
  userId: string | null;
  tool: string;
  /** Redacted: long text is replaced by its length. */
  arguments: Record<string, unknown>;
  outcome: "ok" | "error";
  error: string | null;
  durationMs: number;
  objects: string[];
  requestId: string | null;
  /** Whom the call acted as upstream (issue 27): "shared", or the person's account id; null when it reached nothing. */
  upstreamIdentity: string | null;
}

export interface ToolCallPage {
  items: ToolCallDto[];
  /** Pass as `before` for the next (older) page; null on the last. */
  nextCursor: string | null;
}
