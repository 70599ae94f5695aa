// @pglite-only: sandbox
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../server";
import { DEFAULT_PEOPLE } from "./people";
import { bearer, caller, REDIRECT, s256 } from "./testkit";

/**
 * The imitated auth.atlassian.com: the consent page posted as a browser would, the token endpoint
 * with Atlassian's rules (single-use codes bound to their redirect URI and PKCE verifier, rotating
 * refresh tokens with a 10-minute reuse leeway, family revocation, 90-day idle and 365-day limits),
 * on the sandbox's OAuth clock, and the call log tests count.
 */

let sandbox: Sandbox;
const { call, control, consent, consentForm } = caller(() => sandbox);
const priya = DEFAULT_PEOPLE[0]!;
const APP = { client_id: "sandbox-atlassian-client-id", client_secret: "sandbox-atlassian-client-secret" };
const VERIFIER = "a-verifier-that-is-long-enough-to-be-a-real-pkce-code-verifier";
const DAY = 86_400;

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await control("/__sandbox/reset", {});
});

const authorizeUrl = (extra: Record<string, string> = {}) =>
  `/authorize?${new URLSearchParams({
    audience: "api.atlassian.com",
    client_id: APP.client_id,
    scope: "read:jira-work read:confluence-content.all offline_access",
    redirect_uri: REDIRECT,
    state: "st-42",
    response_type: "code",
    prompt: "consent",
    code_challenge: s256(VERIFIER),
    code_challenge_method: "S256",
    ...extra,
  }).toString()}`;

const token = (body: Record<string, string>) => call("/oauth/token", { body: { ...APP, ...body } });
const exchange = (code: string, extra: Record<string, string> = {}) =>
  token({ grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: VERIFIER, ...extra });
const refresh = (refreshToken: string) => token({ grant_type: "refresh_token", refresh_token: refreshToken });
const advance = (seconds: number) => control("/__sandbox/clock", { advanceSeconds: seconds });
/** Whether an access token still opens the API gateway. */
const works = async (accessToken: string) =>
  (await call(`/ex/jira/${sandbox.credentials.cloudId}/rest/api/3/myself`, { auth: bearer(accessToken) })).status === 200;

/** A code as if Priya had consented (the control API), exchanged for tokens. */
async function grant(): Promise<{ access_token: string; refresh_token: string }> {
  const { body } = await control("/__sandbox/oauth/codes", {
    service: "atlassian",
    accountId: priya.accountId,
    redirectUri: REDIRECT,
    scope: "read:jira-work offline_access",
    codeChallenge: s256(VERIFIER),
  });
  const res = await exchange(body.code);
  expect(res.status).toBe(200);
  return res.body;
}

describe("the consent page", () => {
  it("names the app, the scopes, every account and both sites, with labelled controls", async () => {
    const { html, action, fields } = await consentForm(authorizeUrl());
    expect(html).toContain("Bridgekeeper wants to access your Atlassian account");
    for (const text of [
      "read:jira-work",
      "offline_access",
      "Demo Admin",
      "Priya Raman",
      priya.email,
      "Marcus Chen",
      sandbox.url,
      "https://other-team.atlassian.net",
    ])
      expect(html).toContain(text);
    expect(html).toMatch(
      /<label for="account-1"><input type="radio" id="account-1" name="account" value="712020:7ee0b909[^"]*" required> Priya Raman/,
    );
    expect(html).toMatch(new RegExp(`id="site-0" name="site" value="${sandbox.credentials.cloudId}" checked> ${sandbox.url}<`));
    expect(html).toContain('<button type="submit" name="decision" value="accept">Accept</button>');
    expect(html).toContain('value="cancel" formnovalidate>Cancel</button>');
    expect(action).toBe("/authorize");
    expect(fields).toMatchObject({ client_id: APP.client_id, redirect_uri: REDIRECT, state: "st-42", code_challenge: s256(VERIFIER) });
  });

  it("refuses a bad request with an error page, never a redirect", async () => {
    for (const bad of [
      { client_id: "someone-else" },
      { redirect_uri: "javascript:alert(1)" },
      { redirect_uri: "not a url" },
      { audience: "elsewhere" },
      { response_type: "token" },
      { scope: "" },
      { code_challenge_method: "plain" },
    ] as Record<string, string>[]) {
      const res = await call(authorizeUrl(bad));
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      expect(res.headers.get("content-type")).toContain("text/html");
    }
    const posted = await call("/authorize", {
      form: { ...Object.fromEntries(new URL(authorizeUrl(), "http://x").searchParams), redirect_uri: "ftp://x/y", decision: "accept" },
    });
    expect(posted.status).toBe(400);
    expect(posted.headers.get("location")).toBeNull();
  });

  it("Cancel redirects with access_denied and the state", async () => {
    const to = await consent(authorizeUrl(), { decision: "cancel" });
    expect(`${to.origin}${to.pathname}`).toBe(REDIRECT);
    expect(to.search).toBe("?error=access_denied&error_description=User%20did%20not%20authorize%20the%20request&state=st-42");
  });

  it("Accept without choosing who you are asks again", async () => {
    const { fields } = await consentForm(authorizeUrl());
    const res = await call("/authorize", { form: { ...fields, decision: "accept" } });
    expect(res.status).toBe(400);
    expect(res.body).toContain("Choose who you are.");
  });
});

