import { Router } from "express";
import { AuditQuerySchema } from "../../../contract/audit";
import { toAuditEventDto } from "../../modules/audit/audit.presenter";
import type { AuditService } from "../../modules/audit/audit.service";
import { can } from "../middleware/access";
import { parseInput } from "../validate";

export function auditRoutes(deps: { audit: AuditService }): Router {
  const router = Router();

  /** Newest first; the next page is asked for with `cursor` = this page's `nextCursor`. */
  router.get("/admin/audit", can("audit.read"), async (req, res) => {
    const { rows, nextCursor } = await deps.audit.page(parseInput(AuditQuerySchema, req.query));
    res.json({ events: rows.map(toAuditEventDto), nextCursor });
  });

  return router;
}
