import { Router } from "express";
import { LogQuerySchema } from "../../../contract/logs";
import type { RequestLogService } from "../../modules/request-log/request-log.service";
import { can } from "../middleware/access";
import { parseInput } from "../validate";

/** Request Logs screen (spec §7): newest first, bounded, with the screen's filters. */
export function logsRoutes(deps: { requestLog: RequestLogService }): Router {
  const router = Router();
  router.get("/admin/logs", can("logs.read"), async (req, res) => {
    res.json(await deps.requestLog.list(parseInput(LogQuerySchema, req.query)));
  });
  return router;
}
