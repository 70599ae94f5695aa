import { Router } from "express";
import { AiProviderCreateSchema, AiProviderUpdateSchema } from "../../../contract/ai-providers";
import { toAiProviderDto } from "../../modules/ai-providers/ai-providers.presenter";
import type { AiProvidersService } from "../../modules/ai-providers/ai-providers.service";
import { actorOf } from "../actor";
import { can } from "../middleware/access";
import { uuidParam } from "../params";
import { parseInput } from "../validate";

/** AI Providers screen (spec §7), and beyond the spec the Test action. */
export function aiProvidersRoutes(deps: { aiProviders: AiProvidersService }): Router {
  const { aiProviders } = deps;
  const router = Router();

  router.get("/ai-providers", can("ai-providers.read"), async (_req, res) => {
    res.json((await aiProviders.list()).map(toAiProviderDto));
  });

  router.post("/ai-providers", can("ai-providers.write"), async (req, res) => {
    res.status(201).json(toAiProviderDto(await aiProviders.create(parseInput(AiProviderCreateSchema, req.body), actorOf(req))));
  });

  router.patch("/ai-providers/:id", can("ai-providers.write"), async (req, res) => {
    const id = uuidParam(req.params.id, "AI provider");
    res.json(toAiProviderDto(await aiProviders.update(id, parseInput(AiProviderUpdateSchema, req.body), actorOf(req))));
  });

  router.delete("/ai-providers/:id", can("ai-providers.write"), async (req, res) => {
    await aiProviders.delete(uuidParam(req.params.id, "AI provider"), actorOf(req));
    res.status(204).end();
  });

  // A one-token call with the stored key: its answer or the provider's reason, never a 500.
  router.post("/ai-providers/:id/test", can("ai-providers.write"), async (req, res) => {
    res.json(await aiProviders.test(uuidParam(req.params.id, "AI provider"), actorOf(req)));
  });

  return router;
}
