import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ClientCredentialsProvider } from "@modelcontextprotocol/sdk/client/auth-extensions.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { AI_CLIENTS, clientSetup, signInLine, urlInSnippet, type McpConnectionDto } from "../../../contract/connect";
import { createClient } from "../../oauth/oauth.adversarial.helpers";
import { mcpRigForFile, type McpRig } from "../../mcp/mcp.test-rig";
import { signedInAs } from "../../test/factories";
import { startTestApp } from "../../test/test-app";
import { mcpConnection } from "./mcp-connection.routes";

// @pglite-only: what is tested is the address and the OAuth discovery; the database only holds the client.

/** "Connect an AI client" (issue 25): the address every snippet names is the one an MCP client can use. */
describe("GET /api/mcp-connection and the snippets written from it", () => {
  let rig: McpRig;
  mcpRigForFile((r) => (rig = r));

  const connectWith = async (url: string) => {
    const client = await createClient(rig, { name: "Snippet check" });
    const sdk = new Client({ name: "snippet-check", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      authProvider: new ClientCredentialsProvider({
        clientId: client.clientId,
        clientSecret: client.clientSecret!,
        scope: "read",
        expectedIssuer: rig.baseUrl,
      }),
    });
    await sdk.connect(transport);
    try {
      return (await sdk.listTools()).tools.map((t) => t.name);
    } finally {
      await sdk.close();
    }
  };

  it("names PUBLIC_URL's /mcp, the resource the server's metadata names, and how sign-in works", async () => {
    const res = await rig.admin.get<McpConnectionDto>("/api/mcp-connection");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      mcpUrl: `${rig.baseUrl}/mcp`,
      publicUrl: rig.baseUrl,
      publicUrlConfigured: true,
      dynamicRegistration: expect.any(Boolean),
      metadataDocuments: expect.any(Boolean),
    });
    const metadata = (await (await fetch(`${rig.baseUrl}/.well-known/oauth-protected-resource/mcp`)).json()) as { resource: string };
    expect(metadata.resource).toBe(res.body.mcpUrl);
    const as = (await (await fetch(`${rig.baseUrl}/.well-known/oauth-authorization-server`)).json()) as {
      registration_endpoint?: string;
      client_id_metadata_document_supported?: boolean;
    };
    expect(res.body.dynamicRegistration).toBe(as.registration_endpoint !== undefined);
    expect(res.body.metadataDocuments).toBe(as.client_id_metadata_document_supported === true);
  });

  it("the SDK client connects with exactly the URL each client's snippet names", async () => {
    const { mcpUrl } = (await rig.admin.get<McpConnectionDto>("/api/mcp-connection")).body;
    const urls = new Set(AI_CLIENTS.map((c) => urlInSnippet(clientSetup(c, mcpUrl).snippet)));
    expect([...urls]).toEqual([mcpUrl]);
    expect(await connectWith(mcpUrl)).toContain("jira_search");
  });

  it("the same server at another spelling of its address (the page's, not PUBLIC_URL) is refused by the SDK's resource check", async () => {
    const other = rig.baseUrl.replace("127.0.0.1", "localhost");
    await expect(connectWith(`${other}/mcp`)).rejects.toThrow(/Protected resource .* does not match expected/);
  });

  it("says so when PUBLIC_URL is not set, and follows the registration settings", () => {
    expect(
      mcpConnection({ PORT: 5301, PUBLIC_URL: undefined, OAUTH_DYNAMIC_REGISTRATION: false, OAUTH_CLIENT_ID_METADATA_DOCUMENTS: true }),
    ).toEqual({
      mcpUrl: "http://localhost:5301/mcp",
      publicUrl: "http://localhost:5301",
      publicUrlConfigured: false,
      dynamicRegistration: false,
      metadataDocuments: true,
    });
    expect(signInLine({ dynamicRegistration: true, metadataDocuments: true })).toMatch(/registers itself/);
    expect(signInLine({ dynamicRegistration: false, metadataDocuments: true })).toMatch(
      /client ID metadata document.*created first under OAuth Clients/,
    );
    expect(signInLine({ dynamicRegistration: false, metadataDocuments: false })).toMatch(
      /^Sign-in: dynamic registration is off, so create a client first under OAuth Clients/,
    );
  });

  it("refuses anonymous callers; a signed-in user with no role at all may read it", async () => {
    const t = await startTestApp();
    try {
      expect((await t.client().get("/api/mcp-connection")).status).toBe(401);
      const { client } = await signedInAs(t, []);
      expect((await client.get("/api/mcp-connection")).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
