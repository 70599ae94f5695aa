// Reference (c) of the MCP benchmark: the least work a server can do and still give the answer
// Bridgekeeper gives. It reads the JSON-RPC body, makes the same upstream search and parses Jira's
// answer. It renders the same compact text and structured issues, and writes the JSON-RPC result.
// It has no authentication, validation, policy, audit, request log or metrics. Its CPU per call is
// the floor under any server that answers compactly: against (b), which passes Jira's body through
// unparsed, it shows what the targets ask of the irreducible part. Started by mcp.bench.mjs in its
// own process: PORT, SANDBOX_URL.
import { createServer } from "node:http";
import { Agent, request } from "undici";

const SANDBOX = process.env.SANDBOX_URL;
const auth = `Basic ${Buffer.from("demo@bridgekeeper.test:sandbox-api-token").toString("base64")}`;
const pool = new Agent({ keepAliveTimeout: 30_000, connections: 64 });
const FIELDS = ["summary", "status", "assignee", "priority", "issuetype", "updated"];

const nameOf = (v) => (v && typeof v === "object" ? (v.displayName ?? v.name ?? null) : null);
const line = (i) =>
  `- ${i.key} [${i.status ?? "?"}] ${i.summary} — ${[i.type, i.priority, i.assignee ?? "unassigned", i.updated ? `updated ${i.updated.slice(0, 10)}` : null].filter(Boolean).join(" · ")}\n  ${i.url}`;

async function search(args) {
  const res = await request(`${SANDBOX}/rest/api/3/search/jql`, {
    method: "POST",
    dispatcher: pool,
    headers: { authorization: auth, "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ jql: args.jql, maxResults: args.maxResults ?? 20, fields: FIELDS }),
  });
  const page = JSON.parse(await res.body.text());
  const issues = page.issues.map(({ key, fields: f }) => ({
    key,
    summary: f.summary ?? "",
    status: nameOf(f.status),
    assignee: nameOf(f.assignee),
    priority: nameOf(f.priority),
    type: nameOf(f.issuetype),
    updated: f.updated ?? null,
    url: `${SANDBOX}/browse/${key}`,
  }));
  const text = [`${issues.length} issues:`, ...issues.map(line)].join("\n");
  return { content: [{ type: "text", text }], structuredContent: { issues, nextCursor: page.nextPageToken ?? null } };
}

createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", async () => {
    const message = JSON.parse(Buffer.concat(chunks).toString());
    const result = await search(message.params.arguments);
    const json = JSON.stringify({ result, jsonrpc: "2.0", id: message.id });
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(json) }).end(json);
  });
}).listen(Number(process.env.PORT), "127.0.0.1", () => process.send?.("ready"));
