import { Router } from "express";
import { ConnectionIdParamSchema } from "../../../contract/connections";
import type { ConnectionsService } from "../../modules/connections/connections.service";
import { actorOf } from "../actor";
import { can } from "../middleware/access";
import { parseInput } from "../validate";

/** SSE Connections screen (spec §7): the registry, and ending a live connection (beyond the spec). */
export function sseConnectionsRoutes(deps: { connections: ConnectionsService }): Router {
  const router = Router();
  router.get("/admin/sse-connections", can("sse-connections.read"), async (_req, res) => {
    res.json(await deps.connections.list());
  });
  router.delete("/admin/sse-connections/:connectionId", can("sse-connections.write"), async (req, res) => {
    const { connectionId } = parseInput(ConnectionIdParamSchema, req.params);
    await deps.connections.terminate(connectionId, actorOf(req));
    res.status(204).end();
  });
  return router;
}
