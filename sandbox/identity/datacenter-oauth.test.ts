// @pglite-only: sandbox
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Service } from "../core/errors";
import { DEFAULT_CREDENTIALS } from "../credentials";
import { startSandbox, type Sandbox } from "../server";
import { DEFAULT_PEOPLE } from "./people";
import { bearer, caller, REDIRECT, s256 } from "./testkit";

/**
 * Each Data Center server's own OAuth 2.0 provider (an incoming application link), over HTTP: the
 * consent page (Allow / Deny), the token endpoint with DC's rules (single-use codes bound to client,
 * redirect URI and PKCE challenge; refresh needing the redirect URI; rotation without leeway; 90-day
 * refresh tokens), parameters in the form or the query string, tokens opening their own server
 * only, the control API, and Cloud OAuth left as it was. Time moves on the OAuth clock only.
 */

let sandbox: Sandbox;
const { call, control, consent, consentForm } = caller(() => sandbox);
const priya = DEFAULT_PEOPLE[0]!;
const ADMIN_ID = DEFAULT_CREDENTIALS.atlassian.accountId;
const CLIENTS = DEFAULT_CREDENTIALS.dataCenter.oauthClients;
const app = (service: Service) => ({ client_id: CLIENTS[service].clientId, client_secret: CLIENTS[service].clientSecret });
const VERIFIER = "dc-verifier-dc-verifier-dc-verifier-dc-verifier-dc-verifier";
const DAY = 86_400;

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await control("/__sandbox/reset", {});
});

const authorizeUrl = (service: Service, extra: Record<string, string> = {}) => {
  const params = new URLSearchParams({
    client_id: CLIENTS[service].clientId,
    redirect_uri: REDIRECT,
    response_type: "code",
    state: "st-9",
    code_challenge: s256(VERIFIER),
    code_challenge_method: "S256",
    ...extra,
  });
  for (const [k, v] of [...params]) if (v === "") params.delete(k);
  return `/dc/${service}/rest/oauth2/latest/authorize?${params.toString()}`;
};
const tokenPath = (service: Service) => `/dc/${service}/rest/oauth2/latest/token`;
const token = (service: Service, form: Record<string, string>) => call(tokenPath(service), { form: { ...app(service), ...form } });
const exchange = (code: string, extra: Record<string, string> = {}, service: Service = "jira") =>
  token(service, { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: VERIFIER, ...extra });
const refresh = (refreshToken: string, extra: Record<string, string> = {}, service: Service = "jira") =>
  token(service, { grant_type: "refresh_token", refresh_token: refreshToken, redirect_uri: REDIRECT, ...extra });
const advance = (seconds: number) => control("/__sandbox/clock", { advanceSeconds: seconds });
const myself = (accessToken: string) => call("/dc/jira/rest/api/2/myself", { auth: bearer(accessToken) });
const works = async (accessToken: string) => (await myself(accessToken)).status === 200;

/** Consent on `service`'s page as `accountId`, and the code's exchange. */
async function grant(accountId = priya.accountId, service: Service = "jira"): Promise<any> {
  const to = await consent(authorizeUrl(service), { account: accountId, decision: "accept" });
  const res = await exchange(to.searchParams.get("code")!, {}, service);
  expect(res.status).toBe(200);
  return res.body;
}