describe("authorization codes", () => {
  it("runs the whole flow: consent as Priya, code, tokens, sites, who", async () => {
    const to = await consent(authorizeUrl(), { account: priya.accountId, site: sandbox.credentials.cloudId, decision: "accept" });
    expect(to.searchParams.get("state")).toBe("st-42");
    const code = to.searchParams.get("code")!;
    const res = await exchange(code);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body).toEqual({
      access_token: expect.any(String),
      token_type: "Bearer",
      expires_in: 3600,
      refresh_token: expect.any(String),
      scope: "read:jira-work read:confluence-content.all offline_access",
    });
    const sites = await call("/oauth/token/accessible-resources", { auth: bearer(res.body.access_token) });
    expect(sites.body).toEqual([
      {
        id: sandbox.credentials.cloudId,
        url: sandbox.url,
        name: expect.any(String),
        scopes: ["read:jira-work", "read:confluence-content.all", "offline_access"],
        avatarUrl: expect.any(String),
      },
    ]);
    const me = await call("/me", { auth: bearer(res.body.access_token) });
    expect(me.body).toMatchObject({
      account_id: priya.accountId,
      email: priya.email,
      name: "Priya Raman",
      nickname: priya.nickname,
      account_status: "active",
    });
    expect(me.body.picture).toMatch(/^http/);
    expect((await call("/me", { auth: bearer("nope") })).status).toBe(401);
  });

  it("takes a form-encoded token request too", async () => {
    const { body } = await control("/__sandbox/oauth/codes", {
      service: "atlassian",
      accountId: priya.accountId,
      redirectUri: REDIRECT,
      scope: "read:me",
      // Absent parameters copied from an authorize URL arrive as null.
      codeChallenge: null,
      cloudId: null,
    });
    const res = await call("/oauth/token", { form: { ...APP, grant_type: "authorization_code", code: body.code, redirect_uri: REDIRECT } });
    expect(res.status).toBe(200);
    expect(res.body.scope).toBe("read:me");
  });

  it("a reused code is invalid_grant and revokes the tokens issued from it", async () => {
    const to = await consent(authorizeUrl(), { account: priya.accountId, decision: "accept" });
    const code = to.searchParams.get("code")!;
    const first = await exchange(code);
    expect(await works(first.body.access_token)).toBe(true);
    const again = await exchange(code);
    expect(again.status).toBe(403);
    expect(again.body.error).toBe("invalid_grant");
    expect(await works(first.body.access_token)).toBe(false);
    expect((await refresh(first.body.refresh_token)).status).toBe(403);
  });

  it("checks the PKCE verifier, the redirect URI and the code's 10 minutes", async () => {
    const to = await consent(authorizeUrl(), { account: priya.accountId, decision: "accept" });
    const code = to.searchParams.get("code")!;
    expect((await exchange(code, { code_verifier: "the-wrong-verifier-the-wrong-verifier-the-wrong" })).body.error).toBe("invalid_grant");
    expect((await token({ grant_type: "authorization_code", code, redirect_uri: REDIRECT })).body.error).toBe("invalid_grant");
    expect((await exchange(code, { redirect_uri: "http://127.0.0.1:9/elsewhere" })).body.error).toBe("invalid_grant");
    expect((await exchange(code)).status).toBe(200);
    const late = (await consent(authorizeUrl(), { account: priya.accountId, decision: "accept" })).searchParams.get("code")!;
    await advance(601);
    const expired = await exchange(late);
    expect(expired.status).toBe(403);
    expect(expired.body).toMatchObject({ error: "invalid_grant", error_description: expect.stringContaining("expired") });
  });

  it("refuses bad client credentials (401) and unknown grant types (400)", async () => {
    const bad = await token({ grant_type: "refresh_token", refresh_token: "x", client_secret: "wrong" });
    expect(bad.status).toBe(401);
    expect(bad.body.error).toBe("access_denied");
    expect((await token({ grant_type: "client_credentials" })).body).toMatchObject({ error: "unsupported_grant_type" });
    expect((await token({ grant_type: "client_credentials" })).status).toBe(400);
  });
});

