import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AccountLinkDto, MyAccountsDto } from "../../../contract/accounts";
import type { ToolCallPage } from "../../../contract/tool-calls";
import { mcpClient, startMcpRig, type McpRig } from "../../mcp/mcp.test-rig";
import { setPolicy } from "../../mcp/tools/tool-test-kit";
import { obtainTokens } from "../../oauth/oauth.adversarial.helpers";
import { signedInAs } from "../../test/factories";
import type { TestClient } from "../../test/http-client";

/**
 * Acting as the person on Data Center (issue 28 item 7): a person links their own personal access
 * tokens (Jira's and Confluence's, each its own server, and Bitbucket's), each confirmed by its
 * server before anything is stored, and the tools answer with what that person may see.
 */
let rig: McpRig;
let alice: Awaited<ReturnType<typeof signedInAs>>;
let bruno: Awaited<ReturnType<typeof signedInAs>>;
const people = () => rig.sandbox.credentials.people;
const person = (nickname: string) => people().find((p) => p.nickname === nickname)!;

const tokenOf = async (who: TestClient) => (await obtainTokens({ ...rig, user: who }, rig.client, { scope: "read write" })).access_token;
const linksOf = async (who: TestClient) => (await who.get<MyAccountsDto>("/api/account/links")).body.integrations;

beforeAll(async () => {
  rig = await startMcpRig({}, { flavour: "datacenter" });
  await setPolicy(rig, rig.client.clientId);
  for (const integration of ["atlassian", "bitbucket"] as const) {
    const res = await rig.admin.put(`/api/admin/identity/${integration}`, { mode: "per-person", allowApiTokens: true });
    if (res.status !== 200) throw new Error(`identity ${integration}: ${res.status} ${res.text}`);
  }
  alice = await signedInAs(rig.t, ["operator"]);
  bruno = await signedInAs(rig.t, ["operator"]);
});

afterAll(async () => {
  await rig?.t.close();
  await rig?.sandbox.close();
});

describe("Data Center: personal access tokens", () => {
  it("My accounts asks for Jira's and Confluence's tokens, and offers no OAuth", async () => {
    const atlassian = (await linksOf(alice.client)).find((i) => i.integration === "atlassian")!;
    expect(atlassian).toMatchObject({
      deployment: "datacenter",
      confluenceTokenWanted: true,
      oauthAvailable: false,
      apiTokensAllowed: true,
    });
    const bitbucket = (await linksOf(alice.client)).find((i) => i.integration === "bitbucket")!;
    expect(bitbucket).toMatchObject({ deployment: "datacenter", confluenceTokenWanted: false });
  });

  it("refuses a wrong token, a missing Confluence token, and tokens of two people: nothing stored", async () => {
    const priya = person("priya.raman");
    const marcus = person("marcus.chen");
    const wrong = await alice.client.post("/api/account/links/atlassian/api-token", {
      apiToken: "not-a-token",
      confluenceToken: priya.personalAccessToken,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.fields).toEqual({ apiToken: "Jira refused this personal access token" });
    const missing = await alice.client.post("/api/account/links/atlassian/api-token", { apiToken: priya.personalAccessToken });
    expect(missing.status).toBe(400);
    expect(missing.body.error.fields).toEqual({ confluenceToken: "Confluence's personal access token is required" });
    const mixed = await alice.client.post("/api/account/links/atlassian/api-token", {
      apiToken: priya.personalAccessToken,
      confluenceToken: marcus.personalAccessToken,
    });
    expect(mixed.status).toBe(400);
    expect(mixed.body.error.fields.confluenceToken).toMatch(/both must be yours/);
    const empty = await alice.client.post("/api/account/links/atlassian/api-token", {});
    expect(empty.status).toBe(400);
    expect((await linksOf(alice.client)).every((i) => i.link === null)).toBe(true);
  });

  it("two people, one tool: each sees their own projects, spaces and repositories, and the audit says who", async () => {
    const priya = person("priya.raman");
    const marcus = person("marcus.chen");
    for (const [who, p] of [
      [alice.client, priya],
      [bruno.client, marcus],
    ] as const) {
      const linked = await who.post<AccountLinkDto>("/api/account/links/atlassian/api-token", {
        apiToken: p.personalAccessToken,
        confluenceToken: p.personalAccessToken,
      });
      expect(linked.status, linked.text).toBe(201);
      expect(linked.body).toMatchObject({
        kind: "atlassian-dc-token",
        account: { accountId: p.nickname },
        siteUrl: rig.sandbox.dataCenter.jira,
      });
      expect(JSON.stringify(linked.body)).not.toContain(p.personalAccessToken);
      const bb = await who.post<AccountLinkDto>("/api/account/links/bitbucket/api-token", { apiToken: p.personalAccessToken });
      expect(bb.status, bb.text).toBe(201);
      expect(bb.body.kind).toBe("bitbucket-dc-token");
    }
    const a = await mcpClient(rig, await tokenOf(alice.client));
    const b = await mcpClient(rig, await tokenOf(bruno.client));
    try {
      const projectsOf = async (c: typeof a) => {
        const r = await c.call("jira_search", { jql: "key in (BK-1, WEB-1, OPS-1) ORDER BY key ASC" });
        expect(r.isError, r.text).toBe(false);
        return new Set((r.data.issues as { key: string }[]).map((i) => i.key.split("-")[0]));
      };
      expect([...(await projectsOf(a))].sort()).toEqual(["BK", "WEB"]);
      expect([...(await projectsOf(b))].sort()).toEqual(["OPS"]);
      const spaces = await a.call("confluence_list_spaces", {});
      expect(spaces.isError, spaces.text).toBe(false);
      expect((spaces.data.spaces as { key: string }[]).map((s) => s.key).sort()).toEqual(["ENG", "PROD"]);
      const repos = await b.call("bitbucket_list_repositories", { workspace: "DATA" });
      expect(repos.isError, repos.text).toBe(false);
      expect((repos.data.repositories as { slug: string }[]).map((r) => r.slug)).toContain("etl-pipelines");
      const hidden = await a.call("bitbucket_get_repository", { repository: "DATA/etl-pipelines" });
      expect(hidden.isError).toBe(true);
      await rig.t.container.services.toolCalls.flush();
      const page = (await rig.admin.get<ToolCallPage>("/api/admin/tool-calls?tool=jira_search")).body;
      const identities = new Set(page.items.map((r) => r.upstreamIdentity));
      expect(identities).toEqual(new Set(["priya.raman", "marcus.chen"]));
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("a person with nothing linked is told where to link", async () => {
    const carol = await signedInAs(rig.t, ["operator"]);
    const c = await mcpClient(rig, await tokenOf(carol.client));
    try {
      const r = await c.call("jira_search", { jql: "project = BK" });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/have not linked your Atlassian account yet.*\/account/);
    } finally {
      await c.close();
    }
  });
});
