import { benchToken, startSandboxProcess, startServer } from "/work/main/bench/lib.mjs";
const sandbox = await startSandboxProcess();
const server = await startServer({ env: { DEMO_SANDBOX_URL: sandbox.url, BITBUCKET_API_URL: `${sandbox.url}/2.0` } });
const token = await benchToken(server, "read write");
const MODERN = "2026-07-28";
const res = await fetch(`${server.url}/mcp`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": MODERN, "mcp-method": "tools/list" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "x", version: "1" } } } }) });
const body = await res.json();
const { writeFileSync } = await import("node:fs");
writeFileSync("/tmp/prof/tools.json", JSON.stringify(body.result.tools, null, 1));
let t = { d: 0, i: 0, o: 0, a: 0, all: 0 };
for (const tool of body.result.tools) {
  const d = (tool.description ?? "").length, i = JSON.stringify(tool.inputSchema).length, o = JSON.stringify(tool.outputSchema ?? {}).length, a = JSON.stringify(tool.annotations ?? {}).length, all = JSON.stringify(tool).length;
  t.d += d; t.i += i; t.o += o; t.a += a; t.all += all;
  console.log(tool.name.padEnd(36), all, "desc", d, "in", i, "out", o, "ann", a);
}
console.log("TOTAL", t);
await server.stop(); await sandbox.stop();
