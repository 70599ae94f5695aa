import { z } from "zod";
import { line } from "./text";

/** GET /api/admin/audit filters. */
export const AuditQuerySchema = z.object({
  action: line().max(64).optional(),
  actorId: z.uuid("actorId must be a user id").optional(),
  targetType: line().max(32).optional(),
  targetId: line().max(64).optional(),
  from: z.coerce.date({ error: "from must be a date" }).optional(),
  to: z.coerce.date({ error: "to must be a date" }).optional(),
  /** The `nextCursor` of the previous page. */
  cursor: line().max(200).optional(),
  limit: z.coerce.number().int().min(1, "limit must be between 1 and 500").max(500, "limit must be between 1 and 500").default(100),
});

export interface AuditEventDto {
  id: string;
  at: string;
  actorUserId: string | null;
  actorUsername: string | null;
  action: string;
  outcome: string;
  targetType: string | null;
  targetId: string | null;
  ipAddress: string | null;
  details: Record<string, unknown> | null;
}
