import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AccountLinkDto, IdentitySettingsDto, MyAccountsDto } from "../../../contract/accounts";
import { mcpClient, startMcpRig, type McpRig } from "../../mcp/mcp.test-rig";
import { setPolicy } from "../../mcp/tools/tool-test-kit";
import { obtainTokens } from "../../oauth/oauth.adversarial.helpers";
import { signedInAs } from "../../test/factories";
import type { TestClient } from "../../test/http-client";
import { callback, oauthLog, sandboxPost, startLink } from "./accounts.test-kit";

/**
 * Acting as the person on Data Center through its own OAuth 2.0 provider (issue 28 item 7): each
 * server's incoming application link (Jira's and Confluence's apart, Bitbucket's), one Connect that
 * asks Jira and then Confluence, PKCE, one-hour access tokens renewed at their own server with
 * `redirect_uri` on the refresh grant, and rotated refresh tokens kept. Over HTTP against the
 * sandbox's Data Center flavour; each case fails without the behaviour it names.
 */
let rig: McpRig;
type DcClients = Record<"jira" | "confluence" | "bitbucket", { clientId: string; clientSecret: string }>;
let clients: DcClients;
const person = (nickname: string) => rig.sandbox.credentials.people.find((p) => p.nickname === nickname)!;

const tokenOf = async (who: TestClient) => (await obtainTokens({ ...rig, user: who }, rig.client, { scope: "read write" })).access_token;
const linksOf = async (who: TestClient) => (await who.get<MyAccountsDto>("/api/account/links")).body.integrations;
const linkOf = async (who: TestClient, integration: "atlassian" | "bitbucket") =>
  (await linksOf(who)).find((i) => i.integration === integration)!;

