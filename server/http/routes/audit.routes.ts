import { Router } from "express";
import { AuditQuerySchema } from "../../../contract/audit";
import { toAuditEventDto } from "../../modules/audit/audit.presenter";
import type { AuditService } from "../../modules/audit/audit.service";
import { AppError } from "../../lib/app-error";
import { can } from "../middleware/access";
import { parseInput } from "../validate";

/** An opaque page cursor: the last event's time and id. */
const encodeCursor = (e: { at: Date; id: string }) => Buffer.from(`${e.at.toISOString()}|${e.id}`).toString("base64url");

function decodeCursor(cursor: string): { at: Date; id: string } {
  const [iso, id] = Buffer.from(cursor, "base64url").toString().split("|");
  const at = new Date(iso ?? "");
  if (!id || !/^[0-9a-f-]{36}$/i.test(id) || Number.isNaN(at.getTime())) {
    throw new AppError("validation_failed", "cursor is not valid", { fields: { cursor: "cursor is not valid" } });
  }
  return { at, id };
}

export function auditRoutes(deps: { audit: AuditService }): Router {
  const router = Router();

  /** Newest first; the next page is asked for with `cursor` = this page's `nextCursor`. */
  router.get("/admin/audit", can("audit.read"), async (req, res) => {
    const q = parseInput(AuditQuerySchema, req.query);
    const rows = await deps.audit.list({
      action: q.action,
      actorUserId: q.actorId,
      targetType: q.targetType,
      targetId: q.targetId,
      from: q.from,
      to: q.to,
      after: q.cursor ? decodeCursor(q.cursor) : undefined,
      limit: q.limit,
    });
    const events = rows.map(toAuditEventDto);
    res.json({ events, nextCursor: rows.length === q.limit ? encodeCursor(rows.at(-1)!) : null });
  });

  return router;
}
