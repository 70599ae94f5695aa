import { Router } from "express";
import { ToolCallQuerySchema } from "../../../contract/tool-calls";
import { toToolCallDto } from "../../modules/tool-calls/tool-calls.presenter";
import type { ToolCallsService } from "../../modules/tool-calls/tool-calls.service";
import { can } from "../middleware/access";
import { parseInput } from "../validate";

/** The tool-call audit (issue 11 item 5): who had which tool do what, newest first; administrators only (audit.read). */
export function toolCallsRoutes(deps: { toolCalls: ToolCallsService }): Router {
  const router = Router();
  router.get("/admin/tool-calls", can("audit.read"), async (req, res) => {
    const { rows, nextCursor } = await deps.toolCalls.list(parseInput(ToolCallQuerySchema, req.query));
    res.json({ items: rows.map(toToolCallDto), nextCursor });
  });
  return router;
}
