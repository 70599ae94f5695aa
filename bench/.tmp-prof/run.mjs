import autocannon from "autocannon";
import { benchToken, startSandboxProcess, startServer, cpuTimeMs } from "/work/main/bench/lib.mjs";
const sandbox = await startSandboxProcess();
const server = await startServer({ env: { DEMO_SANDBOX_URL: sandbox.url, RATE_LIMIT_API_PER_MINUTE: "100000000", RATE_LIMIT_API_BURST: "1000000", ...(process.env.EXTRA ? JSON.parse(process.env.EXTRA) : {}) }, nodeArgs: process.env.PROF ? ["--cpu-prof", "--cpu-prof-dir=/tmp/prof"] : [] });
const token = await benchToken(server);
const MODERN = "2026-07-28";
const ENVELOPE = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" } };
let id = 1;
const body = () => JSON.stringify({ jsonrpc: "2.0", id: id++, method: "tools/call", params: { name: "jira_search", arguments: { jql: "project = BK ORDER BY updated DESC", maxResults: 20 }, _meta: ENVELOPE } });
const headers = { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "jira_search" };
for (let i = 0; i < 3; i++) {
  const c0 = cpuTimeMs(server.pid), s0 = cpuTimeMs(sandbox.pid);
  const r = await new Promise((res, rej) => autocannon({ url: `${server.url}/mcp`, method: "POST", connections: 16, duration: 5, headers, requests: [{ setupRequest: (req) => ({ ...req, body: body() }) }] }, (e, r) => e ? rej(e) : res(r)));
  console.log(`rps ${r.requests.average} p50 ${r.latency.p50} non2xx ${r.non2xx} cpu/call ours ${((cpuTimeMs(server.pid) - c0) / r.requests.total).toFixed(3)} sandbox ${((cpuTimeMs(sandbox.pid) - s0) / r.requests.total).toFixed(3)}`);
}
await server.stop(); await sandbox.stop();
