import { Router } from "express";
import type { Clock } from "../../lib/clock";
import { publicAccess } from "../middleware/access";

export interface HealthDeps {
  version: string;
  startedAt: Date;
  clock: Clock;
  pingDatabase: () => Promise<void>;
  /** True while the process drains before it stops (server/main.ts). */
  draining?: () => boolean;
}

/**
 * Public, cheap, and honest: 503 when the database does not answer (docs/decisions.md#health-endpoint)
 * or the process drains before it stops, which is what a load balancer and a readiness probe ask. `/live` asks only whether this process
 * answers HTTP (a liveness probe: restarting every instance because their database is away would
 * help nothing).
 */
export function healthRoutes(deps: HealthDeps): Router {
  const router = Router();
  const uptimeOf = () => Math.floor((deps.clock.now().getTime() - deps.startedAt.getTime()) / 1000);
  router.get("/mcp/health/live", publicAccess, (_req, res) => {
    res.set("Cache-Control", "no-store").json({ status: "ok", version: deps.version, uptime: uptimeOf() });
  });
  router.get("/mcp/health", publicAccess, async (_req, res) => {
    const uptime = uptimeOf();
    let database: "ok" | "unavailable" = "ok";
    try {
      await deps.pingDatabase();
    } catch {
      database = "unavailable";
    }
    const status = deps.draining?.() ? "draining" : database === "ok" ? "ok" : "degraded";
    res
      .status(status === "ok" ? 200 : 503)
      .set("Cache-Control", "no-store")
      .json({ status, version: deps.version, uptime, database });
  });
  return router;
}