type DcServer = "jira" | "confluence" | "bitbucket";
/** A code as if `accountId` had allowed the request `authorize` describes at that Data Center server. */
async function allowAt(server: DcServer, authorize: URL, accountId: string): Promise<string> {
  const res = await sandboxPost(rig.sandbox, "/__sandbox/oauth/codes", {
    service: `${server}-dc`,
    accountId,
    redirectUri: authorize.searchParams.get("redirect_uri"),
    scope: authorize.searchParams.get("scope"),
    codeChallenge: authorize.searchParams.get("code_challenge"),
  });
  if (res.status !== 200 && res.status !== 201) throw new Error(`sandbox code: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { code: string }).code;
}

/** Through Jira's consent and then Confluence's as `jiraAs` and `confluenceAs`: where the browser lands. */
async function connectAtlassian(who: TestClient, jiraAs: string, confluenceAs = jiraAs): Promise<string> {
  const jira = await startLink(who, "atlassian");
  const next = await callback(who, "atlassian", { code: await allowAt("jira", jira, jiraAs), state: jira.searchParams.get("state")! });
  if (!next.startsWith(rig.sandbox.dataCenter.confluence)) return next;
  const confluence = new URL(next);
  return callback(who, "atlassian", {
    code: await allowAt("confluence", confluence, confluenceAs),
    state: confluence.searchParams.get("state")!,
  });
}

const setTtl = (service: `${DcServer}-dc`, seconds: number) =>
  sandboxPost(rig.sandbox, "/__sandbox/oauth/settings", { service, accessTokenTtlSeconds: seconds });

beforeAll(async () => {
  rig = await startMcpRig({}, { flavour: "datacenter" });
  await setPolicy(rig, rig.client.clientId);
  const accounts = (await (await fetch(`${rig.sandbox.url}/__sandbox/accounts`)).json()) as { dataCenter: { oauthClients: DcClients } };
  clients = accounts.dataCenter.oauthClients;
});

afterAll(async () => {
  await rig?.t.close();
  await rig?.sandbox.close();
});

const atlassianLinks = () => ({
  mode: "per-person",
  oauthClientId: clients.jira.clientId,
  oauthClientSecret: clients.jira.clientSecret,
  confluenceOauthClientId: clients.confluence.clientId,
  confluenceOauthClientSecret: clients.confluence.clientSecret,
});

describe("the incoming application links on the Configuration screen", () => {
  it("asks for Confluence's link beside Jira's, and refuses one without the other or without a secret", async () => {
    const listed = (await rig.admin.get<IdentitySettingsDto[]>("/api/admin/identity")).body;
    expect(listed.find((s) => s.integration === "atlassian")).toMatchObject({ deployment: "datacenter", confluenceAppWanted: true });
    expect(listed.find((s) => s.integration === "bitbucket")).toMatchObject({ deployment: "datacenter", confluenceAppWanted: false });

    const jiraOnly = await rig.admin.put("/api/admin/identity/atlassian", {
      mode: "per-person",
      oauthClientId: clients.jira.clientId,
      oauthClientSecret: clients.jira.clientSecret,
    });
    expect(jiraOnly.status).toBe(400);
    expect(jiraOnly.body.error.fields.confluenceOauthClientId).toMatch(/Confluence Data Center is a server of its own/);
    const noSecret = await rig.admin.put("/api/admin/identity/atlassian", { ...atlassianLinks(), confluenceOauthClientSecret: "" });
    expect(noSecret.status).toBe(400);
    expect(noSecret.body.error.fields).toEqual({
      confluenceOauthClientSecret: "Confluence's client secret is required with its client id",
    });
    const nothing = await rig.admin.put("/api/admin/identity/atlassian", { mode: "per-person" });
    expect(nothing.status).toBe(400);
    expect(nothing.body.error.fields.mode).toMatch(/incoming application link's client id and secret, or allow personal access tokens/);
    expect((await rig.admin.get<IdentitySettingsDto[]>("/api/admin/identity")).body.find((s) => s.integration === "atlassian")?.mode).toBe(
      "shared",
    );
  });

  it("stores both links with write-only secrets, keeps a secret on a blank, and audits the change", async () => {
    const saved = await rig.admin.put<IdentitySettingsDto>("/api/admin/identity/atlassian", atlassianLinks());
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({
      confluenceOauthClientId: clients.confluence.clientId,
      confluenceOauthClientSecretHint: clients.confluence.clientSecret.slice(-4),
      oauthClientSecretHint: clients.jira.clientSecret.slice(-4),
    });
    expect(saved.text).not.toContain(clients.confluence.clientSecret);
    const kept = await rig.admin.put<IdentitySettingsDto>("/api/admin/identity/atlassian", {
      ...atlassianLinks(),
      oauthClientSecret: "",
      confluenceOauthClientSecret: "",
    });
    expect(kept.status, kept.text).toBe(200);
    expect(kept.body.confluenceOauthClientSecretHint).toBe(clients.confluence.clientSecret.slice(-4));
    const bitbucket = await rig.admin.put("/api/admin/identity/bitbucket", {
      mode: "per-person",
      oauthClientId: clients.bitbucket.clientId,
      oauthClientSecret: clients.bitbucket.clientSecret,
    });
    expect(bitbucket.status, bitbucket.text).toBe(200);
    const audit = await rig.admin.get<{ items: { action: string; details: Record<string, unknown> }[] }>(
      "/api/admin/audit?action=integration.identity_updated",
    );
    expect(JSON.stringify(audit.body)).toContain(clients.confluence.clientId);
    expect(JSON.stringify(audit.body)).not.toContain(clients.confluence.clientSecret);
  });

  it("a viewer without config.write cannot change them", async () => {
    const viewer = await signedInAs(rig.t, ["viewer"]);
    expect((await viewer.client.put("/api/admin/identity/atlassian", atlassianLinks())).status).toBe(403);
  });
});

describe("Connect on Data Center", () => {
  beforeEach(async () => {
    await rig.admin.put("/api/admin/identity/atlassian", atlassianLinks());
  });

  it("asks Jira, then Confluence, with PKCE and the callback, and acts as the person on both", async () => {
    const alice = await signedInAs(rig.t, ["operator"]);
    expect(await linkOf(alice.client, "atlassian")).toMatchObject({ oauthAvailable: true, deployment: "datacenter" });
    const jira = await startLink(alice.client, "atlassian");
    expect(`${jira.origin}${jira.pathname}`).toBe(`${rig.sandbox.dataCenter.jira}/rest/oauth2/latest/authorize`);
    expect(Object.fromEntries(jira.searchParams)).toMatchObject({
      client_id: clients.jira.clientId,
      response_type: "code",
      scope: "WRITE",
      code_challenge_method: "S256",
      redirect_uri: `${rig.t.baseUrl}/api/account/links/atlassian/callback`,
    });
    const priya = person("priya.raman");
    const next = await callback(alice.client, "atlassian", {
      code: await allowAt("jira", jira, priya.accountId),
      state: jira.searchParams.get("state")!,
    });
    const confluence = new URL(next);
    expect(`${confluence.origin}${confluence.pathname}`).toBe(`${rig.sandbox.dataCenter.confluence}/rest/oauth2/latest/authorize`);
    expect(confluence.searchParams.get("client_id")).toBe(clients.confluence.clientId);
    expect(confluence.searchParams.get("state")).not.toBe(jira.searchParams.get("state"));
    // Nothing is stored until Confluence has answered too.
    expect((await linkOf(alice.client, "atlassian")).link).toBeNull();
    const back = await callback(alice.client, "atlassian", {
      code: await allowAt("confluence", confluence, priya.accountId),
      state: confluence.searchParams.get("state")!,
    });
    expect(back).toContain("linked=1");
    const link = (await linkOf(alice.client, "atlassian")).link!;
    expect(link).toMatchObject({
      kind: "atlassian-dc-oauth",
      account: { accountId: "priya.raman" },
      siteUrl: rig.sandbox.dataCenter.jira,
      state: "working",
    });
    expect(link.scopes.sort()).toEqual(["confluence:WRITE", "jira:WRITE"]);

    const c = await mcpClient(rig, await tokenOf(alice.client));
    try {
      const me = await c.call("jira_current_user", {});
      expect(me.isError, me.text).toBe(false);
      expect(me.data.accountId).toBe("priya.raman");
      const spaces = await c.call("confluence_list_spaces", {});
      expect(spaces.isError, spaces.text).toBe(false);
      expect((spaces.data.spaces as { key: string }[]).map((s) => s.key).sort()).toEqual([...priya.confluenceSpaces].sort());
    } finally {
      await c.close();
    }
  });

  it("refuses Confluence allowed by another person, a denial, and a replayed state: nothing stored", async () => {
    const bob = await signedInAs(rig.t, ["operator"]);
    const mixed = await connectAtlassian(bob.client, person("priya.raman").accountId, person("marcus.chen").accountId);
    expect(mixed).toContain("link_error=other-person");
    expect((await linkOf(bob.client, "atlassian")).link).toBeNull();

    const jira = await startLink(bob.client, "atlassian");
    const state = jira.searchParams.get("state")!;
    expect(await callback(bob.client, "atlassian", { error: "access_denied", state })).toContain("link_error=denied");
    expect(await callback(bob.client, "atlassian", { code: "x", state })).toContain("link_error=expired");

    // Another session's attempt is not this session's.
    const carol = await signedInAs(rig.t, ["operator"]);
    const theirs = await startLink(carol.client, "atlassian");
    const code = await allowAt("jira", theirs, person("priya.raman").accountId);
    expect(await callback(bob.client, "atlassian", { code, state: theirs.searchParams.get("state")! })).toContain("link_error=session");
    expect((await linkOf(bob.client, "atlassian")).link).toBeNull();
  });

  it("a code the server refuses (another verifier's) links nothing", async () => {
    const dan = await signedInAs(rig.t, ["operator"]);
    const jira = await startLink(dan.client, "atlassian");
    const res = await sandboxPost(rig.sandbox, "/__sandbox/oauth/codes", {
      service: "jira-dc",
      accountId: person("priya.raman").accountId,
      redirectUri: jira.searchParams.get("redirect_uri"),
      codeChallenge: "a-challenge-of-another-verifier-aaaaaaaaaaaaa",
    });
    const { code } = (await res.json()) as { code: string };
    expect(await callback(dan.client, "atlassian", { code, state: jira.searchParams.get("state")! })).toContain("link_error=code");
    expect((await linkOf(dan.client, "atlassian")).link).toBeNull();
  });

  it("links Bitbucket through its own link", async () => {
    const erin = await signedInAs(rig.t, ["operator"]);
    const authorize = await startLink(erin.client, "bitbucket");
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${rig.sandbox.dataCenter.bitbucket}/rest/oauth2/latest/authorize`);
    expect(authorize.searchParams.get("scope")).toBe("REPO_WRITE");
    const marcus = person("marcus.chen");
    const back = await callback(erin.client, "bitbucket", {
      code: await allowAt("bitbucket", authorize, marcus.accountId),
      state: authorize.searchParams.get("state")!,
    });
    expect(back).toContain("linked=1");
    expect((await linkOf(erin.client, "bitbucket")).link).toMatchObject({
      kind: "bitbucket-dc-oauth",
      account: { accountId: "marcus.chen" },
    });
    const c = await mcpClient(rig, await tokenOf(erin.client));
    try {
      const repos = await c.call("bitbucket_list_repositories", { workspace: "DATA" });
      expect(repos.isError, repos.text).toBe(false);
      expect((repos.data.repositories as { slug: string }[]).map((r) => r.slug)).toContain("etl-pipelines");
    } finally {
      await c.close();
    }
  });
});