describe("the consent page", () => {
  it("asks to allow Bridgekeeper, offers the DC service account and every person by username, with Allow and Deny", async () => {
    const { html, action, fields } = await consentForm(authorizeUrl("jira"));
    expect(html).toContain("Allow Bridgekeeper to access your Jira account?");
    expect(html).toContain("<li><code>WRITE</code></li>");
    expect(html).toMatch(new RegExp(`value="${ADMIN_ID}" required> Demo Admin <span class="email">demo</span>`));
    expect(html).toMatch(new RegExp(`value="${priya.accountId}" required> Priya Raman <span class="email">priya.raman</span>`));
    for (const p of DEFAULT_PEOPLE) expect(html).toContain(`${p.displayName} <span class="email">${p.nickname}</span>`);
    expect(html).not.toContain(priya.email);
    expect(html).not.toContain('name="site"');
    expect(html).toContain('<button type="submit" name="decision" value="accept">Allow</button>');
    expect(html).toContain('value="cancel" formnovalidate>Deny</button>');
    expect(action).toBe("/dc/jira/rest/oauth2/latest/authorize");
    expect(fields).toMatchObject({
      client_id: CLIENTS.jira.clientId,
      redirect_uri: REDIRECT,
      state: "st-9",
      code_challenge: s256(VERIFIER),
    });
    expect((await consentForm(authorizeUrl("confluence"))).html).toContain("Allow Bridgekeeper to access your Confluence account?");
    const bitbucket = await consentForm(authorizeUrl("bitbucket", { scope: "REPO_READ" }));
    expect(bitbucket.html).toContain("Allow Bridgekeeper to access your Bitbucket account?");
    expect(bitbucket.html).toContain("<code>REPO_READ</code>");
    expect((await consentForm(authorizeUrl("bitbucket"))).html).toContain("<code>REPO_WRITE</code>");
  });

  it("escapes what the request carries, and posts it back unchanged", async () => {
    const state = `"><script>alert(1)</script>&`;
    const { html, fields } = await consentForm(authorizeUrl("jira", { state }));
    expect(html).not.toContain("<script>alert");
    expect(html).toContain("&quot;&gt;&lt;script&gt;");
    expect(fields.state).toBe(state);
    expect((await consent(authorizeUrl("jira", { state }), { decision: "cancel" })).searchParams.get("state")).toBe(state);
  });

  it("answers without credentials, unrecorded and untouched by faults", async () => {
    await control("/__sandbox/faults", { path: "/dc/jira/rest/oauth2", status: 503 });
    sandbox.clearRequests();
    expect((await call(authorizeUrl("jira"))).status).toBe(200);
    expect(sandbox.requests()).toEqual([]);
    expect((await call("/dc/jira/rest/oauth2/latest/token")).status).toBe(405);
  });

  it("refuses a bad request with an error page, never a redirect", async () => {
    const bad: [Service, Record<string, string>][] = [
      ["jira", { client_id: "someone-else" }],
      ["jira", { client_id: CLIENTS.confluence.clientId }],
      ["jira", { response_type: "token" }],
      ["jira", { response_type: "" }],
      ["jira", { redirect_uri: "javascript:alert(1)" }],
      ["jira", { redirect_uri: "not a url" }],
      ["jira", { redirect_uri: `${REDIRECT}#frag` }],
      ["jira", { redirect_uri: "" }],
      ["jira", { scope: "REPO_READ" }],
      ["confluence", { scope: "read:confluence-content.all" }],
      ["bitbucket", { scope: "WRITE" }],
      ["jira", { code_challenge_method: "S512" }],
      ["jira", { code_challenge_method: "" }],
    ];
    for (const [service, extra] of bad) {
      const res = await call(authorizeUrl(service, extra));
      expect(res.status, `${service} ${JSON.stringify(extra)}`).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      expect(res.headers.get("content-type")).toContain("text/html");
    }
    const { action, fields } = await consentForm(authorizeUrl("jira"));
    const posted = await call(action, { form: { ...fields, redirect_uri: "ftp://x/y", account: priya.accountId, decision: "accept" } });
    expect(posted.status).toBe(400);
    expect(posted.headers.get("location")).toBeNull();
  });

  it("Allow redirects with the code and the state; Deny with access_denied; Allow without a person asks again", async () => {
    const to = await consent(authorizeUrl("jira", { scope: "READ" }), { account: priya.accountId, decision: "accept" });
    expect(`${to.origin}${to.pathname}`).toBe(REDIRECT);
    expect(to.searchParams.get("code")).toEqual(expect.any(String));
    expect(to.searchParams.get("state")).toBe("st-9");
    expect((await exchange(to.searchParams.get("code")!)).body.scope).toBe("READ");
    expect((await consent(authorizeUrl("jira"), { decision: "cancel" })).search).toBe("?error=access_denied&state=st-9");
    const { action, fields } = await consentForm(authorizeUrl("jira"));
    const res = await call(action, { form: { ...fields, decision: "accept" } });
    expect(res.status).toBe(400);
    expect(res.body).toContain("Choose who you are.");
  });
});

