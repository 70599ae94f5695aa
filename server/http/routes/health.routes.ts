import { Router } from "express";
import type { Clock } from "../../lib/clock";
import { publicAccess } from "../middleware/access";

export interface HealthDeps {
  version: string;
  startedAt: Date;
  clock: Clock;
  pingDatabase: () => Promise<void>;
}

/** Public, cheap, and honest: 503 when the database does not answer (docs/decisions.md#health-endpoint). */
export function healthRoutes(deps: HealthDeps): Router {
  const router = Router();
  router.get("/mcp/health", publicAccess, async (_req, res) => {
    const uptime = Math.floor((deps.clock.now().getTime() - deps.startedAt.getTime()) / 1000);
    let database: "ok" | "unavailable" = "ok";
    try {
      await deps.pingDatabase();
    } catch {
      database = "unavailable";
    }
    const status = database === "ok" ? "ok" : "degraded";
    res
      .status(status === "ok" ? 200 : 503)
      .set("Cache-Control", "no-store")
      .json({ status, version: deps.version, uptime, database });
  });
  return router;
}
