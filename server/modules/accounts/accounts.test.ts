import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AccountLinkDto, MyAccountsDto } from "../../../contract/accounts";
import type { ToolCallPage } from "../../../contract/tool-calls";
import { mcpClient, startMcpRig, type McpRig } from "../../mcp/mcp.test-rig";
import { obtainTokens } from "../../oauth/oauth.adversarial.helpers";
import { setPolicy } from "../../mcp/tools/tool-test-kit";
import { signedInAs } from "../../test/factories";
import type { TestClient } from "../../test/http-client";
import {
  callback,
  consentAt,
  link,
  oauthLog,
  perPerson,
  sandboxOAuth,
  sandboxPost,
  startLink,
  type SandboxAccounts,
} from "./accounts.test-kit";

/**
 * Acting as the person (issue 27), over HTTP against the sandbox's Atlassian and Bitbucket OAuth:
 * each case fails without the behaviour it names.
 */
let rig: McpRig;
let accounts: SandboxAccounts;
let alice: Awaited<ReturnType<typeof signedInAs>>;
let bruno: Awaited<ReturnType<typeof signedInAs>>;
const people = () => rig.sandbox.credentials.people;

/** A user-bound MCP token of `person` (their consent to the rig's client). */
const tokenOf = async (person: TestClient) =>
  (await obtainTokens({ ...rig, user: person }, rig.client, { scope: "read write" })).access_token;

const linksOf = async (person: TestClient) => (await person.get<MyAccountsDto>("/api/account/links")).body.integrations;

beforeAll(async () => {
  rig = await startMcpRig(sandboxOAuth);
  accounts = await perPerson(rig.admin, rig.sandbox, "atlassian");
  // Every toolset on (jira_current_user is outside the default ones).
  await setPolicy(rig, rig.client.clientId);
  alice = await signedInAs(rig.t, ["operator"]);
  bruno = await signedInAs(rig.t, ["operator"]);
});

afterAll(async () => {
  await rig?.t.close();
  await rig?.sandbox.close();
});