describe("the token endpoint", () => {
  it("exchanges a code (S256) for tokens that act as the person on their own server only", async () => {
    const to = await consent(authorizeUrl("jira"), { account: priya.accountId, decision: "accept" });
    const res = await exchange(to.searchParams.get("code")!);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body).toEqual({
      access_token: expect.any(String),
      token_type: "bearer",
      expires_in: 3600,
      refresh_token: expect.any(String),
      scope: "WRITE",
    });
    const auth = bearer(res.body.access_token);
    expect((await myself(res.body.access_token)).body).toMatchObject({ name: "priya.raman", displayName: "Priya Raman" });
    const projects = (await call("/dc/jira/rest/api/2/project", { auth })).body as any[];
    expect(projects.map((p) => p.key).sort()).toEqual([...priya.jiraProjects].sort());
    expect((await call("/dc/confluence/rest/api/user/current", { auth })).status).toBe(401);
    expect((await call("/dc/bitbucket/rest/api/1.0/application-properties", { auth })).status).toBe(401);
    expect((await call("/rest/api/3/myself", { auth })).status).toBe(401);
    expect((await call(`/ex/jira/${sandbox.credentials.cloudId}/rest/api/3/myself`, { auth })).status).toBe(401);
  });

  it("acts as the service account when Demo Admin allowed; Confluence's and Bitbucket's tokens open their servers", async () => {
    expect((await myself((await grant(ADMIN_ID)).access_token)).body).toMatchObject({ name: "demo", displayName: "Demo Admin" });
    const confluence = bearer((await grant(priya.accountId, "confluence")).access_token);
    expect((await call("/dc/confluence/rest/api/user/current", { auth: confluence })).body.username).toBe("priya.raman");
    expect((await call("/dc/jira/rest/api/2/myself", { auth: confluence })).status).toBe(401);
    const bitbucket = await call("/dc/bitbucket/rest/api/1.0/application-properties", {
      auth: bearer((await grant(priya.accountId, "bitbucket")).access_token),
    });
    expect(bitbucket.status).toBe(200);
    expect(bitbucket.headers.get("x-ausername")).toBe("priya.raman");
  });

  it("binds the code to its PKCE challenge (S256 or plain), redirect URI, client and server", async () => {
    const to = await consent(authorizeUrl("jira"), { account: priya.accountId, decision: "accept" });
    const code = to.searchParams.get("code")!;
    const wrong: Record<string, string>[] = [
      { code_verifier: "the-wrong-verifier-the-wrong-verifier-the-wrong" },
      { code_verifier: "" },
      { redirect_uri: `${REDIRECT}/x` },
    ];
    for (const extra of wrong) {
      const res = await exchange(code, extra);
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(res.body.error).toBe("invalid_grant");
    }
    expect((await exchange(code, {}, "confluence")).body.error).toBe("invalid_grant");
    expect((await exchange(code)).status).toBe(200);
    const plain = { code_challenge: VERIFIER, code_challenge_method: "plain" };
    const plainCode = () => consent(authorizeUrl("jira", plain), { account: priya.accountId, decision: "accept" });
    expect((await exchange((await plainCode()).searchParams.get("code")!, { code_verifier: s256(VERIFIER) })).status).toBe(400);
    expect((await exchange((await plainCode()).searchParams.get("code")!)).status).toBe(200);
    const none = await consent(authorizeUrl("jira", { code_challenge: "", code_challenge_method: "" }), {
      account: priya.accountId,
      decision: "accept",
    });
    expect((await exchange(none.searchParams.get("code")!, { code_verifier: "" })).status).toBe(200);
  });

  it("a code is single use: a replay is refused and revokes what it gave; codes live 10 minutes", async () => {
    const code = (await consent(authorizeUrl("jira"), { account: priya.accountId, decision: "accept" })).searchParams.get("code")!;
    const first = (await exchange(code)).body;
    expect(await works(first.access_token)).toBe(true);
    const again = await exchange(code);
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ error: "invalid_grant", error_description: expect.stringContaining("already been used") });
    expect(await works(first.access_token)).toBe(false);
    expect((await refresh(first.refresh_token)).body.error).toBe("invalid_grant");
    const late = (await consent(authorizeUrl("jira"), { account: priya.accountId, decision: "accept" })).searchParams.get("code")!;
    await advance(601);
    expect((await exchange(late)).body).toEqual({ error: "invalid_grant", error_description: expect.stringContaining("expired") });
  });

  it("takes its parameters from the query string too", async () => {
    const code = (await consent(authorizeUrl("jira"), { account: priya.accountId, decision: "accept" })).searchParams.get("code")!;
    const query = (params: Record<string, string>) =>
      call(`${tokenPath("jira")}?${new URLSearchParams({ ...app("jira"), redirect_uri: REDIRECT, ...params }).toString()}`, {
        method: "POST",
      });
    const res = await query({ grant_type: "authorization_code", code, code_verifier: VERIFIER });
    expect(res.status).toBe(200);
    const renewed = await query({ grant_type: "refresh_token", refresh_token: res.body.refresh_token });
    expect(renewed.status).toBe(200);
    expect(await works(renewed.body.access_token)).toBe(true);
  });

  it("refuses bad clients (401), unknown grant types, missing parameters and bad grants (400)", async () => {
    const badClients: Record<string, string>[] = [
      { client_secret: "wrong" },
      { client_id: CLIENTS.confluence.clientId },
      { client_id: "" },
    ];
    for (const creds of badClients) {
      const res = await token("jira", { grant_type: "authorization_code", code: "x", redirect_uri: REDIRECT, ...creds });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: "invalid_client", error_description: expect.any(String) });
    }
    const cases: [Record<string, string>, string][] = [
      [{ grant_type: "client_credentials" }, "unsupported_grant_type"],
      [{ grant_type: "password" }, "unsupported_grant_type"],
      [{}, "invalid_request"],
      [{ grant_type: "authorization_code", redirect_uri: REDIRECT }, "invalid_request"],
      [{ grant_type: "authorization_code", code: "x" }, "invalid_request"],
      [{ grant_type: "refresh_token", redirect_uri: REDIRECT }, "invalid_request"],
      [{ grant_type: "authorization_code", code: "nope", redirect_uri: REDIRECT }, "invalid_grant"],
      [{ grant_type: "refresh_token", refresh_token: "nope", redirect_uri: REDIRECT }, "invalid_grant"],
    ];
    for (const [form, error] of cases) {
      const res = await token("jira", form);
      expect(res.status, JSON.stringify(form)).toBe(400);
      expect(res.body).toEqual({ error, error_description: expect.stringMatching(/^[A-Z].+\.$|^Unsupported/) });
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
  });
});

