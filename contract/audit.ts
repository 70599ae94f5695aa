import { z } from "zod";
import { line } from "./text";

/** A date PostgreSQL can compare with: years 1970 to 9999. */
const auditDate = (name: string) =>
  z.coerce
    .date({ error: `${name} must be a date` })
    .refine((d) => d.getUTCFullYear() >= 1970 && d.getUTCFullYear() <= 9999, `${name} must be between 1970 and 9999`)
    .optional();

/** GET /api/admin/audit filters. */
export const AuditQuerySchema = z.object({
  action: line().max(64).optional(),
  actorId: z.uuid("actorId must be a user id").optional(),
  targetType: line().max(32).optional(),
  targetId: line().max(64).optional(),
  from: auditDate("from"),
  to: auditDate("to"),
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
