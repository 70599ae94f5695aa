import { describe, expect, it } from "vitest";
import { buildUser, signIn } from "../test/factories";
import type { TestClient } from "../test/http-client";
import { pkce } from "../test/oauth";
import {
  authorizeUrl,
  callProtected,
  createClient,
  credentialsOf,
  obtainTokens,
  rigForFile,
  tokenRequest,
  type Rig,
} from "./oauth.adversarial.helpers";

/** What a consenting user may hand on, and how their OAuth access follows their account (docs/decisions.md#roles-and-permissions, #inactive-users). */
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
    const location = (
      await fetch(authorizeUrl(rig.baseUrl, client.clientId, { challenge, scope: "read write" }), { redirect: "manual" })
    ).headers.get("location")!;
    const shown = await viewerRig.user.get(`/api/oauth${location.replace("/oauth-consent", "/requests")}`);
    expect(shown.body).toMatchObject({ scopes: ["read"], withheldScopes: ["write"] });
    const tokens = await obtainTokens(viewerRig, client, { scope: "read write" });
    expect(tokens.scope).toBe("read");
    expect((await callProtected(rig, tokens.access_token)).status).toBe(200);
  });

  it("the consent page lists the rights the client will actually have (scopes ∩ role ∩ policy), its limits, and whose accounts its calls run as", async () => {
    const { rig: operatorRig } = await asUser(["operator"]);
    const client = await createClient(rig, { name: "Read-only by policy" });
    const consentFor = async (who: Rig) => {
      const location = (
        await fetch(authorizeUrl(rig.baseUrl, client.clientId, { challenge: pkce().challenge, scope: "read write" }), {
          redirect: "manual",
        })
      ).headers.get("location")!;
      const shown = await who.user.get(`/api/oauth${location.replace("/oauth-consent", "/requests")}`);
      expect(shown.status).toBe(200);
      return shown.body;
    };
    // Open policy: read and write, no limits; Bitbucket is configured (the rig), Atlassian is not.
    expect(await consentFor(operatorRig)).toMatchObject({
      scopes: ["read", "write"],
      withheldScopes: [],
      idleScopes: [],
      limits: null,
      actsAs: { atlassian: null, bitbucket: "demo" },
    });

    expect(
      (
        await rig.admin.put(`/api/admin/oauth-clients/${client.clientId}/policy`, {
          readOnly: true,
          jiraProjects: ["BK"],
          bitbucketRepositories: ["api-gateway"],
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await rig.admin.post("/api/admin/atlassian-config", {
          instanceUrl: "https://acme.atlassian.net",
          email: "robot@acme.example",
          apiToken: "tok",
          isActive: true,
        })
      ).status,
    ).toBe(200);
    expect(await consentFor(operatorRig)).toMatchObject({
      scopes: ["read"],
      idleScopes: ["write"],
      limits: { jiraProjects: ["BK"], confluenceSpaces: null, bitbucketRepositories: ["api-gateway"] },
      actsAs: { atlassian: "robot@acme.example", bitbucket: "demo" },
    });
    // The token still carries what was consented: the policy, not the grant, decides (and may change).
    const tokens = await obtainTokens(operatorRig, client, { scope: "read write" });
    expect(tokens.scope).toBe("read write");
    expect(
      (
        await rig.admin.post("/api/admin/atlassian-config", {
          instanceUrl: "https://acme.atlassian.net",
          email: "robot@acme.example",
          apiToken: "tok",
          isActive: false,
        })
      ).status,
    ).toBe(200);
    expect((await consentFor(operatorRig)).actsAs).toEqual({ atlassian: null, bitbucket: "demo" });
  });

  it("deactivating the user ends their OAuth access at once: access tokens and refresh", async () => {
    const { rig: userRig, id } = await asUser(["operator"]);
    const client = await createClient(rig);
    const tokens = await obtainTokens(userRig, client, { scope: "read write" });
    expect(tokens.scope).toBe("read write");
    expect((await callProtected(rig, tokens.access_token)).status).toBe(200); // now cached as valid
    expect((await rig.admin.request("PUT", `/api/users/${id}`, { json: { isActive: false } })).status).toBe(200);
    expect((await callProtected(rig, tokens.access_token)).status).toBe(401);
    const refreshed = await tokenRequest(rig, {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token!,
      ...credentialsOf(client),
    });
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

  describe("access follows the user's permissions now, not at the moment of consent (issue 9)", () => {
    const scopesOf = (token: string) => rig.t.container.services.oauthTokens.verifyAccessToken(token).then((info) => info.scopes);
    const roleId = async (name: string) =>
      ((await rig.admin.get("/api/roles")).body as { id: string; name: string }[]).find((r) => r.name === name)!.id;
    const refresh = (client: Awaited<ReturnType<typeof createClient>>, refreshToken: string) =>
      tokenRequest(rig, { grant_type: "refresh_token", refresh_token: refreshToken, ...credentialsOf(client) });

    it("an operator demoted to viewer loses the write scope at once: cached checks, access tokens and refresh", async () => {
      const { rig: userRig, id } = await asUser(["operator"]);
      const client = await createClient(rig);
      const tokens = await obtainTokens(userRig, client, { scope: "read write" });
      expect(await scopesOf(tokens.access_token)).toEqual(["read", "write"]); // now cached
      expect((await rig.admin.request("PUT", `/api/users/${id}/roles`, { json: { roleIds: [await roleId("viewer")] } })).status).toBe(200);
      expect(await scopesOf(tokens.access_token)).toEqual(["read"]);
      expect((await callProtected(rig, tokens.access_token)).status).toBe(200);
      const refreshed = await refresh(client, tokens.refresh_token!);
      expect(refreshed.status).toBe(200);
      expect((refreshed.body as { scope: string }).scope).toBe("read");
    });

    it("a user stripped of every role loses all access at once", async () => {
      const { rig: userRig, id } = await asUser(["operator"]);
      const client = await createClient(rig);
      const tokens = await obtainTokens(userRig, client);
      expect((await callProtected(rig, tokens.access_token)).status).toBe(200);
      expect((await rig.admin.request("PUT", `/api/users/${id}/roles`, { json: { roleIds: [] } })).status).toBe(200);
      expect((await callProtected(rig, tokens.access_token)).status).toBe(401);
      expect((await refresh(client, tokens.refresh_token!)).status).toBe(400);
    });

    it("a change to a custom role narrows, and deactivating it revokes, its holders' grants", async () => {
      const role = (await rig.admin.post("/api/roles", { name: `mcp-writers-${Date.now()}`, permissions: ["mcp.read", "mcp.write"] })).body;
      const { rig: userRig } = await asUser([role.name]);
      const client = await createClient(rig);
      const tokens = await obtainTokens(userRig, client, { scope: "read write" });
      expect(await scopesOf(tokens.access_token)).toEqual(["read", "write"]);
      expect((await rig.admin.request("PUT", `/api/roles/${role.id}`, { json: { permissions: ["mcp.read"] } })).status).toBe(200);
      expect(await scopesOf(tokens.access_token)).toEqual(["read"]);
      expect((await rig.admin.request("PUT", `/api/roles/${role.id}`, { json: { isActive: false } })).status).toBe(200);
      expect((await callProtected(rig, tokens.access_token)).status).toBe(401);
    });

    it("a user without mcp.read is told so on the consent page, cannot approve, and can still deny", async () => {
      const { rig: userRig } = await asUser([]);
      const client = await createClient(rig);
      const { challenge } = pkce();
      const location = (await fetch(authorizeUrl(rig.baseUrl, client.clientId, { challenge }), { redirect: "manual" })).headers.get(
        "location",
      )!;
      const path = `/api/oauth${location.replace("/oauth-consent", "/requests")}`;
      const shown = await userRig.user.get(path);
      expect(shown.status).toBe(200);
      expect(shown.body).toMatchObject({ scopes: [], refusal: expect.stringMatching(/needs the mcp\.read permission/) });
      const approve = await userRig.user.post(`${path}/decision`, { approve: true }, { origin: rig.baseUrl });
      expect(approve.status).toBe(403);
      expect(approve.body.error.message).toMatch(/needs the mcp\.read permission/);
      const deny = await userRig.user.post(`${path}/decision`, { approve: false }, { origin: rig.baseUrl });
      expect(deny.status).toBe(200);
      expect(new URL(deny.body.redirectTo).searchParams.get("error")).toBe("access_denied");
    });
  });
});
