import { Router } from "express";
import { AppError } from "../../lib/app-error";
import type { SetupService } from "../../modules/setup/setup.service";
import { can } from "../middleware/access";

/** The Dashboard's "Get started" (issue 25), for those who may configure the server. */
export function setupRoutes(deps: { setup: SetupService }): Router {
  const router = Router();
  router.get("/setup-status", can("config.write"), async (req, res) => {
    const user = req.session?.user;
    if (!user) throw new AppError("unauthenticated", "Sign in to continue");
    res.json(await deps.setup.status(user));
  });
  return router;
}
