import type { SetupStatusDto } from "../../../contract/setup";
import type { UserRow } from "../../db/schema";
import type { AiProvidersService } from "../ai-providers/ai-providers.service";
import type { IntegrationConfigService } from "../integrations/integration-config.service";

export interface SetupDeps {
  integrations: Pick<IntegrationConfigService, "active">;
  aiProviders: Pick<AiProvidersService, "list">;
  /** Unexpired, unrevoked grants: an AI client that has signed in and may still call. */
  liveGrants: () => Promise<number>;
}

/**
 * The Dashboard's "Get started" (issue 25), read from live state on each call: a step ticks
 * itself as soon as it is done, wherever it was done.
 */
export function createSetupService(deps: SetupDeps) {
  return {
    async status(user: Pick<UserRow, "passwordGenerated">): Promise<SetupStatusDto> {
      const [active, providers, grants] = await Promise.all([deps.integrations.active(), deps.aiProviders.list(), deps.liveGrants()]);
      return {
        atlassianConfigured: active.atlassian,
        bitbucketConfigured: active.bitbucket,
        aiClientConnected: grants > 0,
        passwordChanged: !user.passwordGenerated,
        aiProviderAdded: providers.length > 0,
      };
    },
  };
}

export type SetupService = ReturnType<typeof createSetupService>;
