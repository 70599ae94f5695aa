// MCP streams (issue 10): 10,000 open idle /api/sse/stream connections (limits raised by
// configuration): the server's memory per stream (target < 20 KB), and how late heartbeats arrive
// (p99) when all of them are due at once. Heartbeats come every 30 s (spec §9), so this waits for
// two rounds. Bounded: STREAMS connections, at most ~2 minutes.
import { readFileSync } from "node:fs";
import { request as httpRequest, Agent } from "node:http";
import { benchToken, fmt, median, percentile, requireBuild, startServer } from "./lib.mjs";

const STREAMS = Number(process.env.BENCH_STREAMS ?? 10_000);
const ROUNDS = 2;

const rssKb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]);

export async function run() {
  requireBuild();
  const limits = String(STREAMS * 2);
  const server = await startServer({
    env: {
      ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
      MCP_MAX_STREAMS: limits,
      RATE_LIMIT_SSE_PER_MINUTE: limits,
      RATE_LIMIT_SSE_MAX_CONCURRENT: limits,
    },
    timeoutMs: 60_000,
  });
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const sockets = [];
  const lateness = [];
  let heartbeats = 0;
  try {
    const bearer = await benchToken(server);
    const { port } = new URL(server.url);
    await fetch(`${server.url}/api/mcp/health`);
    const before = rssKb(server.pid);
    const open = () =>
      new Promise((resolve, reject) => {
        const req = httpRequest(
          {
            host: "127.0.0.1",
            port,
            path: "/api/sse/stream",
            agent,
            headers: { authorization: `Bearer ${bearer}`, accept: "text/event-stream" },
          },
          (res) => {
            if (res.statusCode !== 200) return reject(new Error(`stream ${res.statusCode}`));
            sockets.push(res);
            res.setEncoding("utf8");
            let buffer = "";
            res.on("data", (chunk) => {
              const at = Date.now();
              buffer += chunk;
              let cut;
              while ((cut = buffer.indexOf("\n\n")) >= 0) {
                const frame = buffer.slice(0, cut);
                buffer = buffer.slice(cut + 2);
                if (frame.startsWith("event: connected")) resolve();
                if (frame.startsWith("event: heartbeat")) {
                  heartbeats += 1;
                  lateness.push(at - Date.parse(JSON.parse(frame.split("data: ")[1]).timestamp));
                }
              }
            });
          },
        );
        req.on("error", reject);
        req.end();
      });
    const t0 = performance.now();
    const half = Math.floor(STREAMS / 2);
    let halfway = 0;
    for (let i = 0; i < STREAMS; i += 200) {
      await Promise.all(Array.from({ length: Math.min(200, STREAMS - i) }, open));
      if (i + 200 === half) {
        await new Promise((r) => setTimeout(r, 2_000));
        halfway = rssKb(server.pid);
      }
    }
    const openMs = performance.now() - t0;
    await new Promise((r) => setTimeout(r, 2_000));
    const opened = rssKb(server.pid);
    const deadline = Date.now() + (ROUNDS * 30 + 15) * 1000;
    while (heartbeats < STREAMS * ROUNDS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    // Settled: after the heartbeat rounds the garbage of opening 10,000 streams has been collected.
    const after = rssKb(server.pid);
    return [
      { name: `${STREAMS} idle streams opened`, median: `${fmt(openMs / 1000, 1)} s` },
      {
        name: "server memory per open stream (RSS growth / streams, after the heartbeat rounds; target < 20 KB)",
        median: `${fmt((after - before) / STREAMS, 1)} KB (RSS ${fmt(before / 1024)} MB → ${fmt(after / 1024)} MB; ${fmt((opened - before) / STREAMS, 1)} KB 2 s after opening)`,
      },
      // One-time growth (code compiled, the embedded database's pages touched by the registry rows) falls in the first half.
      {
        name: `marginal memory per stream (RSS from ${half} to ${STREAMS} streams / ${STREAMS - half})`,
        median: `${fmt((opened - halfway) / (STREAMS - half), 1)} KB`,
      },
      {
        name: `heartbeat lateness over ${heartbeats} heartbeats (from the round's timestamp to arrival)`,
        median: `p50 ${fmt(median(lateness))} ms, p99 ${fmt(percentile(lateness, 99))} ms, max ${fmt(Math.max(...lateness))} ms`,
      },
    ];
  } finally {
    for (const s of sockets) s.destroy();
    agent.destroy();
    await server.stop();
  }
}
