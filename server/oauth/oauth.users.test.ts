import { describe, expect, it } from "vitest";
import { buildUser, signIn } from "../test/factories";
import type { TestClient } from "../test/http-client";
import { pkce } from "../test/oauth";
import { authorizeUrl, callProtected, createClient, credentialsOf, obtainTokens, rigForFile, tokenRequest, type Rig } from "./oauth.adversarial.helpers";

/** What a consenting user may hand on, and how their OAuth access follows their account (D3, D4). */
describe("OAuth: consenting users", () => {
  let rig: Rig;
  rigForFile((_sandbox, r) => {
    rig = r;
  });

  /** A rig whose consenting user is a fresh user holding `roles`. */
  async function asUser(roles: string[]): Promise<{ rig: Rig; id: string }> {
    const user = await buildUser(rig.t.container, { roles });
    const client: TestClient = rig.t.client();
    await signIn(client, user);
    return { rig: { ...rig, user: client }, id: user.row.id };
  }

  it("a viewer may not hand on the write scope: the consent page says so, and the grant is read only", async () => {
    const { rig: viewerRig } = await asUser(["viewer"]);
    const client = await createClient(rig);
    const { challenge } = pkce();
    const location = (await fetch(authorizeUrl(rig.baseUrl, client.clientId, { challenge, scope: "read write" }), { redirect: "manual" })).headers.get("location")!;
    const shown = await viewerRig.user.get(`/api/oauth${location.replace("/oauth-consent", "/requests")}`);
    expect(shown.body).toMatchObject({ scopes: ["read"], withheldScopes: ["write"] });
    const tokens = await obtainTokens(viewerRig, client, { scope: "read write" });
    expect(tokens.scope).toBe("read");
    expect((await callProtected(rig, tokens.access_token)).status).toBe(200);
  });

  it("deactivating the user ends their OAuth access at once: access tokens and refresh", async () => {
    const { rig: userRig, id } = await asUser(["operator"]);
    const client = await createClient(rig);
    const tokens = await obtainTokens(userRig, client, { scope: "read write" });
    expect(tokens.scope).toBe("read write");
    expect((await callProtected(rig, tokens.access_token)).status).toBe(200); // now cached as valid
    expect((await rig.admin.request("PUT", `/api/users/${id}`, { json: { isActive: false } })).status).toBe(200);
    expect((await callProtected(rig, tokens.access_token)).status).toBe(401);
    const refreshed = await tokenRequest(rig, { grant_type: "refresh_token", refresh_token: tokens.refresh_token!, ...credentialsOf(client) });
    expect(refreshed.status).toBe(400);
    expect((refreshed.body as { error: string }).error).toBe("invalid_grant");
    // reactivated, the old authorization stays revoked
    await rig.admin.request("PUT", `/api/users/${id}`, { json: { isActive: true } });
    expect((await callProtected(rig, tokens.access_token)).status).toBe(401);
  });

  it("deleting the user ends their OAuth access at once", async () => {
    const { rig: userRig, id } = await asUser(["operator"]);
    const client = await createClient(rig);
    const tokens = await obtainTokens(userRig, client);
    expect((await callProtected(rig, tokens.access_token)).status).toBe(200);
    expect((await rig.admin.request("DELETE", `/api/users/${id}`)).status).toBe(204);
    expect((await callProtected(rig, tokens.access_token)).status).toBe(401);
  });
});