describe("refresh tokens and access tokens", () => {
  it("refresh needs the grant's redirect_uri: missing or wrong is invalid_grant", async () => {
    const first = await grant();
    const missing = await token("jira", { grant_type: "refresh_token", refresh_token: first.refresh_token });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: "invalid_grant", error_description: expect.stringContaining("redirect_uri") });
    expect((await refresh(first.refresh_token, { redirect_uri: "http://127.0.0.1:9/elsewhere" })).body.error).toBe("invalid_grant");
    const right = await refresh(first.refresh_token);
    expect(right.status).toBe(200);
    expect(right.body).toMatchObject({ token_type: "bearer", expires_in: 3600, scope: "WRITE" });
  });

  it("rotate with no leeway: the old refresh token is refused at once, and the old access token stops working", async () => {
    const first = await grant();
    const second = (await refresh(first.refresh_token)).body;
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.access_token).not.toBe(first.access_token);
    const reuse = await refresh(first.refresh_token);
    expect(reuse.status).toBe(400);
    expect(reuse.body.error).toBe("invalid_grant");
    expect((await myself(first.access_token)).status).toBe(401);
    expect(await works(second.access_token)).toBe(true);
    expect((await refresh(second.refresh_token)).status).toBe(200);
  });

  it("refresh tokens expire 90 days after issue; access tokens after 3600 s on the OAuth clock", async () => {
    const a = await grant();
    await advance(3599);
    expect(await works(a.access_token)).toBe(true);
    await advance(2);
    expect(await works(a.access_token)).toBe(false);
    await advance(89 * DAY);
    const b = (await refresh(a.refresh_token)).body;
    expect(await works(b.access_token)).toBe(true);
    await advance(90 * DAY + 1);
    const expired = await refresh(b.refresh_token);
    expect(expired.status).toBe(400);
    expect(expired.body).toEqual({ error: "invalid_grant", error_description: expect.stringContaining("expired") });
  });
});

