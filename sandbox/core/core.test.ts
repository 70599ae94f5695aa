import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../server";

/** What every imitated service shares: authentication, each service's 401, the control API. */
describe("sandbox core", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(() => sandbox.close());

  const get = (path: string, authorization?: string) => fetch(`${sandbox.url}${path}`, { headers: authorization ? { authorization } : {} });
  const PATHS = { jira: "/rest/api/3/myself", confluence: "/wiki/rest/api/user/current", bitbucket: "/2.0/user" } as const;

  it("accepts a bearer token on every service, as the clouds do", async () => {
    for (const path of Object.values(PATHS)) expect((await get(path, "Bearer sandbox-bearer-token")).status).toBe(200);
  });

  it("answers a wrong or missing credential with 401 in each service's own error shape", async () => {
    const jira = await get(PATHS.jira, "Bearer nope");
    expect(jira.status).toBe(401);
    expect(await jira.json()).toMatchObject({ errorMessages: [expect.any(String)], errors: {} });
    const confluence = await get(PATHS.confluence);
    expect(confluence.status).toBe(401);
    expect(await confluence.json()).toMatchObject({ statusCode: 401, message: expect.any(String) });
    // Bitbucket's app password does not open Jira; a wrong one does not open Bitbucket.
    expect((await get(PATHS.jira, `Basic ${Buffer.from("demo:sandbox-app-password").toString("base64")}`)).status).toBe(401);
    const bitbucket = await get(PATHS.bitbucket, `Basic ${Buffer.from("demo:wrong-app-password").toString("base64")}`);
    expect(bitbucket.status).toBe(401);
    expect(bitbucket.headers.get("www-authenticate")).toMatch(/^Basic/);
    expect(await bitbucket.json()).toMatchObject({ type: "error", error: { message: expect.any(String) } });
  });

  it("Bitbucket takes an app password, or the Atlassian email and API token that replaced app passwords in 2026", async () => {
    expect((await get(PATHS.bitbucket, `Basic ${Buffer.from("demo:sandbox-app-password").toString("base64")}`)).status).toBe(200);
    expect((await get(PATHS.bitbucket, `Basic ${Buffer.from("Demo@Bridgekeeper.test:sandbox-api-token").toString("base64")}`)).status).toBe(
      200,
    );
    expect((await get(PATHS.bitbucket, `Basic ${Buffer.from("demo@bridgekeeper.test:not-the-token").toString("base64")}`)).status).toBe(
      401,
    );
  });

  it("sets faults over HTTP (validated), applies them a given number of times, and clears them", async () => {
    const bad = await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ path: "/2.0/user", status: 200 }),
    });
    expect(bad.status).toBe(400);
    const ok = await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ path: "/2.0/user", status: 503, times: 1 }),
    });
    expect(ok.status).toBe(201);
    const auth = "Bearer sandbox-bearer-token";
    expect((await get(PATHS.bitbucket, auth)).status).toBe(503);
    expect((await get(PATHS.bitbucket, auth)).status).toBe(200);
    await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ path: "^/rest/", status: 429, retryAfter: 7 }),
    });
    const limited = await get(PATHS.jira, auth);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("7");
    expect((await fetch(`${sandbox.url}/__sandbox/faults`, { method: "DELETE" })).status).toBe(204);
    expect((await get(PATHS.jira, auth)).status).toBe(200);
  });

  it("reset restores the seeded data and forgets the request record", async () => {
    const auth = "Bearer sandbox-bearer-token";
    const created = await fetch(`${sandbox.url}/rest/api/3/issue/BK-1/comment`, {
      method: "POST",
      headers: { authorization: auth, "content-type": "application/json" },
      body: JSON.stringify({
        body: { type: "doc", version: 1, content: [{ type: "paragraph", content: [{ type: "text", text: "hello" }] }] },
      }),
    });
    expect(created.status).toBe(201);
    const count = async () => ((await (await get("/rest/api/3/issue/BK-1/comment", auth)).json()) as { total: number }).total;
    const withComment = await count();
    expect((await fetch(`${sandbox.url}/__sandbox/reset`, { method: "POST" })).status).toBe(204);
    expect(await count()).toBe(withComment - 1);
    expect(sandbox.requests()).toHaveLength(1);
  });

  it("who the account is and what it sees (a connection check's calls) agree with the data each service holds", async () => {
    const auth = `Basic ${Buffer.from("demo@bridgekeeper.test:sandbox-api-token").toString("base64")}`;
    const body = async (path: string) => (await (await get(path, auth)).json()) as Record<string, any>;
    const jira = sandbox.state("jira");
    const me = jira.usersById.get(jira.users[0]!.accountId)!;
    expect(await body("/rest/api/3/myself")).toMatchObject({
      accountId: me.accountId,
      displayName: me.displayName,
      emailAddress: me.emailAddress,
    });
    // Jira Cloud's project/search: a one-item page still carries the total.
    expect(await body("/rest/api/3/project/search?maxResults=1")).toMatchObject({
      startAt: 0,
      maxResults: 1,
      total: jira.projects.length,
      isLast: jira.projects.length <= 1,
    });

    // Confluence v2 spaces have no total: counted page by page, following _links.next.
    let seen = 0;
    for (let next: string | undefined = "/wiki/api/v2/spaces?limit=1"; next;) {
      const page = await body(next);
      seen += (page.results as unknown[]).length;
      next = page._links.next;
    }
    expect(seen).toBe(sandbox.state("confluence").spaces.length);

    const bitbucket = sandbox.state("bitbucket");
    expect(await body("/2.0/user")).toMatchObject({
      display_name: bitbucket.me.displayName,
      uuid: bitbucket.me.uuid,
      account_id: bitbucket.me.accountId,
      nickname: bitbucket.me.nickname,
    });
    const repos = await body(`/2.0/repositories/${bitbucket.workspace.slug}?pagelen=1&fields=size`);
    expect(repos).toMatchObject({ size: bitbucket.repos.length });
  });
});
