import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInAs } from "../test/factories";
import type { TestClient } from "../test/http-client";
import { basicAuth, formPost } from "../test/oauth";
import { startTestApp, type TestApp } from "../test/test-app";
import { createSecretBox } from "../lib/secret-box";
import { createHostPolicy, isPrivateAddress } from "./host-policy";

describe("which addresses are private", () => {
  it.each([
    "127.0.0.1",
    "127.1.2.3",
    "10.0.0.5",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.100.100.200",
    "192.0.0.192",
    "0.0.0.0",
    "::1",
    "::",
    "fd00:ec2::254",
    "fe80::1",
    "::ffff:127.0.0.1",
    "::ffff:10.0.0.1",
    "64:ff9b::a00:1",
    "not-an-ip",
  ])("%s is refused", (ip) => {
    expect(isPrivateAddress(ip)).toBe(true);
  });
  it.each(["8.8.8.8", "104.192.141.1", "2606:4700::1111", "172.32.0.1", "::ffff:8.8.8.8"])("%s is public", (ip) => {
    expect(isPrivateAddress(ip)).toBe(false);
  });
  it("an allow-list opens names, addresses and CIDRs, nothing else", () => {
    const policy = createHostPolicy({ allowPrivate: false, allowedHosts: ["jira.internal", "10.1.0.0/16", "192.168.5.5"] });
    expect(policy.permits("jira.internal", "10.9.9.9")).toBe(true);
    expect(policy.permits("other.internal", "10.1.2.3")).toBe(true);
    expect(policy.permits("other.internal", "192.168.5.5")).toBe(true);
    expect(policy.permits("other.internal", "192.168.5.6")).toBe(false);
    expect(policy.permits("other.internal", "169.254.169.254")).toBe(false);
  });
});

/**
 * Issue 9, hole 5: an operator could point the Atlassian URL at an internal host and read it back
 * through the proxy with a token of its own. Upstream hosts that resolve to loopback, private,
 * link-local or metadata addresses are refused at save and on every connection.
 */
describe("no server-side request forgery through the integration settings", () => {
  let t: TestApp;
  let operator: TestClient;
  let internal: Server;
  let internalUrl: string;
  let hits = 0;
  const secretBox = createSecretBox(randomBytes(32));

  beforeAll(async () => {
    internal = createServer((_req, res) => {
      hits++;
      res.writeHead(200, { "content-type": "application/json" }).end('{"secret":"internal-only"}');
    });
    await new Promise<void>((r) => internal.listen(0, "127.0.0.1", r));
    internalUrl = `http://127.0.0.1:${(internal.address() as { port: number }).port}`;
    t = await startTestApp({ secretBox, config: { UPSTREAM_ALLOW_PRIVATE: false, RATE_LIMIT_OAUTH_REQUESTS: 1000 } });
    operator = (await signedInAs(t, ["operator"])).client;
  });
  afterAll(async () => {
    await t.close();
    await new Promise((r) => internal.close(r));
  });

  it.each([
    "http://127.0.0.1:9",
    "http://localhost",
    "http://169.254.169.254",
    "http://[::1]",
    "http://10.0.0.5",
    "http://0x7f000001",
    "http://2130706433",
  ])("saving the Atlassian URL %s is a 400 naming the rule", async (instanceUrl) => {
    const res = await operator.post("/api/admin/atlassian-config", { instanceUrl, email: "e@example.test", apiToken: "token-1234" });
    expect(res.status).toBe(400);
    expect(res.body.error.fields.instanceUrl).toMatch(
      /loopback, private, link-local or metadata address; .*UPSTREAM_ALLOW_PRIVATE=true or UPSTREAM_ALLOWED_HOSTS/,
    );
    expect((await operator.get("/api/admin/atlassian-config")).body.configured).toBe(false);
  });

  it("a host that passed at save but points inward later is refused on connection (the proxy answers with the rule, the internal host sees nothing)", async () => {
    // Stored as if it had been saved while public (DNS rebinding): the check on connection catches it.
    const { integrationsRepo } = t.container.repos;
    await integrationsRepo.upsert({
      kind: "atlassian",
      settings: { instanceUrl: internalUrl.replace("127.0.0.1", "localhost"), email: "e@example.test" },
      secretSealed: secretBox.seal("token-1234", "atlassian"),
      secretHint: "1234",
      isActive: true,
      updatedBy: null,
      updatedAt: new Date(),
    });
    const admin = (await signedInAs(t, ["admin"])).client;
    const client = (
      await admin.post("/api/admin/oauth-clients", { name: "ssrf", redirectUris: ["https://app.example.com/cb"], scopes: ["read"] })
    ).body;
    const token = (
      await formPost(
        `${t.baseUrl}/oauth/token`,
        { grant_type: "client_credentials" },
        { authorization: basicAuth(client.clientId, client.clientSecret) },
      )
    ).body.access_token;
    for (const path of ["/api/atlassian/jira/rest/api/3/myself", "/api/atlassian/confluence/api/v2/spaces"]) {
      const res = await fetch(`${t.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status, path).toBe(502);
      const body = (await res.json()) as { error: { message: string } };
      expect(body.error.message).toMatch(/resolves to (127\.0\.0\.1|::1), a loopback, private, link-local or metadata address/);
    }
    expect(hits).toBe(0);
    // Configuration tests are held to the same rule.
    const test = await admin.post("/api/admin/test-atlassian");
    expect(test.body).toMatchObject({ jiraConnected: false, confluenceConnected: false });
    expect(hits).toBe(0);
  });

  it("UPSTREAM_ALLOWED_HOSTS opens a named internal host", async () => {
    const allowed = await startTestApp({ config: { UPSTREAM_ALLOW_PRIVATE: false, UPSTREAM_ALLOWED_HOSTS: ["127.0.0.1"] } });
    try {
      const admin = (await signedInAs(allowed, ["admin"])).client;
      expect(
        (await admin.post("/api/admin/atlassian-config", { instanceUrl: internalUrl, email: "e@example.test", apiToken: "token-1234" }))
          .status,
      ).toBe(200);
      await admin.post("/api/admin/test-atlassian");
      expect(hits).toBeGreaterThan(0);
    } finally {
      await allowed.close();
    }
  });
});
