import { Router } from "express";
import { AuditQuerySchema, type AuditEventDto } from "../../../contract/audit";
import type { AuditService } from "../../modules/audit/audit.service";
import { can } from "../middleware/access";
import { parseInput } from "../validate";

export function auditRoutes(deps: { audit: AuditService }): Router {
  const router = Router();

  /** Newest first; page with `before` = the last event's `at` (returned as `nextBefore`). */
  router.get("/admin/audit", can("audit.read"), async (req, res) => {
    const q = parseInput(AuditQuerySchema, req.query);
    const rows = await deps.audit.list({
      action: q.action,
      actorUserId: q.actorId,
      targetType: q.targetType,
      targetId: q.targetId,
      from: q.from,
      to: q.to,
      before: q.before,
      limit: q.limit,
    });
    const events: AuditEventDto[] = rows.map((e) => ({ ...e, at: e.at.toISOString() }));
    res.json({ events, nextBefore: rows.length === q.limit ? events.at(-1)!.at : null });
  });

  return router;
}