describe("refresh tokens", () => {
  it("rotate: each refresh answers a new pair; the old one works again only within the 10-minute leeway", async () => {
    const first = await grant();
    const second = (await refresh(first.refresh_token)).body;
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.access_token).not.toBe(first.access_token);
    await advance(5 * 60);
    const retry = await refresh(first.refresh_token);
    expect(retry.status).toBe(200);
    expect(retry.body.refresh_token).not.toBe(second.refresh_token);
    const third = (await refresh(second.refresh_token)).body;
    expect(await works(third.access_token)).toBe(true);
    await advance(6 * 60);
    const replay = await refresh(first.refresh_token);
    expect(replay.status).toBe(403);
    expect(replay.body).toEqual({ error: "invalid_grant", error_description: "Unknown or invalid refresh token." });
    // The whole family is revoked: the newest access and refresh tokens stop working too.
    expect(await works(third.access_token)).toBe(false);
    expect((await refresh(third.refresh_token)).status).toBe(403);
    expect((await refresh(retry.body.refresh_token)).status).toBe(403);
  });

  it("expire after 90 days unused, and the family after 365 days in all", async () => {
    const a = await grant();
    await advance(89 * DAY);
    const b = (await refresh(a.refresh_token)).body;
    expect(b.refresh_token).toEqual(expect.any(String));
    await advance(91 * DAY);
    const idle = await refresh(b.refresh_token);
    expect(idle.status).toBe(403);
    expect(idle.body.error_description).toContain("90 days");

    let current = (await grant()).refresh_token;
    for (let day = 80; day <= 320; day += 80) {
      await advance(80 * DAY);
      const next = await refresh(current);
      expect(next.status, `day ${day}`).toBe(200);
      current = next.body.refresh_token;
    }
    await advance(46 * DAY);
    const old = await refresh(current);
    expect(old.status).toBe(403);
    expect(old.body.error_description).toContain("365 days");
  });
});

describe("access tokens and the control API", () => {
  it("live 3600 s unless configured, and stop working when they expire", async () => {
    expect((await control("/__sandbox/oauth/settings", { accessTokenTtlSeconds: 60 })).body.atlassian).toEqual({
      accessTokenTtlSeconds: 60,
    });
    const short = await grant();
    expect(await works(short.access_token)).toBe(true);
    await advance(61);
    expect(await works(short.access_token)).toBe(false);
    expect((await call(`/ex/jira/${sandbox.credentials.cloudId}/rest/api/3/myself`, { auth: bearer(short.access_token) })).status).toBe(
      401,
    );
    const renewed = await refresh(short.refresh_token);
    expect(renewed.body.expires_in).toBe(60);
    expect(await works(renewed.body.access_token)).toBe(true);
    expect((await control("/__sandbox/oauth/settings", { accessTokenTtlSeconds: 0 })).status).toBe(400);
  });

  it("logs every token call in order, with its outcome and account; reset clears it and the settings", async () => {
    await control("/__sandbox/oauth/settings", { accessTokenTtlSeconds: 5 });
    const first = await grant();
    await refresh(first.refresh_token);
    await token({ grant_type: "refresh_token", refresh_token: "unknown" });
    await token({ grant_type: "refresh_token", refresh_token: "x", client_secret: "wrong" });
    const log = (await control("/__sandbox/oauth/log")).body as any[];
    expect(log.map(({ service, grantType, outcome, accountId }) => ({ service, grantType, outcome, accountId }))).toEqual([
      { service: "atlassian", grantType: "authorization_code", outcome: "ok", accountId: priya.accountId },
      { service: "atlassian", grantType: "refresh_token", outcome: "ok", accountId: priya.accountId },
      { service: "atlassian", grantType: "refresh_token", outcome: "invalid_grant", accountId: null },
      { service: "atlassian", grantType: "refresh_token", outcome: "access_denied", accountId: null },
    ]);
    expect(log.filter((e) => e.grantType === "refresh_token" && e.outcome === "ok")).toHaveLength(1);
    expect(log[1].at).toBeGreaterThanOrEqual(log[0].at);
    await control("/__sandbox/reset", {});
    expect((await control("/__sandbox/oauth/log")).body).toEqual([]);
    expect((await control("/__sandbox/oauth/settings")).body.atlassian.accessTokenTtlSeconds).toBe(3600);
    expect(await works(first.access_token)).toBe(false);
  });

  it("the accounts endpoint gives the app, the consumer, the site and the people (their tokens, nothing else secret)", async () => {
    const { body } = await control("/__sandbox/accounts");
    expect(body).toMatchObject({
      atlassianApp: { clientId: APP.client_id, clientSecret: APP.client_secret },
      bitbucketConsumer: { key: "sandbox-bitbucket-key", secret: "sandbox-bitbucket-secret" },
      cloudId: sandbox.credentials.cloudId,
      siteUrl: sandbox.url,
      otherSite: { url: "https://other-team.atlassian.net", name: "other-team" },
    });
    expect(body.people).toHaveLength(3);
    expect(body.people[0]).toEqual({
      accountId: priya.accountId,
      displayName: "Priya Raman",
      email: priya.email,
      apiToken: "sandbox-token-priya",
      nickname: "priya.raman",
    });
  });
});
