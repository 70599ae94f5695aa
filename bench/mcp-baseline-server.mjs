// Baseline (b) of the MCP benchmark: the form most MCP servers ship — the SDK v1 McpServer with a
// stateful StreamableHTTPServerTransport per session — making the same upstream Jira search and
// passing the body through. Started by mcp.bench.mjs in its own process: PORT, SANDBOX_URL.
import { createServer } from "node:http";
import { randomUUID } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { Agent, request } from "undici";
import { z } from "zod";

const SANDBOX = process.env.SANDBOX_URL;
const auth = `Basic ${Buffer.from("demo@bridgekeeper.test:sandbox-api-token").toString("base64")}`;
const pool = new Agent({ keepAliveTimeout: 30_000, connections: 64 });

function buildServer() {
  const server = new McpServer({ name: "baseline", version: "1.0.0" });
  server.registerTool(
    "jira_search",
    { description: "Search Jira with JQL", inputSchema: { jql: z.string(), maxResults: z.number().int().max(100).optional() } },
    async ({ jql, maxResults }) => {
      const res = await request(`${SANDBOX}/rest/api/3/search/jql`, {
        method: "POST",
        dispatcher: pool,
        headers: { authorization: auth, "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({
          jql,
          maxResults: maxResults ?? 20,
          fields: ["summary", "status", "assignee", "priority", "issuetype", "updated"],
        }),
      });
      return { content: [{ type: "text", text: await res.body.text() }] };
    },
  );
  return server;
}

const transports = new Map();
const readBody = (req) =>
  new Promise((resolve) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c)).on("end", () => resolve(JSON.parse(Buffer.concat(chunks).toString() || "null")));
  });

createServer(async (req, res) => {
  const body = req.method === "POST" ? await readBody(req) : undefined;
  const sessionId = req.headers["mcp-session-id"];
  let transport = sessionId ? transports.get(sessionId) : undefined;
  if (!transport) {
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => transports.set(id, transport),
    });
    await buildServer().connect(transport);
  }
  await transport.handleRequest(req, res, body);
}).listen(Number(process.env.PORT), "127.0.0.1", () => process.send?.("ready"));
