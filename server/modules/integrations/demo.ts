import { z } from "zod";
import type { IntegrationConfigService } from "./integration-config.service";

const SYSTEM = { userId: null, username: "demo-mode", ip: null };

/** The sandbox's `GET /__sandbox/accounts`: the accounts it serves. */
const SandboxAccountsSchema = z.object({
  atlassian: z.object({ email: z.string(), apiToken: z.string() }),
  bitbucket: z.object({ workspace: z.string(), username: z.string(), appPassword: z.string() }),
  dataCenter: z.object({ jiraUrl: z.string(), confluenceUrl: z.string(), bitbucketUrl: z.string(), personalAccessToken: z.string() }),
});

/** The project a Bitbucket Data Center repository named without one is in, in the demo. */
const DEMO_DC_PROJECT = "PLAT";

/** The demo script starts the sandbox first; a sandbox still starting gets this long to answer. */
const SANDBOX_WAIT_MS = 15_000;

async function sandboxAccounts(sandboxUrl: string): Promise<z.infer<typeof SandboxAccountsSchema>> {
  const url = new URL("/__sandbox/accounts", sandboxUrl);
  const deadline = Date.now() + SANDBOX_WAIT_MS;
  for (;;) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      if (!res.ok) throw new Error(`the sandbox at ${sandboxUrl} answered ${res.status} for its accounts`);
      return SandboxAccountsSchema.parse(await res.json());
    } catch (err) {
      if (Date.now() > deadline)
        throw new Error(`DEMO_SANDBOX_URL: the sandbox at ${sandboxUrl} did not say which accounts it serves`, { cause: err });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/**
 * `npm run demo`: points both integrations at the sandbox with its accounts, so a newcomer sees
 * live data without an Atlassian account. The sandbox names its accounts itself (the server's code
 * imports nothing of sandbox/, which is not part of the server's build). Bitbucket's API URL comes
 * from BITBUCKET_API_URL, which the demo script sets to the sandbox too.
 */
export async function configureDemo(
  integrations: IntegrationConfigService,
  sandboxUrl: string,
  flavour: "cloud" | "datacenter" = "cloud",
): Promise<void> {
  const { atlassian, bitbucket, dataCenter } = await sandboxAccounts(sandboxUrl);
  if (flavour === "datacenter") {
    // DEMO_FLAVOUR=datacenter: the sandbox's Data Center flavour, each product under its context path, with a personal access token.
    await integrations.saveAtlassian(
      {
        deployment: "datacenter",
        instanceUrl: dataCenter.jiraUrl,
        confluenceUrl: dataCenter.confluenceUrl,
        authMethod: "token",
        apiToken: dataCenter.personalAccessToken,
        confluenceToken: dataCenter.personalAccessToken,
        isActive: true,
      },
      SYSTEM,
    );
    await integrations.saveBitbucket(
      {
        deployment: "datacenter",
        baseUrl: dataCenter.bitbucketUrl,
        workspace: DEMO_DC_PROJECT,
        authMethod: "token",
        appPassword: dataCenter.personalAccessToken,
        isActive: true,
      },
      SYSTEM,
    );
    return;
  }
  await integrations.saveAtlassian(
    { instanceUrl: sandboxUrl, email: atlassian.email, apiToken: atlassian.apiToken, isActive: true },
    SYSTEM,
  );
  await integrations.saveBitbucket(
    { workspace: bitbucket.workspace, username: bitbucket.username, appPassword: bitbucket.appPassword, isActive: true },
    SYSTEM,
  );
}