describe("one-hour tokens", () => {
  beforeEach(async () => {
    await rig.admin.put("/api/admin/identity/atlassian", atlassianLinks());
  });

  it("renews each server's token at that server, once, with redirect_uri, and keeps the rotated refresh token", async () => {
    const fay = await signedInAs(rig.t, ["operator"]);
    // The tokens the sandbox issues first expire within the minute Bridgekeeper renews ahead.
    await setTtl("jira-dc", 30);
    await setTtl("confluence-dc", 30);
    const refreshes = async () => (await oauthLog(rig.sandbox)).filter((r) => r.grantType === "refresh_token");
    const f = await mcpClient(rig, await tokenOf(fay.client));
    try {
      expect(await connectAtlassian(fay.client, person("priya.raman").accountId)).toContain("linked=1");
      let seen = (await refreshes()).length;
      const renewals = async () => {
        const all = await refreshes();
        const fresh = all.slice(seen).map((r) => `${r.service} ${r.outcome}`);
        seen = all.length;
        return fresh;
      };
      // Renewed before use at each server (which refuses a refresh without redirect_uri). Tokens of
      // 30 s are renewed at every use: each renewal after the first presents the rotated refresh
      // token, which Data Center requires (it refuses a used one).
      const first = await f.call("jira_current_user", {});
      expect(first.isError, first.text).toBe(false);
      const chained = await renewals();
      expect(new Set(chained)).toEqual(new Set(["confluence-dc ok", "jira-dc ok"]));
      // An hour's tokens from the next renewal on: renewed once for parallel calls, then not again.
      await setTtl("jira-dc", 3600);
      await setTtl("confluence-dc", 3600);
      const answers = await Promise.all([
        f.call("jira_current_user", {}),
        f.call("confluence_list_spaces", {}),
        f.call("jira_current_user", {}),
      ]);
      for (const a of answers) expect(a.isError, a.text).toBe(false);
      expect((await renewals()).sort()).toEqual(["confluence-dc ok", "jira-dc ok"]);
      expect((await f.call("confluence_list_spaces", {})).isError).toBe(false);
      expect(await renewals()).toEqual([]);
    } finally {
      await f.close();
      await setTtl("jira-dc", 3600);
      await setTtl("confluence-dc", 3600);
    }
  });

  it("a refused renewal marks the link needs re-linking and tells the model where to link", async () => {
    const gus = await signedInAs(rig.t, ["operator"]);
    await setTtl("jira-dc", 30);
    try {
      expect(await connectAtlassian(gus.client, person("marcus.chen").accountId)).toContain("linked=1");
    } finally {
      await setTtl("jira-dc", 3600);
    }
    // 91 days: Data Center's refresh tokens last 90.
    await sandboxPost(rig.sandbox, "/__sandbox/clock", { advanceSeconds: 91 * 86_400 });
    const g = await mcpClient(rig, await tokenOf(gus.client));
    try {
      const answer = await g.call("jira_current_user", {});
      expect(answer.isError).toBe(true);
      expect(answer.text).toMatch(/needs re-linking.*\/account/);
      const link = (await linkOf(gus.client, "atlassian")).link!;
      expect(link.state).toBe("needs-relinking");
      expect(link.problem).toMatch(/^Jira refused to renew the link \(invalid_grant/);
    } finally {
      await g.close();
    }
  });
});

describe("Confluence's link set up after people linked", () => {
  it("a link without a Confluence grant says so for Confluence and still serves Jira", async () => {
    const hal = await signedInAs(rig.t, ["operator"]);
    // Saved while Confluence's link was not required (as before Confluence was configured).
    await rig.t.container.repos.accountsRepo.upsertIdentity({
      ...(await rig.t.container.repos.accountsRepo.findIdentity("atlassian"))!,
      mode: "per-person",
      confluenceOauthClientId: "",
      confluenceOauthSecretSealed: null,
      confluenceOauthSecretHint: null,
    });
    rig.t.container.services.identitySettings.forget("atlassian");
    const back = await connectAtlassian(hal.client, person("priya.raman").accountId);
    expect(back).toContain("linked=1");
    const link: AccountLinkDto = (await linkOf(hal.client, "atlassian")).link!;
    expect(link.scopes).toEqual(["jira:WRITE"]);
    const h = await mcpClient(rig, await tokenOf(hal.client));
    try {
      expect((await h.call("jira_current_user", {})).isError).toBe(false);
      const spaces = await h.call("confluence_list_spaces", {});
      expect(spaces.isError).toBe(true);
      expect(spaces.text).toMatch(/no grant for Confluence/);
    } finally {
      await h.close();
    }
  });
});
