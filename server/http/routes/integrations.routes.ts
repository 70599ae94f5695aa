import { Router } from "express";
import { AtlassianConfigInputSchema, BitbucketConfigInputSchema } from "../../../contract/integrations";
import type { IntegrationStatusService } from "../../modules/integrations/integration-status.service";
import type { IntegrationConfigService } from "../../modules/integrations/integration-config.service";
import { toAtlassianConfigDto, toBitbucketConfigDto } from "../../modules/integrations/integrations.presenter";
import { serverSettings, type SettingsConfig } from "../../modules/integrations/settings";
import { actorOf } from "../actor";
import { can } from "../middleware/access";
import { parseInput } from "../validate";

/** Configuration screen and status cards (spec section 7): stored configs, tests, status, server settings. */
export function integrationsRoutes(deps: {
  integrations: IntegrationConfigService;
  status: IntegrationStatusService;
  settings: SettingsConfig;
}): Router {
  const { integrations, status } = deps;
  const router = Router();

  router.get("/admin/atlassian-config", can("config.read"), async (_req, res) => {
    res.json(toAtlassianConfigDto(await integrations.getAtlassian()));
  });
  router.post("/admin/atlassian-config", can("config.write"), async (req, res) => {
    res.json(toAtlassianConfigDto(await integrations.saveAtlassian(parseInput(AtlassianConfigInputSchema, req.body), actorOf(req))));
  });
  router.get("/admin/bitbucket-config", can("config.read"), async (_req, res) => {
    res.json(toBitbucketConfigDto(await integrations.getBitbucket(), integrations.bitbucketApiUrl));
  });
  router.post("/admin/bitbucket-config", can("config.write"), async (req, res) => {
    res.json(
      toBitbucketConfigDto(
        await integrations.saveBitbucket(parseInput(BitbucketConfigInputSchema, req.body), actorOf(req)),
        integrations.bitbucketApiUrl,
      ),
    );
  });

  // Tests make real upstream calls with the stored credentials: for those who may change them.
  router.post("/admin/test-atlassian", can("config.write"), async (req, res) => {
    res.json(await status.testAtlassian(actorOf(req)));
  });
  router.post("/admin/test-bitbucket", can("config.write"), async (req, res) => {
    res.json(await status.testBitbucket(actorOf(req)));
  });

  // The dashboard's and the admin pages' names for the same figures (spec section 7).
  const atlassianStatus = async (_req: unknown, res: { json(body: unknown): void }) => res.json(await status.atlassianStatus());
  router.get("/atlassian-status", can("stats.read"), atlassianStatus);
  router.get("/admin/atlassian-status", can("stats.read"), atlassianStatus);
  router.get("/bitbucket-status", can("stats.read"), async (_req, res) => {
    res.json(await status.bitbucketStatus());
  });

  const settings = serverSettings(deps.settings);
  router.get("/admin/config", can("config.read"), (_req, res) => {
    res.json(settings);
  });

  return router;
}
