import { z } from "zod";
import { INTEGRATIONS } from "../../../contract/accounts";
import { hashPassword } from "../../lib/passwords";
import type { Repos } from "../../repos";
import type { AccountLinksService } from "./account-links.service";
import type { IdentitySettings } from "./identity-settings.service";

const SYSTEM = { userId: null, username: "demo-mode", ip: null };
const DEMO_PASSWORD = "demo-password";

/** What the sandbox says about its OAuth app, consumer and people (`GET /__sandbox/accounts`). */
const SandboxPeopleSchema = z.object({
  atlassian: z.object({ email: z.string(), apiToken: z.string() }),
  atlassianApp: z.object({ clientId: z.string(), clientSecret: z.string() }),
  bitbucketConsumer: z.object({ key: z.string(), secret: z.string() }),
  people: z.array(z.object({ displayName: z.string(), email: z.string(), apiToken: z.string(), nickname: z.string() })).min(2),
  dataCenter: z.object({
    oauthClients: z.record(z.enum(["jira", "confluence", "bitbucket"]), z.object({ clientId: z.string(), clientSecret: z.string() })),
    personalAccessToken: z.string(),
    people: z.array(z.object({ username: z.string(), personalAccessToken: z.string() })),
  }),
});

/**
 * `npm run demo` (DEMO_PEOPLE): both integrations act as each person's own account, with the
 * sandbox's OAuth app and consumer (so "Connect with Atlassian" works from My accounts), and two
 * console users are linked to two sandbox people who see different projects, spaces and
 * repositories. The administrator is linked to the sandbox's service account, which sees all.
 * Linking uses each person's API token through the same path a person's own link takes; run again
 * on the same data, it changes nothing that is already there.
 */
export async function configureDemoPeople(
  deps: { repos: Repos; identity: IdentitySettings; links: AccountLinksService; print: (text: string) => void },
  sandboxUrl: string,
): Promise<void> {
  const res = await fetch(new URL("/__sandbox/accounts", sandboxUrl), { signal: AbortSignal.timeout(5_000) });
  const sandbox = SandboxPeopleSchema.parse(await res.json());
  const dc = sandbox.dataCenter.oauthClients;
  const appOf = (app: { clientId: string; clientSecret: string }) => ({ oauthClientId: app.clientId, oauthClientSecret: app.clientSecret });
  const apps = {
    cloud: {
      atlassian: appOf(sandbox.atlassianApp),
      bitbucket: appOf({ clientId: sandbox.bitbucketConsumer.key, clientSecret: sandbox.bitbucketConsumer.secret }),
    },
    // Data Center: each server's incoming application link (Jira's and Confluence's apart).
    datacenter: {
      atlassian: {
        ...appOf(dc.jira),
        confluenceOauthClientId: dc.confluence.clientId,
        confluenceOauthClientSecret: dc.confluence.clientSecret,
      },
      bitbucket: appOf(dc.bitbucket),
    },
  };
  for (const integration of INTEGRATIONS)
    await deps.identity.save(
      integration,
      {
        mode: "per-person",
        allowMachineClients: true,
        allowApiTokens: true,
        ...apps[await deps.links.deploymentOf(integration)][integration],
      },
      SYSTEM,
    );

  const operator = await deps.repos.rolesRepo.findByName("operator");
  // On the Data Center flavour (DEMO_FLAVOUR=datacenter) each links their personal access token(s) instead.
  const patOf = (nickname: string) => sandbox.dataCenter.people.find((p) => p.username === nickname)?.personalAccessToken ?? "";
  const people = [
    ...sandbox.people.slice(0, 2).map((p) => ({ username: p.email.split("@")[0]!, ...p, pat: patOf(p.nickname) })),
    {
      username: "admin",
      displayName: "Demo Admin",
      email: sandbox.atlassian.email,
      apiToken: sandbox.atlassian.apiToken,
      pat: sandbox.dataCenter.personalAccessToken,
    },
  ];
  const made: string[] = [];
  for (const person of people) {
    let user = await deps.repos.usersRepo.findByUsername(person.username);
    if (!user) {
      const [firstName, ...rest] = person.displayName.split(" ");
      user = await deps.repos.usersRepo.insertIfUsernameFree({
        username: person.username,
        email: person.email,
        firstName: firstName ?? null,
        lastName: rest.join(" ") || null,
        passwordHash: await hashPassword(DEMO_PASSWORD),
        passwordGenerated: false,
        isActive: true,
      });
      if (!user) continue;
      if (operator) await deps.repos.userRolesRepo.addRole(user.id, operator.id);
      made.push(person.username);
    }
    for (const integration of INTEGRATIONS) {
      if (await deps.repos.accountsRepo.findLink(user.id, integration)) continue;
      const dc = (await deps.links.mine(user.id)).integrations.find((i) => i.integration === integration)?.deployment === "datacenter";
      await deps.links.linkApiToken(
        user.id,
        integration,
        dc ? { apiToken: person.pat, confluenceToken: person.pat } : { email: person.email, apiToken: person.apiToken },
        SYSTEM,
      );
    }
  }
  if (made.length > 0)
    deps.print(
      `\n  Demo people (each sees their own projects, spaces and repositories): ${made.join(", ")}, password "${DEMO_PASSWORD}"\n`,
    );
}
