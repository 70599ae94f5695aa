import { Router, type RequestHandler } from "express";
import { toEndpointStatDto, toStatsDto, toTrafficMinuteDto } from "../../modules/stats/stats.presenter";
import type { StatsService } from "../../modules/stats/stats.service";
import { can } from "../middleware/access";

/** The dashboard's figures and the API Endpoints screen's medians (spec §3 Stats, docs/decisions.md#measured-numbers): modules/stats measures them. */
export function statsRoutes(deps: { stats: StatsService; startedAt: Date }): Router {
  const router = Router();
  const stats: RequestHandler = async (_req, res) => {
    res.json(toStatsDto(await deps.stats.figures(deps.startedAt)));
  };
  router.get("/stats", can("stats.read"), stats);
  router.get("/admin/stats", can("stats.read"), stats);
  router.get("/admin/endpoint-stats", can("stats.read"), async (_req, res) => {
    res.json((await deps.stats.endpoints()).map(toEndpointStatDto));
  });
  router.get("/admin/stats/traffic", can("stats.read"), async (_req, res) => {
    res.json((await deps.stats.traffic()).map(toTrafficMinuteDto));
  });
  return router;
}