describe("the control API", () => {
  it("mints DC codes with the server's client, the link's default scope and an optional S256 challenge", async () => {
    const mint = (body: Record<string, unknown>) => control("/__sandbox/oauth/codes", { accountId: priya.accountId, ...body });
    expect((await mint({ service: "jira-dc" })).status).toBe(400);
    expect((await mint({ service: "jira-dc", redirectUri: REDIRECT, scope: "REPO_READ" })).status).toBe(400);
    const bb = (await mint({ service: "bitbucket-dc", redirectUri: REDIRECT })).body.code;
    expect((await exchange(bb, { code_verifier: "" }, "bitbucket")).body.scope).toBe("REPO_WRITE");
    const jira = (await mint({ service: "jira-dc", redirectUri: REDIRECT, scope: "ADMIN", codeChallenge: s256(VERIFIER) })).body.code;
    expect((await exchange(jira, { code_verifier: "" })).body.error).toBe("invalid_grant");
    expect((await exchange(jira, {}, "confluence")).body.error).toBe("invalid_grant");
    const ok = await exchange(jira);
    expect(ok.body.scope).toBe("ADMIN");
    expect((await myself(ok.body.access_token)).body.name).toBe("priya.raman");
  });

  it("sets each server's access token lifetime; reset restores it", async () => {
    const set = await control("/__sandbox/oauth/settings", { service: "jira-dc", accessTokenTtlSeconds: 60 });
    expect(set.body).toMatchObject({
      atlassian: { accessTokenTtlSeconds: 3600 },
      bitbucket: { accessTokenTtlSeconds: 7200 },
      "jira-dc": { accessTokenTtlSeconds: 60 },
      "confluence-dc": { accessTokenTtlSeconds: 3600 },
      "bitbucket-dc": { accessTokenTtlSeconds: 3600 },
    });
    const short = await grant();
    expect(short.expires_in).toBe(60);
    await advance(61);
    expect((await myself(short.access_token)).status).toBe(401);
    expect((await grant(priya.accountId, "confluence")).expires_in).toBe(3600);
    await control("/__sandbox/reset", {});
    expect((await control("/__sandbox/oauth/settings")).body["jira-dc"]).toEqual({ accessTokenTtlSeconds: 3600 });
  });

  it("logs DC token calls by server, with grant type, outcome and account", async () => {
    const first = await grant();
    await refresh(first.refresh_token);
    await refresh(first.refresh_token);
    await token("confluence", { grant_type: "refresh_token", refresh_token: "x", client_secret: "wrong" });
    const log = (await control("/__sandbox/oauth/log")).body as any[];
    expect(log.map(({ service, grantType, outcome, accountId }) => ({ service, grantType, outcome, accountId }))).toEqual([
      { service: "jira-dc", grantType: "authorization_code", outcome: "ok", accountId: priya.accountId },
      { service: "jira-dc", grantType: "refresh_token", outcome: "ok", accountId: priya.accountId },
      { service: "jira-dc", grantType: "refresh_token", outcome: "invalid_grant", accountId: priya.accountId },
      { service: "confluence-dc", grantType: "refresh_token", outcome: "invalid_client", accountId: null },
    ]);
  });

  it("the accounts endpoint gives each server's OAuth client", async () => {
    const { body } = await control("/__sandbox/accounts");
    expect(body.dataCenter.oauthClients).toEqual({
      jira: { clientId: "sandbox-dc-jira-client-id", clientSecret: "sandbox-dc-jira-client-secret" },
      confluence: { clientId: "sandbox-dc-confluence-client-id", clientSecret: "sandbox-dc-confluence-client-secret" },
      bitbucket: { clientId: "sandbox-dc-bitbucket-client-id", clientSecret: "sandbox-dc-bitbucket-client-secret" },
    });
  });
});

describe("Cloud OAuth is unchanged", () => {
  it("Cloud and DC grants stay apart: neither's code nor token works on the other", async () => {
    const cloud = (
      await control("/__sandbox/oauth/codes", { service: "atlassian", accountId: priya.accountId, redirectUri: REDIRECT, scope: "read:me" })
    ).body.code;
    expect((await exchange(cloud, { code_verifier: "" })).body.error).toBe("invalid_grant");
    const cloudApp = { client_id: "sandbox-atlassian-client-id", client_secret: "sandbox-atlassian-client-secret" };
    const cloudTokens = await call("/oauth/token", {
      body: { ...cloudApp, grant_type: "authorization_code", code: cloud, redirect_uri: REDIRECT },
    });
    expect(cloudTokens.status).toBe(200);
    expect((await myself(cloudTokens.body.access_token)).status).toBe(401);
    const dc = (await control("/__sandbox/oauth/codes", { service: "jira-dc", accountId: priya.accountId, redirectUri: REDIRECT })).body
      .code;
    const atCloud = await call("/oauth/token", {
      body: { ...cloudApp, grant_type: "authorization_code", code: dc, redirect_uri: REDIRECT },
    });
    expect(atCloud.status).toBe(403);
    // Cloud keeps its 10-minute reuse leeway and needs no redirect_uri to refresh.
    const renewed = await call("/oauth/token", {
      body: { ...cloudApp, grant_type: "refresh_token", refresh_token: cloudTokens.body.refresh_token },
    });
    expect(renewed.status).toBe(200);
    const again = await call("/oauth/token", {
      body: { ...cloudApp, grant_type: "refresh_token", refresh_token: cloudTokens.body.refresh_token },
    });
    expect(again.status).toBe(200);
  });
});
