// @pglite-only: sandbox
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_CREDENTIALS } from "../credentials";
import { startSandbox, type Sandbox } from "../server";
import { DEFAULT_PEOPLE } from "./people";
import { basic, bearer, caller, REDIRECT, s256 } from "./testkit";

/**
 * The imitated Bitbucket OAuth consumer flow: consent ("Grant access" / "Deny"), the token endpoint
 * (the consumer's key and secret by Basic or in the form), a Bearer access token acting as the
 * person on /2.0, refresh tokens that do not rotate, and access tokens that expire.
 */

let sandbox: Sandbox;
const { call, control, consent, consentForm } = caller(() => sandbox);
const marcus = DEFAULT_PEOPLE[1]!;
const CONSUMER = basic("sandbox-bitbucket-key", "sandbox-bitbucket-secret");
const VERIFIER = "bitbucket-verifier-bitbucket-verifier-bitbucket-verifier";

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await control("/__sandbox/reset", {});
});

const authorizeUrl = (extra: Record<string, string> = {}) =>
  `/site/oauth2/authorize?${new URLSearchParams({
    client_id: "sandbox-bitbucket-key",
    response_type: "code",
    state: "bb-7",
    redirect_uri: REDIRECT,
    code_challenge: s256(VERIFIER),
    code_challenge_method: "S256",
    ...extra,
  }).toString()}`;

const tokenCall = (form: Record<string, string>, auth: string | undefined = CONSUMER) => call("/site/oauth2/access_token", { auth, form });
const exchange = (code: string, extra: Record<string, string> = {}) =>
  tokenCall({ grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: VERIFIER, ...extra });

async function grantAs(accountId: string) {
  const to = await consent(authorizeUrl(), { account: accountId, decision: "accept" });
  expect(to.searchParams.get("state")).toBe("bb-7");
  const res = await exchange(to.searchParams.get("code")!);
  expect(res.status).toBe(200);
  return res.body;
}