describe("two people, one tool", () => {
  it("answers each person with what their own account sees, and records whom it acted as", async () => {
    const [p1, p2] = people();
    await link(alice.client, rig.sandbox, "atlassian", p1!.accountId);
    await link(bruno.client, rig.sandbox, "atlassian", p2!.accountId);
    const a = await mcpClient(rig, await tokenOf(alice.client));
    const b = await mcpClient(rig, await tokenOf(bruno.client));
    try {
      const [meA, meB] = [await a.call("jira_current_user", {}), await b.call("jira_current_user", {})];
      expect(meA.isError, meA.text).toBe(false);
      expect(meA.data.accountId).toBe(p1!.accountId);
      expect(meB.data.accountId).toBe(p2!.accountId);

      const jql = "project in (BK, OPS, WEB) ORDER BY key ASC";
      const [ra, rb] = [await a.call("jira_search", { jql, maxResults: 50 }), await b.call("jira_search", { jql, maxResults: 50 })];
      const projects = (r: typeof ra) => new Set((r.data.issues as { key: string }[]).map((i) => i.key.split("-")[0]));
      expect([...projects(ra)].every((p) => p1!.jiraProjects.includes(p!))).toBe(true);
      expect([...projects(rb)].every((p) => p2!.jiraProjects.includes(p!))).toBe(true);
      expect(projects(ra)).not.toEqual(projects(rb));

      await rig.t.container.services.toolCalls.flush();
      const audit = (await rig.admin.get<ToolCallPage>("/api/admin/tool-calls?tool=jira_current_user")).body.items;
      expect(audit.map((c) => c.upstreamIdentity).sort()).toEqual([p1!.accountId, p2!.accountId].sort());
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("attributes a write to the person in the service's history", async () => {
    const [p1] = people();
    const a = await mcpClient(rig, await tokenOf(alice.client));
    try {
      const found = await a.call("jira_search", { jql: `project = ${p1!.jiraProjects[0]} order by key ASC`, maxResults: 1 });
      const key = (found.data.issues as { key: string }[])[0]!.key;
      const added = await a.call("jira_add_comment", { issueKey: key, body: "Written by my own account" });
      expect(added.isError, added.text).toBe(false);
      const issue = rig.sandbox.state("jira").issues.find((i) => i.key === key)!;
      const comment = issue.comments.at(-1)!;
      expect(comment.authorId).toBe(p1!.accountId);
    } finally {
      await a.close();
    }
  });

  it("names the person's own link, not the shared token, when the service refuses it", async () => {
    const a = await mcpClient(rig, await tokenOf(alice.client));
    try {
      await sandboxPost(rig.sandbox, "/__sandbox/faults", { path: "/rest/api/3/myself", status: 401, times: 1 });
      const refused = await a.call("jira_current_user", {});
      expect(refused.isError).toBe(true);
      expect(refused.text).toContain(`Jira refused your linked account (401). Link it again at ${rig.baseUrl}/account`);
      expect(refused.text).not.toContain("Configuration screen");
    } finally {
      await fetch(`${rig.sandbox.url}/__sandbox/faults`, { method: "DELETE" });
      await a.close();
    }
  });

  it("tells a person with nothing linked where to link, and keeps the tool list", async () => {
    const carol = await signedInAs(rig.t, ["operator"]);
    const c = await mcpClient(rig, await tokenOf(carol.client));
    try {
      const listed = (await c.client.listTools()).tools.map((t) => t.name);
      expect(listed).toContain("jira_search");
      const answer = await c.call("jira_search", { jql: "project = BK ORDER BY key" });
      expect(answer.isError).toBe(true);
      expect(answer.text).toContain("you have not linked your Atlassian account yet");
      expect(answer.text).toContain(`${rig.baseUrl}/account`);
    } finally {
      await c.close();
    }
  });
});

describe("the read-only proxy paths", () => {
  it("read as the person behind the token, and refuse a machine client in per-person mode", async () => {
    const token = await tokenOf(alice.client);
    const me = await fetch(`${rig.baseUrl}/api/atlassian/jira/rest/api/3/myself`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { accountId: string }).accountId).toBe(people()[0]!.accountId);
    const machine = await fetch(`${rig.baseUrl}/api/atlassian/jira/rest/api/3/myself`, {
      headers: { authorization: `Bearer ${await rig.token("read")}` },
    });
    expect(machine.status).toBe(403);
    expect(((await machine.json()) as { error: { message: string } }).error.message).toContain("machine client");
  });
});

describe("machine clients", () => {
  it("refuses a client_credentials token in per-person mode, and uses the shared account once allowed", async () => {
    const m = await mcpClient(rig, await rig.token("read"));
    try {
      const refused = await m.call("jira_current_user", {});
      expect(refused.isError).toBe(true);
      expect(refused.text).toContain("machine client");
      await perPerson(rig.admin, rig.sandbox, "atlassian", { allowMachineClients: true });
      const shared = await m.call("jira_current_user", {});
      expect(shared.isError, shared.text).toBe(false);
      expect(shared.data.accountId).toBe(rig.sandbox.credentials.atlassian.accountId);
    } finally {
      await perPerson(rig.admin, rig.sandbox, "atlassian");
      await m.close();
    }
  });
});

describe("tokens live and die", () => {
  it("refreshes an expired access token once, with the rotated refresh token", async () => {
    const dave = await signedInAs(rig.t, ["operator"]);
    await sandboxPost(rig.sandbox, "/__sandbox/oauth/settings", { accessTokenTtlSeconds: 30 });
    try {
      await link(dave.client, rig.sandbox, "atlassian", people()[0]!.accountId);
    } finally {
      await sandboxPost(rig.sandbox, "/__sandbox/oauth/settings", { accessTokenTtlSeconds: 3600 });
    }
    const d = await mcpClient(rig, await tokenOf(dave.client));
    try {
      const before = (await oauthLog(rig.sandbox)).filter((r) => r.grantType === "refresh_token").length;
      // Expiring within a minute: refreshed before use, once for the parallel calls.
      const answers = await Promise.all([1, 2, 3].map(() => d.call("jira_current_user", {})));
      for (const a of answers) expect(a.isError, a.text).toBe(false);
      const refreshes = (await oauthLog(rig.sandbox)).filter((r) => r.grantType === "refresh_token");
      expect(refreshes.length - before).toBe(1);
      expect(refreshes.at(-1)!.outcome).toBe("ok");
    } finally {
      await d.close();
    }
  });

  it("marks the link needs re-linking when the refresh is refused, and says so in the tool error", async () => {
    const erin = await signedInAs(rig.t, ["operator"]);
    await sandboxPost(rig.sandbox, "/__sandbox/oauth/settings", { accessTokenTtlSeconds: 30 });
    try {
      await link(erin.client, rig.sandbox, "atlassian", people()[1]!.accountId);
    } finally {
      await sandboxPost(rig.sandbox, "/__sandbox/oauth/settings", { accessTokenTtlSeconds: 3600 });
    }
    // 91 idle days: the refresh token expired at Atlassian.
    await sandboxPost(rig.sandbox, "/__sandbox/clock", { advanceSeconds: 91 * 86_400 });
    const e = await mcpClient(rig, await tokenOf(erin.client));
    try {
      const answer = await e.call("jira_current_user", {});
      expect(answer.isError).toBe(true);
      expect(answer.text).toContain("needs re-linking");
      const mine = (await linksOf(erin.client)).find((i) => i.integration === "atlassian")!;
      expect(mine.link?.state).toBe("needs-relinking");
      expect(mine.link?.problem).toContain("invalid_grant");
      // No second refresh for a link known to need re-linking.
      const refused = (await oauthLog(rig.sandbox)).filter((r) => r.grantType === "refresh_token" && r.outcome !== "ok").length;
      await e.call("jira_current_user", {});
      expect((await oauthLog(rig.sandbox)).filter((r) => r.grantType === "refresh_token" && r.outcome !== "ok").length).toBe(refused);
    } finally {
      await e.close();
    }
  });
});

describe("unlinking and deactivation", () => {
  it("unlink forgets the tokens: the next call is told to link", async () => {
    const fay = await signedInAs(rig.t, ["operator"]);
    await link(fay.client, rig.sandbox, "atlassian", people()[0]!.accountId);
    const f = await mcpClient(rig, await tokenOf(fay.client));
    try {
      expect((await f.call("jira_current_user", {})).isError).toBe(false);
      expect((await fay.client.request("DELETE", "/api/account/links/atlassian")).status).toBe(204);
      expect((await fay.client.request("DELETE", "/api/account/links/atlassian")).status).toBe(404);
      const answer = await f.call("jira_current_user", {});
      expect(answer.isError).toBe(true);
      expect(answer.text).toContain("not linked your Atlassian account");
      expect(await rig.t.container.repos.accountsRepo.findLink(fay.user.row.id, "atlassian")).toBeUndefined();
    } finally {
      await f.close();
    }
  });

  it("deactivating a user removes their links; an administrator sees and removes links, never a token", async () => {
    const gus = await signedInAs(rig.t, ["operator"]);
    await link(gus.client, rig.sandbox, "atlassian", people()[1]!.accountId);
    const seen = await rig.admin.get<AccountLinkDto[]>(`/api/users/${gus.user.row.id}/links`);
    expect(seen.status).toBe(200);
    expect(seen.body).toHaveLength(1);
    expect(seen.body[0]!.state).toBe("working");
    expect(seen.text).not.toMatch(/token|secret/i);
    // A user without users.read may not see it; without users.write, not unlink it.
    const nobody = await signedInAs(rig.t, []);
    expect((await nobody.client.get(`/api/users/${gus.user.row.id}/links`)).status).toBe(403);
    expect((await alice.client.request("DELETE", `/api/users/${gus.user.row.id}/links/atlassian`)).status).toBe(403);

    expect((await rig.admin.put(`/api/users/${gus.user.row.id}`, { isActive: false })).status).toBe(200);
    expect(await rig.t.container.repos.accountsRepo.findLink(gus.user.row.id, "atlassian")).toBeUndefined();
    expect((await rig.admin.get<AccountLinkDto[]>(`/api/users/${gus.user.row.id}/links`)).body).toEqual([]);

    const hal = await signedInAs(rig.t, ["operator"]);
    await link(hal.client, rig.sandbox, "atlassian", people()[0]!.accountId);
    expect((await rig.admin.request("DELETE", `/api/users/${hal.user.row.id}/links/atlassian`)).status).toBe(204);
    expect((await rig.admin.request("DELETE", `/api/users/${hal.user.row.id}/links/atlassian`)).status).toBe(404);
  });
});

describe("a link that must not be stored", () => {
  const stored = async (client: TestClient) => (await linksOf(client)).find((i) => i.integration === "atlassian")!.link;

  it("a state from another session, a reused state, a reused code, another site, a denied consent", async () => {
    const ian = await signedInAs(rig.t, ["operator"]);
    const other = await signedInAs(rig.t, ["operator"]);
    const person = people()[0]!.accountId;

    // Another person's session finishing ian's attempt: refused, and the attempt is spent.
    let authorize = await startLink(ian.client, "atlassian");
    let code = await consentAt(rig.sandbox, "atlassian", authorize, person);
    expect(await callback(other.client, "atlassian", { code, state: authorize.searchParams.get("state")! })).toContain(
      "link_error=session",
    );
    expect(await callback(ian.client, "atlassian", { code, state: authorize.searchParams.get("state")! })).toContain("link_error=expired");
    expect(await stored(ian.client)).toBeNull();
    expect(await stored(other.client)).toBeNull();

    // A state nobody issued.
    expect(await callback(ian.client, "atlassian", { code, state: "made-up" })).toContain("link_error=expired");

    // A code used once already (the sandbox refuses it): a new attempt with it stores nothing.
    authorize = await startLink(ian.client, "atlassian");
    code = await consentAt(rig.sandbox, "atlassian", authorize, person);
    expect(await callback(ian.client, "atlassian", { code, state: authorize.searchParams.get("state")! })).toContain("linked=1");
    expect((await ian.client.request("DELETE", "/api/account/links/atlassian")).status).toBe(204);
    authorize = await startLink(ian.client, "atlassian");
    expect(await callback(ian.client, "atlassian", { code, state: authorize.searchParams.get("state")! })).toContain("link_error=code");
    expect(await stored(ian.client)).toBeNull();

    // A grant for another site than the configured one.
    authorize = await startLink(ian.client, "atlassian");
    code = await consentAt(rig.sandbox, "atlassian", authorize, person, rig.sandbox.credentials.otherSite.cloudId);
    expect(await callback(ian.client, "atlassian", { code, state: authorize.searchParams.get("state")! })).toContain("link_error=site");
    expect(await stored(ian.client)).toBeNull();

    // Consent denied at Atlassian.
    authorize = await startLink(ian.client, "atlassian");
    const denied = {
      error: "access_denied",
      error_description: "User did not authorize the request",
      state: authorize.searchParams.get("state")!,
    };
    expect(await callback(ian.client, "atlassian", denied)).toContain("link_error=denied");
    expect(await stored(ian.client)).toBeNull();
  });

  it("goes back to where linking started (the consent page of an MCP client)", async () => {
    const jo = await signedInAs(rig.t, ["operator"]);
    const authorize = await startLink(jo.client, "atlassian", "/oauth/consent?request=abc");
    const code = await consentAt(rig.sandbox, "atlassian", authorize, people()[0]!.accountId);
    expect(await callback(jo.client, "atlassian", { code, state: authorize.searchParams.get("state")! })).toBe(
      "/oauth/consent?request=abc",
    );
    expect((await jo.client.post("/api/account/links/atlassian/authorize", { returnTo: "https://evil.example/" })).status).toBe(400);
    expect((await jo.client.post("/api/account/links/atlassian/authorize", { returnTo: "//evil.example/" })).status).toBe(400);
  });

  it("asks Atlassian for 3LO with PKCE, the gateway audience, consent, offline access and the tools' scopes", async () => {
    const authorize = await startLink(alice.client, "atlassian");
    expect(authorize.origin + authorize.pathname).toBe(`${rig.sandbox.url}/authorize`);
    const q = authorize.searchParams;
    expect(q.get("audience")).toBe("api.atlassian.com");
    expect(q.get("prompt")).toBe("consent");
    expect(q.get("response_type")).toBe("code");
    expect(q.get("code_challenge_method")).toBe("S256");
    expect(q.get("client_id")).toBe(accounts.atlassianApp.clientId);
    expect(q.get("redirect_uri")).toBe(`${rig.baseUrl}/api/account/links/atlassian/callback`);
    expect(q.get("scope")!.split(" ")).toEqual(
      expect.arrayContaining(["offline_access", "read:jira-work", "write:jira-work", "read:page:confluence"]),
    );
  });
});

describe("personal API tokens and Bitbucket", () => {
  it("links a personal API token the service confirms, and refuses one it does not", async () => {
    await perPerson(rig.admin, rig.sandbox, "atlassian", { allowApiTokens: true });
    const kim = await signedInAs(rig.t, ["operator"]);
    const p = people()[1]!;
    const bad = await kim.client.post("/api/account/links/atlassian/api-token", { email: p.email, apiToken: "wrong" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields.apiToken).toBe("Atlassian refused this e-mail and API token");
    const empty = await kim.client.post("/api/account/links/atlassian/api-token", { email: "", apiToken: "" });
    expect(empty.status).toBe(400);
    expect(empty.body.error.fields).toMatchObject({ email: "Email is required", apiToken: "API token is required" });
    const ok = await kim.client.post<AccountLinkDto>("/api/account/links/atlassian/api-token", { email: p.email, apiToken: p.apiToken });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ kind: "atlassian-api-token", account: { accountId: p.accountId }, state: "working" });
    expect(ok.text).not.toContain(p.apiToken);
    const k = await mcpClient(rig, await tokenOf(kim.client));
    try {
      expect((await k.call("jira_current_user", {})).data.accountId).toBe(p.accountId);
    } finally {
      await k.close();
    }
    await perPerson(rig.admin, rig.sandbox, "atlassian");
    const refused = await kim.client.post("/api/account/links/atlassian/api-token", { email: p.email, apiToken: p.apiToken });
    expect(refused.status).toBe(403);
  });

  it("links Bitbucket through its OAuth consumer and lists what the person may see", async () => {
    await perPerson(rig.admin, rig.sandbox, "bitbucket");
    try {
      const [p1] = people();
      await link(alice.client, rig.sandbox, "bitbucket", p1!.accountId);
      const a = await mcpClient(rig, await tokenOf(alice.client));
      try {
        const repos = await a.call("bitbucket_list_repositories", { maxResults: 100 });
        expect(repos.isError, repos.text).toBe(false);
        const slugs = (repos.data.repositories as { slug: string }[]).map((r) => r.slug);
        expect(slugs.length).toBeGreaterThan(0);
        expect(slugs.every((s) => p1!.bitbucketRepos.includes(s))).toBe(true);
      } finally {
        await a.close();
      }
      const mine = (await linksOf(alice.client)).find((i) => i.integration === "bitbucket")!;
      expect(mine.link).toMatchObject({ kind: "bitbucket-oauth", state: "working", account: { accountId: p1!.accountId } });
    } finally {
      const shared = await rig.admin.put("/api/admin/identity/bitbucket", { mode: "shared" });
      expect(shared.status).toBe(200);
    }
  });
});

describe("a link for another site", () => {
  it("is not used once the integration points at another site", async () => {
    const lee = await signedInAs(rig.t, ["operator"]);
    await link(lee.client, rig.sandbox, "atlassian", people()[0]!.accountId);
    const l = await mcpClient(rig, await tokenOf(lee.client));
    const site = (url: string) =>
      rig.admin.post("/api/admin/atlassian-config", {
        instanceUrl: url,
        email: rig.sandbox.credentials.atlassian.email,
        apiToken: rig.sandbox.credentials.atlassian.apiToken,
        isActive: true,
      });
    try {
      expect((await l.call("jira_current_user", {})).isError).toBe(false);
      const elsewhere = rig.sandbox.url.replace("127.0.0.1", "localhost");
      expect((await site(elsewhere)).status).toBe(200);
      const answer = await l.call("jira_current_user", {});
      expect(answer.isError).toBe(true);
      expect(answer.text).toContain(`Your Atlassian link is for ${rig.sandbox.url}, and Bridgekeeper now works with ${elsewhere}`);
    } finally {
      expect((await site(rig.sandbox.url)).status).toBe(200);
      await l.close();
    }
  });
});

describe("identity settings", () => {
  it("keeps the client secret write-only, and refuses a mode no one can link in", async () => {
    const got =
      await rig.admin.get<{ integration: string; oauthClientSecretHint: string | null; callbackUrl: string }[]>("/api/admin/identity");
    expect(got.status).toBe(200);
    const atl = got.body.find((s) => s.integration === "atlassian")!;
    expect(atl.oauthClientSecretHint).toBe(accounts.atlassianApp.clientSecret.slice(-4));
    expect(got.text).not.toContain(accounts.atlassianApp.clientSecret);
    expect(atl.callbackUrl).toBe(`${rig.baseUrl}/api/account/links/atlassian/callback`);

    // Blank keeps the stored secret.
    const kept = await rig.admin.put("/api/admin/identity/atlassian", {
      mode: "per-person",
      oauthClientId: accounts.atlassianApp.clientId,
    });
    expect(kept.status).toBe(200);
    // A new client id needs its secret.
    const noSecret = await rig.admin.put("/api/admin/identity/atlassian", { mode: "per-person", oauthClientId: "another-app" });
    expect(noSecret.status).toBe(400);
    expect(noSecret.body.error.fields.oauthClientSecret).toBeDefined();
    const noWay = await rig.admin.put("/api/admin/identity/bitbucket", { mode: "per-person" });
    expect(noWay.status).toBe(400);
    expect(noWay.body.error.fields.mode).toContain("needs a way to link");
    expect((await rig.admin.put("/api/admin/identity/bitbucket", { mode: "everyone" })).status).toBe(400);
    expect((await rig.admin.put("/api/admin/identity/jira", { mode: "shared" })).status).toBe(404);
    // Only config.write may change it.
    const viewer = await signedInAs(rig.t, ["viewer"]);
    expect((await viewer.client.get("/api/admin/identity")).status).toBe(200);
    expect((await viewer.client.put("/api/admin/identity/atlassian", { mode: "shared" })).status).toBe(403);
  });
});
