import { createHash, timingSafeEqual } from "node:crypto";
import { Router, type RequestHandler } from "express";
import type { Metrics } from "../../lib/metrics";
import type { AuthService } from "../../modules/auth/auth.service";
import { can } from "../middleware/access";
import { loadSession } from "../middleware/session";

const digest = (text: string) => createHash("sha256").update(text).digest();

/**
 * GET /metrics (Prometheus text format): for a scraper with `Authorization: Bearer $METRICS_TOKEN`,
 * or for a console session with stats.read; anyone else gets the console's 401/403.
 */
export function metricsRoutes(deps: { metrics: Metrics; token: string | undefined; auth: AuthService }): Router {
  const router = Router();
  const expected = deps.token === undefined ? null : digest(deps.token);
  const send: RequestHandler = async (_req, res) => {
    res.set({ "Content-Type": deps.metrics.contentType, "Cache-Control": "no-store" }).send(await deps.metrics.render());
  };
  const scraper: RequestHandler = (req, res, next) => {
    const [type, presented] = (req.headers.authorization ?? "").split(" ");
    // Digests of equal length compare in constant time, whatever was presented.
    if (expected && type?.toLowerCase() === "bearer" && presented && timingSafeEqual(digest(presented), expected))
      return void send(req, res, next);
    next();
  };
  router.get("/metrics", scraper, loadSession(deps.auth), can("stats.read"), send);
  return router;
}
