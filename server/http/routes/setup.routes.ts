import { Router } from "express";
import type { SetupStatusDto } from "../../../contract/setup";
import type { AiProvidersService } from "../../modules/ai-providers/ai-providers.service";
import type { IntegrationConfigService } from "../../modules/integrations/integration-config.service";
import { AppError } from "../../lib/app-error";
import { can } from "../middleware/access";

export interface SetupDeps {
  integrations: Pick<IntegrationConfigService, "getAtlassian" | "getBitbucket">;
  aiProviders: Pick<AiProvidersService, "list">;
  /** Unexpired, unrevoked grants: an AI client that has signed in and may still call. */
  liveGrants: () => Promise<number>;
}

/**
 * The Dashboard's "Get started" (issue 25), read from live state on each call: a step ticks
 * itself as soon as it is done, wherever it was done. For those who may configure the server.
 */
export function setupRoutes(deps: SetupDeps): Router {
  const router = Router();
  router.get("/setup-status", can("config.write"), async (req, res) => {
    const user = req.session?.user;
    if (!user) throw new AppError("unauthenticated", "Sign in to continue");
    const [atlassian, bitbucket, providers, grants] = await Promise.all([deps.integrations.getAtlassian(), deps.integrations.getBitbucket(), deps.aiProviders.list(), deps.liveGrants()]);
    const body: SetupStatusDto = {
      atlassianConfigured: atlassian?.isActive === true,
      bitbucketConfigured: bitbucket?.isActive === true,
      aiClientConnected: grants > 0,
      passwordChanged: !user.passwordGenerated,
      aiProviderAdded: providers.length > 0,
    };
    res.json(body);
  });
  return router;
}
