import { describe, expect, it } from "vitest";
import { pkce } from "../test/oauth";
import { authorizeUrl, rigForFile, type Rig } from "./oauth.adversarial.helpers";

/** Issue 9, hole 11: dynamic client registration (RFC 7591) that stores nothing it should not. */
describe("dynamic client registration", () => {
  let rig: Rig;
  rigForFile(
    (_sandbox, r) => {
      rig = r;
    },
    { config: { OAUTH_DYNAMIC_REGISTRATION: true } },
  );

  const register = async (body: unknown) => {
    const res = await fetch(`${rig.baseUrl}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const clientCount = async () => ((await rig.admin.get("/api/admin/oauth-clients")).body as unknown[]).length;
  const base = { client_name: "Native app", redirect_uris: ["http://127.0.0.1:9000/cb"], token_endpoint_auth_method: "none" };

  it("a deeply nested jwks is refused before anything is stored", async () => {
    const before = await clientCount();
    // 2,000 levels: small enough to pass the body limit, far deeper than any real metadata.
    const deep = `{"redirect_uris":["http://127.0.0.1:9000/cb"],"jwks":${'{"k":'.repeat(2_000)}1${"}".repeat(2_000)}}`;
    const res = await register(deep);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_request");
    const nested = await register({ ...base, jwks: JSON.parse(`${'{"k":'.repeat(40)}1${"}".repeat(40)}`) });
    expect(nested.status).toBe(400);
    expect(nested.body.error).toBe("invalid_request");
    expect(await clientCount()).toBe(before);
  });

  it("bounds the metadata: an oversized body or field is refused, nothing stored", async () => {
    const before = await clientCount();
    expect((await register({ ...base, client_name: "x".repeat(20_000) })).status).toBe(413);
    const long = await register({ ...base, client_name: "x".repeat(300) });
    expect(long.status).toBe(400);
    expect(long.body.error).toBe("invalid_client_metadata");
    expect(
      (await register({ ...base, redirect_uris: Array.from({ length: 21 }, (_, i) => `http://127.0.0.1:${9000 + i}/cb`) })).status,
    ).toBe(400);
    expect(await clientCount()).toBe(before);
  });

  it("answers with what it stored and nothing else", async () => {
    const res = await register({
      ...base,
      contacts: ["a@example.test"],
      logo_uri: "https://evil.example/logo.png",
      jwks: { keys: [] },
      software_id: "app",
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual([
      "client_id",
      "client_id_issued_at",
      "client_name",
      "grant_types",
      "redirect_uris",
      "response_types",
      "scope",
      "token_endpoint_auth_method",
    ]);
  });

  it.each([
    ["blob:", "blob:https://app.example.com/uuid"],
    ["about:", "about:blank"],
    ["javascript:", "javascript:alert(1)"],
    ["file:", "file:///tmp/cb"],
    ["data:", "data:text/html,hi"],
  ])("refuses a %s redirect URI", async (_what, uri) => {
    const res = await register({ ...base, redirect_uris: [uri] });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_redirect_uri");
  });

  it("accepts a private-use scheme (RFC 8252 §7.1): in reverse domain form, or a desktop AI client's own (Cursor registers cursor://…)", async () => {
    expect((await register({ ...base, redirect_uris: ["com.example.app:/oauth/cb"] })).status).toBe(201);
    expect(
      (await register({ ...base, client_name: "Cursor", redirect_uris: ["cursor://anysphere.cursor-retrieval/oauth/callback"] })).status,
    ).toBe(201);
  });

  it("application_type narrows the redirect URIs: web is https on a real host, native is loopback or its own scheme", async () => {
    expect((await register({ ...base, application_type: "web", redirect_uris: ["http://127.0.0.1:9000/cb"] })).body.error).toBe(
      "invalid_redirect_uri",
    );
    expect((await register({ ...base, application_type: "web", redirect_uris: ["https://localhost/cb"] })).body.error).toBe(
      "invalid_redirect_uri",
    );
    expect((await register({ ...base, application_type: "native", redirect_uris: ["https://app.example.com/cb"] })).body.error).toBe(
      "invalid_redirect_uri",
    );
    const web = await register({ ...base, application_type: "web", redirect_uris: ["https://app.example.com/cb"] });
    expect(web.status).toBe(201);
    expect(web.body.application_type).toBe("web");
    expect(
      (await register({ ...base, application_type: "native", redirect_uris: ["http://localhost:7777/cb", "com.example.app:/cb"] })).status,
    ).toBe(201);
    expect((await register({ ...base, application_type: "desktop" })).body.error).toBe("invalid_client_metadata");
  });

  it("a self-registered client is shown as unverified on the consent page, with where it returns to", async () => {
    const res = await register({ ...base, client_name: "Bridgekeeper Console (official)", redirect_uris: ["https://evil.example/cb"] });
    const { challenge } = pkce();
    const location = (
      await fetch(authorizeUrl(rig.baseUrl, String(res.body.client_id), { challenge, redirectUri: "https://evil.example/cb" }), {
        redirect: "manual",
      })
    ).headers.get("location")!;
    const shown = await rig.user.get(`/api/oauth${location.replace("/oauth-consent", "/requests")}`);
    expect(shown.body).toMatchObject({
      clientName: "Bridgekeeper Console (official)",
      registeredVia: "dynamic",
      redirectHost: "evil.example",
    });
  });

  it("unused self-registered clients expire; console clients and used ones stay", async () => {
    const res = await register({ ...base, client_name: "Forgotten" });
    const console = (
      await rig.admin.post("/api/admin/oauth-clients", { name: "Kept", redirectUris: ["https://app.example.com/cb"], scopes: ["read"] })
    ).body;
    const removed = await rig.t.container.services.oauthClients.pruneUnusedDynamic(-60_000); // "unused for -1 minute": anything made before now
    expect(removed).toBeGreaterThanOrEqual(1);
    const ids = ((await rig.admin.get("/api/admin/oauth-clients")).body as { clientId: string }[]).map((c) => c.clientId);
    expect(ids).not.toContain(res.body.client_id);
    expect(ids).toContain(console.clientId);
  });
});