describe("Bitbucket's OAuth consumer flow", () => {
  it("asks who you are, and Deny redirects with access_denied", async () => {
    const { html } = await consentForm(authorizeUrl());
    expect(html).toContain("Bridgekeeper is requesting access to your Bitbucket account");
    expect(html).toContain(">Grant access</button>");
    expect(html).toContain(">Deny</button>");
    expect(html).toContain("Marcus Chen");
    const to = await consent(authorizeUrl(), { decision: "cancel" });
    expect(to.searchParams.get("error")).toBe("access_denied");
    expect(to.searchParams.get("state")).toBe("bb-7");
    expect(to.searchParams.get("code")).toBeNull();
    for (const bad of [{ client_id: "nope" }, { response_type: "token" }, { redirect_uri: "javascript:alert(1)" }] as Record<
      string,
      string
    >[]) {
      const res = await call(authorizeUrl(bad));
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.headers.get("location")).toBeNull();
    }
  });

  it("issues Bitbucket's token response, and the access token acts as the person on /2.0", async () => {
    const tokens = await grantAs(marcus.accountId);
    expect(tokens).toEqual({
      access_token: expect.any(String),
      token_type: "bearer",
      expires_in: 7200,
      refresh_token: expect.any(String),
      scopes: expect.stringContaining("pullrequest"),
      state: "authorization_code",
    });
    const auth = bearer(tokens.access_token);
    expect((await call("/2.0/user", { auth })).body).toMatchObject({
      account_id: marcus.accountId,
      uuid: marcus.uuid,
      nickname: marcus.nickname,
      display_name: "Marcus Chen",
    });
    const repos = await call("/2.0/repositories/bridgekeeper?pagelen=100", { auth });
    expect(repos.body.size).toBe(marcus.bitbucketRepos.length);
    expect((await call("/2.0/repositories/bridgekeeper/api-gateway", { auth })).status).toBe(404);
    // A Bitbucket token opens neither Jira nor the gateway.
    expect((await call("/rest/api/3/myself", { auth })).status).toBe(401);
    expect((await call(`/ex/jira/${sandbox.credentials.cloudId}/rest/api/3/myself`, { auth })).status).toBe(401);
  });

  it("does not rotate refresh tokens: the same one keeps working, with the consumer in the form", async () => {
    const first = await grantAs(marcus.accountId);
    const form = {
      grant_type: "refresh_token",
      refresh_token: first.refresh_token,
      client_id: "sandbox-bitbucket-key",
      client_secret: "sandbox-bitbucket-secret",
    };
    const second = await tokenCall(form, undefined);
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).toBe(first.refresh_token);
    expect(second.body.access_token).not.toBe(first.access_token);
    const third = await tokenCall(form, undefined);
    expect(third.status).toBe(200);
    expect((await call("/2.0/user", { auth: bearer(third.body.access_token) })).status).toBe(200);
    const log = ((await control("/__sandbox/oauth/log")).body as any[]).map((e) => [e.service, e.grantType, e.outcome, e.accountId]);
    expect(log).toEqual([
      ["bitbucket", "authorization_code", "ok", marcus.accountId],
      ["bitbucket", "refresh_token", "ok", marcus.accountId],
      ["bitbucket", "refresh_token", "ok", marcus.accountId],
    ]);
  });

  it("access tokens expire (two hours, or as configured)", async () => {
    await control("/__sandbox/oauth/settings", { service: "bitbucket", accessTokenTtlSeconds: 30 });
    const tokens = await grantAs(marcus.accountId);
    expect(tokens.expires_in).toBe(30);
    await control("/__sandbox/clock", { advanceSeconds: 31 });
    const expired = await call("/2.0/user", { auth: bearer(tokens.access_token) });
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ type: "error", error: { message: "Access token expired." } });
    const renewed = await tokenCall({ grant_type: "refresh_token", refresh_token: tokens.refresh_token });
    expect((await call("/2.0/user", { auth: bearer(renewed.body.access_token) })).status).toBe(200);
  });

  it("refuses a reused code, a wrong verifier or redirect URI (400 invalid_grant) and a bad consumer secret (401)", async () => {
    const to = await consent(authorizeUrl(), { account: marcus.accountId, decision: "accept" });
    const code = to.searchParams.get("code")!;
    expect((await exchange(code, { code_verifier: "not-the-verifier-not-the-verifier-not-the-verifier" })).body.error).toBe(
      "invalid_grant",
    );
    expect((await exchange(code, { redirect_uri: "http://127.0.0.1:9/other" })).body.error).toBe("invalid_grant");
    const bad = await exchange(code, {});
    expect(bad.status).toBe(200);
    const reused = await exchange(code);
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe("invalid_grant");
    expect((await call("/2.0/user", { auth: bearer(bad.body.access_token) })).status).toBe(401);
    const wrong = await tokenCall({ grant_type: "refresh_token", refresh_token: "x" }, basic("sandbox-bitbucket-key", "wrong"));
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe("invalid_client");
    expect((await tokenCall({ grant_type: "password" })).body.error).toBe("unsupported_grant_type");
  });
});

describe("a consumer with a callback URL", () => {
  let withCallback: Sandbox;
  beforeAll(async () => {
    withCallback = await startSandbox({
      credentials: { ...DEFAULT_CREDENTIALS, bitbucketConsumer: { ...DEFAULT_CREDENTIALS.bitbucketConsumer, callbackUrl: REDIRECT } },
    });
  });
  afterAll(() => withCallback.close());

  it("redirects there when the request names no redirect_uri (and the token request then names none)", async () => {
    const other = caller(() => withCallback);
    const to = await other.consent("/site/oauth2/authorize?client_id=sandbox-bitbucket-key&response_type=code", {
      account: marcus.accountId,
      decision: "accept",
    });
    expect(`${to.origin}${to.pathname}`).toBe(REDIRECT);
    const res = await other.call("/site/oauth2/access_token", {
      auth: CONSUMER,
      form: { grant_type: "authorization_code", code: to.searchParams.get("code")! },
    });
    expect(res.status).toBe(200);
    expect((await call("/site/oauth2/authorize?client_id=sandbox-bitbucket-key&response_type=code")).status).toBe(400);
  });
});
