import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../../sandbox/server";
import { ensureFirstAdmin } from "../users/first-admin";
import { configureDemo } from "../integrations/demo";
import { startTestApp, type TestApp } from "../../test/test-app";
import { sandboxOAuth } from "./accounts.test-kit";
import { configureDemoPeople } from "./demo";

/** `npm run demo` (DEMO_PEOPLE): two console users linked to two sandbox people who see different things. */
describe("demo people", () => {
  let sandbox: Sandbox;
  let t: TestApp;
  beforeAll(async () => {
    sandbox = await startSandbox();
    t = await startTestApp({ config: { BITBUCKET_API_URL: `${sandbox.url}/2.0`, ...sandboxOAuth(sandbox) } });
  });
  afterAll(async () => {
    await t.close();
    await sandbox.close();
  });

  it("links two people and the administrator; each sees their own projects and repositories; a second run changes nothing", async () => {
    await configureDemo(t.container.services.integrations, sandbox.url);
    await ensureFirstAdmin({ ...t.container.repos, log: t.container.log, adminPassword: "demo-admin-password", print: () => undefined });
    const printed: string[] = [];
    const deps = {
      repos: t.container.repos,
      identity: t.container.services.identitySettings,
      links: t.container.services.accountLinks,
      print: (text: string) => void printed.push(text),
    };
    await configureDemoPeople(deps, sandbox.url);
    expect(printed.join("")).toContain("priya.raman, marcus.chen");

    const targets = t.container.upstream.targets;
    const projectsOf = async (username: string) => {
      const user = (await t.container.repos.usersRepo.findByUsername(username))!;
      const keys: string[] = [];
      for await (const project of targets.clientsFor({ userId: user.id }).jira.projects()) keys.push(project.key);
      return keys.sort();
    };
    const [priya, marcus, admin] = [await projectsOf("priya.raman"), await projectsOf("marcus.chen"), await projectsOf("admin")];
    expect(priya).toEqual(sandbox.credentials.people[0]!.jiraProjects.slice().sort());
    expect(marcus).toEqual(sandbox.credentials.people[1]!.jiraProjects.slice().sort());
    expect(admin.length).toBeGreaterThan(priya.length);

    const priyaId = (await t.container.repos.usersRepo.findByUsername("priya.raman"))!.id;
    const slugs: string[] = [];
    for await (const repo of targets.clientsFor({ userId: priyaId }).bitbucket.repositories(sandbox.credentials.bitbucket.workspace))
      slugs.push(repo.slug);
    expect(slugs.sort()).toEqual(sandbox.credentials.people[0]!.bitbucketRepos.slice().sort());

    printed.length = 0;
    await configureDemoPeople(deps, sandbox.url);
    expect(printed).toEqual([]);
    expect(await t.container.repos.accountsRepo.linksOfUser(priyaId)).toHaveLength(2);
  });
});
