import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../sandbox/server";
import type { OAuthClientDto } from "../../contract/oauth";
import { createFakeClock, type FakeClock } from "../test/fake-clock";
import {
  APP_REDIRECT,
  authorizeDirect,
  authorizeUrl,
  callProtected,
  createClient,
  credentialsOf,
  expectOAuthError,
  obtainTokens,
  rigForFile,
  startRig,
  tokenRequest,
  type Rig,
} from "./oauth.adversarial.helpers";

/** Issue 9: the smaller holes of the authorization server and the bearer guard. */
describe("OAuth hardening", () => {
  let rig: Rig;
  rigForFile((_sandbox, r) => {
    rig = r;
  });

  it.each([
    ["42 characters", "a".repeat(42)],
    ["129 characters", "a".repeat(129)],
    ["a character outside base64url", `${"a".repeat(42)}+`],
  ])("a code_challenge of %s is invalid_request, sent back to the client", async (_what, challenge) => {
    const client = await createClient(rig);
    const res = await authorizeDirect(authorizeUrl(rig.baseUrl, client.clientId, { challenge, state: "st" }));
    expect(res.status).toBe(302);
    const back = new URL(res.location!);
    expect(`${back.origin}${back.pathname}`).toBe(APP_REDIRECT);
    expect(back.searchParams.get("error")).toBe("invalid_request");
    expect(back.searchParams.get("error_description")).toMatch(/43 to 128 base64url characters/);
    expect(back.searchParams.get("state")).toBe("st");
  });

  it("every bearer challenge names the scope it needs: 401 without a token, with a bad one, and 403 insufficient_scope", async () => {
    const missing = await fetch(`${rig.baseUrl}/api/bitbucket/user`);
    expect(missing.headers.get("www-authenticate")).toMatch(/scope="read"/);
    expect((await callProtected(rig, "bk_at_forged")).challenge).toMatch(/^Bearer error="invalid_token".*scope="read".*resource_metadata=/);
    const writeOnly = await createClient(rig, { scopes: ["write"] });
    const tokens = await tokenRequest(rig, { grant_type: "client_credentials", ...credentialsOf(writeOnly) });
    const res = await callProtected(rig, (tokens.body as { access_token: string }).access_token);
    expect(res.status).toBe(403);
    expect(res.challenge).toMatch(/^Bearer error="insufficient_scope".*scope="read"/);
  });

  // Last: it leaves this address refused for a minute.
  it("an address presenting bad tokens again and again is refused for a while, even with a good one", async () => {
    const client = await createClient(rig);
    const good = (await obtainTokens(rig, client)).access_token;
    expect((await callProtected(rig, good)).status).toBe(200);
    // 20 bad tokens a minute per address (one was spent above): then 429, for any token.
    let refusedAfter = 0;
    while (refusedAfter < 30 && (await callProtected(rig, `bk_at_guess${refusedAfter}`)).status === 401) refusedAfter++;
    expect(refusedAfter).toBeGreaterThanOrEqual(18);
    expect(refusedAfter).toBeLessThanOrEqual(20);
    const refused = await fetch(`${rig.baseUrl}/api/bitbucket/user`, { headers: { authorization: `Bearer ${good}` } });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    const body = (await refused.json()) as { error: { code: string }; requestId: string };
    expect(body.error.code).toBe("rate_limited");
    expect(body.requestId).toBe(refused.headers.get("x-request-id"));
  });
});

/**
 * Issue 9, hole 12: two refreshes racing with one token used to revoke the whole family (right by
 * RFC 9700, but clients that refresh in parallel were logged out). Within a short window the
 * rotated token yields the same new pair; after it, a replay still revokes everything.
 */
describe("refresh: a grace window for parallel refreshes (OAUTH_REFRESH_GRACE_SECONDS)", () => {
  let sandbox: Sandbox;
  let rig: Rig;
  let clock: FakeClock;
  let client: OAuthClientDto;
  beforeAll(async () => {
    sandbox = await startSandbox();
    // Started at the real time: the SDK's bearer middleware also compares expiry with Date.now().
    clock = createFakeClock(new Date());
    rig = await startRig(sandbox.url, { clock, config: { OAUTH_REFRESH_GRACE_SECONDS: 5 } });
    client = await createClient(rig);
  });
  afterAll(async () => {
    await rig?.t.close();
    await sandbox?.close();
  });
  const refresh = (token: string) => tokenRequest(rig, { grant_type: "refresh_token", refresh_token: token, ...credentialsOf(client) });
  type Pair = { access_token: string; refresh_token: string };

  it("parallel refreshes with one token all get the same new pair, and it works", async () => {
    const tokens = await obtainTokens(rig, client);
    const results = await Promise.all([refresh(tokens.refresh_token!), refresh(tokens.refresh_token!), refresh(tokens.refresh_token!)]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    const pairs = results.map((r) => r.body as Pair);
    expect(new Set(pairs.map((p) => p.access_token)).size).toBe(1);
    expect(new Set(pairs.map((p) => p.refresh_token)).size).toBe(1);
    expect((await callProtected(rig, pairs[0]!.access_token)).status).toBe(200);
    expect((await refresh(pairs[0]!.refresh_token)).status).toBe(200);
  });

  it("within the window a replay gets the same pair again; after it, the replay revokes the family", async () => {
    const tokens = await obtainTokens(rig, client);
    const first = (await refresh(tokens.refresh_token!)).body as Pair;
    clock.advance(4_000);
    const again = await refresh(tokens.refresh_token!);
    expect(again.status).toBe(200);
    expect((again.body as Pair).refresh_token).toBe(first.refresh_token);
    clock.advance(2_000);
    expectOAuthError(await refresh(tokens.refresh_token!), 400, "invalid_grant");
    expect((await callProtected(rig, first.access_token)).status).toBe(401);
    expectOAuthError(await refresh(first.refresh_token), 400, "invalid_grant");
  });

  it("the successor is not kept past the window", async () => {
    const tokens = await obtainTokens(rig, client);
    await refresh(tokens.refresh_token!);
    clock.advance(6_000);
    await rig.t.container.services.oauthTokens.prune();
    const rows = (await rig.t.container.database.db.execute(
      "select count(*)::int as n from oauth_tokens where successor_sealed is not null",
    )) as unknown as { rows: { n: number }[] };
    expect(rows.rows[0]!.n).toBe(0);
  });
});
