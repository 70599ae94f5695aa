import { DEFAULT_CREDENTIALS } from "../../../sandbox/credentials";
import type { IntegrationConfigService } from "./integration-config.service";

const SYSTEM = { userId: null, username: "demo-mode", ip: null };

/**
 * `npm run demo`: points both integrations at the sandbox with its accounts, so a newcomer sees
 * live data without an Atlassian account. Bitbucket's API URL comes from BITBUCKET_API_URL, which
 * the demo script sets to the sandbox too.
 */
export async function configureDemo(integrations: IntegrationConfigService, sandboxUrl: string): Promise<void> {
  const { atlassian, bitbucket } = DEFAULT_CREDENTIALS;
  await integrations.saveAtlassian({ instanceUrl: sandboxUrl, email: atlassian.email, apiToken: atlassian.apiToken, isActive: true }, SYSTEM);
  await integrations.saveBitbucket({ workspace: bitbucket.workspace, username: bitbucket.username, appPassword: bitbucket.appPassword, isActive: true }, SYSTEM);
}
