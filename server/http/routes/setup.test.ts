import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SetupStatusDto } from "../../../contract/setup";
import { createClient, obtainTokens, type Rig } from "../../oauth/oauth.adversarial.helpers";
import { buildAiProvider, signedInAs } from "../../test/factories";
import { startTestApp } from "../../test/test-app";

/** The Dashboard's "Get started" (issue 25): each step read from live state, for those who configure the server. */
describe("GET /api/setup-status", () => {
  let rig: Rig;
  beforeAll(async () => {
    const t = await startTestApp({ config: { RATE_LIMIT_OAUTH_REQUESTS: 1000 } });
    rig = { t, baseUrl: t.baseUrl, admin: (await signedInAs(t, ["admin"])).client, user: (await signedInAs(t, ["operator"])).client };
  });
  afterAll(() => rig?.t.close());

  const status = async () => {
    const res = await rig.admin.get<SetupStatusDto>("/api/setup-status");
    expect(res.status).toBe(200);
    return res.body;
  };

  it("starts with nothing done (a built admin has chosen their password), and each step ticks as it is done elsewhere", async () => {
    expect(await status()).toEqual({
      atlassianConfigured: false,
      bitbucketConfigured: false,
      aiClientConnected: false,
      passwordChanged: true,
      aiProviderAdded: false,
    });

    expect(
      (
        await rig.admin.post("/api/admin/atlassian-config", {
          instanceUrl: "https://acme.atlassian.net",
          email: "a@example.test",
          apiToken: "tok",
          isActive: true,
        })
      ).status,
    ).toBe(200);
    expect(
      (await rig.admin.post("/api/admin/bitbucket-config", { workspace: "acme", username: "u", appPassword: "p", isActive: false })).status,
    ).toBe(200);
    await buildAiProvider(rig.t.container);
    expect(await status()).toEqual({
      atlassianConfigured: true,
      bitbucketConfigured: false,
      aiClientConnected: false,
      passwordChanged: true,
      aiProviderAdded: true,
    });

    // An AI client signs in (consent, code, tokens): a live grant.
    await obtainTokens(rig, await createClient(rig, { name: "Get started" }));
    expect((await status()).aiClientConnected).toBe(true);
  });

  it("is for those who may configure the server: 401 signed out, 403 for a viewer", async () => {
    expect((await rig.t.client().get("/api/setup-status")).status).toBe(401);
    const { client } = await signedInAs(rig.t, ["viewer"]);
    const res = await client.get("/api/setup-status");
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("forbidden");
  });
});
