// @pglite-only: sandbox
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../server";
import { DEFAULT_PEOPLE } from "./people";
import { basic, bearer, caller, REDIRECT } from "./testkit";

/**
 * The API gateway (`/ex/jira/{cloudId}/…`, `/ex/confluence/{cloudId}/…`): a 3LO access token
 * opens exactly what the site path opens for that person, and nothing else: not the site paths, not
 * another cloud id, not the sandbox's site when the grant was for another one.
 */

let sandbox: Sandbox;
const { call, control } = caller(() => sandbox);
const [priya, marcus] = DEFAULT_PEOPLE as [(typeof DEFAULT_PEOPLE)[0], (typeof DEFAULT_PEOPLE)[0]];
const APP = { client_id: "sandbox-atlassian-client-id", client_secret: "sandbox-atlassian-client-secret" };
let jira: string;
let wiki: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  jira = `/ex/jira/${sandbox.credentials.cloudId}`;
  wiki = `/ex/confluence/${sandbox.credentials.cloudId}`;
});
afterAll(() => sandbox.close());

/** An access token for `accountId`, granted for `cloudId` (the sandbox's site by default). */
async function accessToken(accountId: string, cloudId?: string): Promise<string> {
  const { body } = await control("/__sandbox/oauth/codes", {
    service: "atlassian",
    accountId,
    redirectUri: REDIRECT,
    scope: "read:jira-work",
    cloudId,
  });
  const res = await call("/oauth/token", { body: { ...APP, grant_type: "authorization_code", code: body.code, redirect_uri: REDIRECT } });
  expect(res.status).toBe(200);
  return res.body.access_token;
}

describe("the API gateway", () => {
  it("serves a person's Jira and Confluence exactly as the site path does for their API token", async () => {
    const token = bearer(await accessToken(priya.accountId));
    const site = basic(priya.email, priya.apiToken);
    for (const path of [
      "/rest/api/3/myself",
      `/rest/api/3/search/jql?jql=${encodeURIComponent("project in (BK, OPS, WEB) ORDER BY key")}&fields=key,summary&maxResults=100`,
      "/rest/api/3/project",
    ]) {
      const viaGateway = await call(`${jira}${path}`, { auth: token });
      expect(viaGateway.status, path).toBe(200);
      expect(viaGateway.body, path).toEqual((await call(path, { auth: site })).body);
    }
    expect((await call(`${jira}/rest/api/3/issue/OPS-1`, { auth: token })).status).toBe(404);
    for (const path of [
      `/wiki/rest/api/search?cql=${encodeURIComponent("type = page order by title")}&limit=50`,
      "/wiki/api/v2/spaces",
      "/wiki/rest/api/user/current",
    ]) {
      const viaGateway = await call(`${wiki}${path}`, { auth: token });
      expect(viaGateway.status, path).toBe(200);
      expect(viaGateway.body, path).toEqual((await call(path, { auth: site })).body);
    }
    expect((await call(`${jira}/rest/api/3/myself`, { auth: token })).body.accountId).toBe(priya.accountId);
  });

  it("attributes what is written through it to the person", async () => {
    const token = bearer(await accessToken(marcus.accountId));
    const body = {
      body: { type: "doc", version: 1, content: [{ type: "paragraph", content: [{ type: "text", text: "via the gateway" }] }] },
    };
    const comment = await call(`${jira}/rest/api/3/issue/OPS-3/comment`, { auth: token, body });
    expect(comment.status).toBe(201);
    expect(comment.body.author.accountId).toBe(marcus.accountId);
    expect((await call(`${jira}/rest/api/3/issue/BK-3/comment`, { auth: token, body })).status).toBe(404);
  });

  it("a 3LO token opens no site path and no Bitbucket; Basic credentials open no gateway path", async () => {
    const token = bearer(await accessToken(priya.accountId));
    expect((await call("/rest/api/3/myself", { auth: token })).status).toBe(401);
    expect((await call("/wiki/rest/api/user/current", { auth: token })).status).toBe(401);
    expect((await call("/2.0/user", { auth: token })).status).toBe(401);
    expect((await call(`${jira}/rest/api/3/myself`, { auth: basic(priya.email, priya.apiToken) })).status).toBe(401);
    expect((await call(`${jira}/rest/api/3/myself`, { auth: bearer("sandbox-bearer-token") })).status).toBe(401);
    const none = await call(`${jira}/rest/api/3/myself`);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  it("refuses another cloud id (404) and a grant for another site (401)", async () => {
    const token = bearer(await accessToken(priya.accountId));
    expect((await call("/ex/jira/11111111-2222-4333-8444-555555555555/rest/api/3/myself", { auth: token })).status).toBe(404);
    expect((await call(`/ex/jira/${sandbox.credentials.otherSite.cloudId}/rest/api/3/myself`, { auth: token })).status).toBe(404);

    const elsewhere = bearer(await accessToken(priya.accountId, sandbox.credentials.otherSite.cloudId));
    const sites = await call("/oauth/token/accessible-resources", { auth: elsewhere });
    expect(sites.body).toEqual([
      expect.objectContaining({ id: sandbox.credentials.otherSite.cloudId, url: "https://other-team.atlassian.net", name: "other-team" }),
    ]);
    expect((await call(`${jira}/rest/api/3/myself`, { auth: elsewhere })).status).toBe(401);
    expect((await call(`${wiki}/wiki/rest/api/user/current`, { auth: elsewhere })).status).toBe(401);
  });

  it("answers a product's path it does not serve with 404, and a grant as Demo Admin sees everything", async () => {
    const token = bearer(await accessToken(sandbox.credentials.atlassian.accountId));
    expect((await call(`${jira}/wiki/rest/api/user/current`, { auth: token })).status).toBe(404);
    expect((await call(`${wiki}/rest/api/3/myself`, { auth: token })).status).toBe(404);
    const projects = await call(`${jira}/rest/api/3/project`, { auth: token });
    expect(projects.body.map((p: any) => p.key)).toEqual(["BK", "OPS", "WEB"]);
  });

  it("records gateway requests as sent, and applies a site path's faults on the gateway too", async () => {
    const token = bearer(await accessToken(priya.accountId));
    sandbox.clearRequests();
    await call(`${jira}/rest/api/3/myself`, { auth: token });
    expect(sandbox.requests().map((r) => r.path)).toEqual([`${jira}/rest/api/3/myself`]);
    await control("/__sandbox/faults", { path: "/rest/api/3/myself", status: 503, times: 1 });
    expect((await call(`${jira}/rest/api/3/myself`, { auth: token })).status).toBe(503);
    expect((await call(`${jira}/rest/api/3/myself`, { auth: token })).status).toBe(200);
  });
});
