import type { AuditEventDto } from "../../../contract/audit";
import type { AuditEventRow } from "../../db/schema";

/** An audit event as the API shows it: every column, the time as ISO. */
export const toAuditEventDto = (e: AuditEventRow): AuditEventDto => ({
  id: e.id,
  at: e.at.toISOString(),
  actorUserId: e.actorUserId,
  actorUsername: e.actorUsername,
  ipAddress: e.ipAddress,
  action: e.action,
  outcome: e.outcome,
  targetType: e.targetType,
  targetId: e.targetId,
  details: e.details,
});
