import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../sandbox/server";
import type { OAuthClientDto } from "../../contract/oauth";
import { pkce } from "../test/oauth";
import { APP_REDIRECT, authorizeDirect, authorizeUrl, callProtected, obtainTokens, startRig, type Rig } from "./oauth.adversarial.helpers";

/** A certificate for localhost and 127.0.0.1, made for this run (openssl, from Debian's base system). */
function selfSigned(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), "bk-cimd-"));
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=DNS:localhost,IP:127.0.0.1",
      "-keyout",
      join(dir, "key.pem"),
      "-out",
      join(dir, "cert.pem"),
    ],
    { stdio: "ignore" },
  );
  return { key: readFileSync(join(dir, "key.pem"), "utf8"), cert: readFileSync(join(dir, "cert.pem"), "utf8") };
}

/**
 * Client ID Metadata Documents (MCP 2025-11-25; draft-ietf-oauth-client-id-metadata-document),
 * against a local https document server: fetched under the host rule, bounded, cached per its
 * headers, checked, and shown on the consent page as an unverified client.
 */
describe("Client ID Metadata Documents", () => {
  let sandbox: Sandbox;
  let rig: Rig;
  let docs: Server;
  let origin: string;
  let tls: { key: string; cert: string };
  const served = new Map<string, { body: string; cacheControl?: string }>();
  const hits = new Map<string, number>();

  beforeAll(async () => {
    tls = selfSigned();
    docs = createServer(tls, (req, res) => {
      hits.set(req.url!, (hits.get(req.url!) ?? 0) + 1);
      const doc = served.get(req.url!);
      if (!doc) return void res.writeHead(404).end();
      res
        .writeHead(200, { "content-type": "application/json", ...(doc.cacheControl ? { "cache-control": doc.cacheControl } : {}) })
        .end(doc.body);
    });
    await new Promise<void>((r) => docs.listen(0, "127.0.0.1", r));
    origin = `https://localhost:${(docs.address() as { port: number }).port}`;
    sandbox = await startSandbox();
    rig = await startRig(sandbox.url, { config: { clientMetadataTls: { ca: tls.cert } } });
  });
  afterAll(async () => {
    await rig?.t.close();
    await sandbox?.close();
    await new Promise((r) => docs?.close(r));
  });

  /** Serves a document at `path` and returns its client_id (its URL). */
  const publish = (path: string, fields: Record<string, unknown> = {}, cacheControl?: string): string => {
    const clientId = `${origin}${path}`;
    served.set(path, {
      body: JSON.stringify({
        client_id: clientId,
        client_name: "Doc App",
        redirect_uris: [APP_REDIRECT],
        token_endpoint_auth_method: "none",
        ...fields,
      }),
      ...(cacheControl ? { cacheControl } : {}),
    });
    return clientId;
  };
  const asClient = (clientId: string) => ({ clientId, clientSecret: null }) as unknown as OAuthClientDto;
  const refused = async (clientId: string) => {
    const res = await authorizeDirect(authorizeUrl(rig.baseUrl, clientId, { challenge: pkce().challenge }));
    expect(res.location).toBeNull();
    expect(res.status).toBe(400);
  };

  it("the metadata says they are supported", async () => {
    const meta = (await (await fetch(`${rig.baseUrl}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(meta.client_id_metadata_document_supported).toBe(true);
  });

  it("a client known only by its document's URL authorizes, gets tokens and calls a protected path", async () => {
    const clientId = publish("/clients/app.json", {}, "max-age=600");
    const { challenge } = pkce();
    const location = (await fetch(authorizeUrl(rig.baseUrl, clientId, { challenge }), { redirect: "manual" })).headers.get("location")!;
    const shown = await rig.user.get(`/api/oauth${location.replace("/oauth-consent", "/requests")}`);
    expect(shown.body).toMatchObject({
      clientName: "Doc App",
      clientId,
      registeredVia: "metadata-document",
      redirectHost: "app.example.com",
    });
    const tokens = await obtainTokens(rig, asClient(clientId));
    expect((await callProtected(rig, tokens.access_token)).status).toBe(200);
    // Cached per its max-age: one fetch for every step of both authorizations.
    expect(hits.get("/clients/app.json")).toBe(1);
    const listed = ((await rig.admin.get("/api/admin/oauth-clients")).body as { clientId: string; registeredVia: string }[]).find(
      (c) => c.clientId === clientId,
    );
    expect(listed?.registeredVia).toBe("metadata-document");
  });

  it("no-store is fetched again; a changed document takes effect", async () => {
    const clientId = publish("/clients/fresh.json", {}, "no-store");
    await authorizeDirect(authorizeUrl(rig.baseUrl, clientId, { challenge: pkce().challenge }));
    publish("/clients/fresh.json", { redirect_uris: ["https://other.example.com/cb"] }, "no-store");
    await refused(clientId); // APP_REDIRECT is no longer one of its redirect URIs
    expect(hits.get("/clients/fresh.json")).toBeGreaterThanOrEqual(2);
  });

  it.each([
    ["names another client_id", { client_id: "https://evil.example/app.json" }],
    ["wants a secret-based method", { token_endpoint_auth_method: "client_secret_basic" }],
    ["has a javascript: redirect URI", { redirect_uris: ["javascript:alert(1)"] }],
    ["has no redirect URIs", { redirect_uris: [] }],
    ["is oversized", { client_name: "x".repeat(200), padding: "x".repeat(20_000) }],
  ])("a document that %s is refused (invalid client, never a redirect)", async (_what, fields) => {
    const path = `/clients/bad-${Math.random().toString(36).slice(2)}.json`;
    await refused(publish(path, fields));
  });

  it("a document that is not JSON, or not there, is refused", async () => {
    served.set("/clients/html.json", { body: "<html>" });
    await refused(`${origin}/clients/html.json`);
    await refused(`${origin}/clients/missing.json`);
  });

  it("only https URLs with a path are client ids of this kind", async () => {
    await refused(`http://localhost:${new URL(origin).port}/clients/app.json`);
    await refused(`${origin}/`);
  });

  it("the upstream host rule holds: a document on a private address is not fetched unless allowed", async () => {
    const strict = await startRig(sandbox.url, { config: { clientMetadataTls: { ca: tls.cert }, UPSTREAM_ALLOW_PRIVATE: false } });
    try {
      const clientId = publish("/clients/private.json");
      const res = await authorizeDirect(authorizeUrl(strict.baseUrl, clientId, { challenge: pkce().challenge }));
      expect(res.status).toBe(400);
      expect(hits.get("/clients/private.json") ?? 0).toBe(0);
      expect(strict.t.logLines.some((l) => l.includes("client metadata document refused") && l.includes("loopback, private"))).toBe(true);
    } finally {
      await strict.t.close();
    }
  });
});
