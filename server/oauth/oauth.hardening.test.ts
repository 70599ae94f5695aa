import { describe, expect, it } from "vitest";
import { APP_REDIRECT, authorizeDirect, authorizeUrl, callProtected, createClient, obtainTokens, rigForFile, tokenRequest, credentialsOf, type Rig } from "./oauth.adversarial.helpers";

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
    expect(await refused.json()).toMatchObject({ error: "rate_limited" });
  });
});
