// AI chat (issue 13). (1) A chat turn's own overhead: the wall time of POST /api/chat/send (a
// question the model answers with one jira_search on the sandbox, then an answer) minus the time
// the provider spent on its two calls (measured by the fake provider as it answered) and minus the
// tool's own time (the tool-call audit's durationMs). The fake runs in this process, the server
// and the sandbox in their own, all on loopback. The server keeps its data in the embedded
// database unless DATABASE_URL names a PostgreSQL (the queries' work then leaves its process).
// (2) The first streamed token painted: see bench/chat-paint.bench.mjs (Chromium).
import { adminCookie, fmt, median, percentile, requireBuild, sourceModule, startSandboxProcess, startServer } from "./lib.mjs";

const TURNS = Number(process.env.BENCH_TURNS ?? 40);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const QUESTION = "Which Jira issues were updated recently?";

/** The built server on the sandbox, with an OpenAI-compatible provider pointed at an in-process fake; what the benches need to drive it. */
export async function chatRig() {
  const { startFakeAi } = await sourceModule("sandbox/fake-ai/fake-ai.server.ts");
  const fake = await startFakeAi();
  const sandbox = await startSandboxProcess();
  const server = await startServer({
    nodeArgs: process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(" ") : [],
    env: {
      BITBUCKET_API_URL: `${sandbox.url}/2.0`,
      RATE_LIMIT_API_PER_MINUTE: "100000",
      RATE_LIMIT_API_BURST: "10000",
      ATLASSIAN_HOURLY_BUDGET: "100000000",
      BITBUCKET_HOURLY_BUDGET: "100000000",
    },
  });
  const cookie = await adminCookie(server);
  const post = async (path, body, extra = {}) => {
    const res = await fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie, origin: server.url, ...extra },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: res.headers.get("content-type")?.includes("json") ? await res.json() : await res.text() };
  };
  const saved = await post("/api/admin/atlassian-config", {
    instanceUrl: sandbox.url,
    email: "demo@bridgekeeper.test",
    apiToken: "sandbox-api-token",
    isActive: true,
  });
  if (saved.status >= 300) throw new Error(`atlassian config: ${saved.status}`);
  const provider = await post("/api/ai-providers", {
    name: "Bench fake",
    provider: "openai-compatible",
    model: "llama3.1",
    apiKey: "sk-bench",
    baseUrl: fake.baseUrls.compat,
    isActive: true,
  });
  if (provider.status !== 201) throw new Error(`provider: ${provider.status} ${JSON.stringify(provider.body)}`);
  return {
    fake,
    server,
    cookie,
    post,
    providerId: provider.body.id,
    async stop() {
      await server.stop();
      await sandbox.stop();
      await fake.close();
    },
  };
}

/**
 * How the fake provider paces its answers: at once (what the server itself spends, nothing hidden
 * behind the provider), and like a hosted model (a first token after 150 ms, then a piece every
 * 10 ms), where what the server does while the provider thinks or streams is not waited for.
 */
const PACES = [
  { name: "answering at once", firstMs: 0, pieceMs: 0 },
  {
    name: `answering like a hosted model (first token after ${process.env.BENCH_PROVIDER_MS ?? 150} ms, a piece every 10 ms)`,
    firstMs: Number(process.env.BENCH_PROVIDER_MS ?? 150),
    pieceMs: 10,
  },
];

export async function run() {
  requireBuild();
  const rig = await chatRig();
  const { smartTurn } = await sourceModule("sandbox/fake-ai/smart-responder.ts");
  try {
    const overheads = new Map(PACES.map((pace) => [pace, []]));
    const totals = [];
    const baseline = [];
    // Interleaved (a turn at each pace, then a baseline round trip), so the machine's moods fall
    // on every series alike.
    for (let i = 0; i < TURNS + WARMUP; i++) {
      for (const pace of PACES) {
        rig.fake.reset();
        rig.fake.script((request) => ({ ...smartTurn(request.conversation), delayMs: pace.firstMs, chunkDelayMs: pace.pieceMs }));
        const started = performance.now();
        const res = await rig.post("/api/chat/send", {
          message: QUESTION,
          providerId: rig.providerId,
          sessionId: null,
          mcpTools: ["jira", "confluence", "bitbucket"],
        });
        const total = performance.now() - started;
        if (res.status !== 200 || res.body.mcpCalls?.[0]?.tool !== "jira_search")
          throw new Error(`turn: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
        if (i < WARMUP) continue; // warm-up: connections, JIT, caches
        const providerMs = rig.fake.requests.reduce((sum, r) => sum + (r.timing.endedAt - r.timing.receivedAt), 0);
        // The tool's own time, as the audit recorded it (written in batches: read after a flush interval).
        const audit = await waitForAudit(rig, res.body.timestamp);
        overheads.get(pace).push(total - providerMs - audit);
        if (pace === PACES[0]) totals.push(total);
      }
      // Baseline: a signed-in round trip that reads the database (the chat's provider list), with
      // no provider and no tool behind it.
      const started = performance.now();
      const res = await fetch(`${rig.server.url}/api/chat/providers`, { headers: { cookie: rig.cookie } });
      await res.arrayBuffer();
      if (i >= WARMUP) baseline.push(performance.now() - started);
    }
    const base = median(baseline);
    return [
      ...PACES.map((pace) => {
        const xs = overheads.get(pace);
        return {
          name: `chat turn overhead beyond the provider's and the tool's time, p50, provider ${pace.name} (${TURNS} turns; target < 20 ms)`,
          median: `${fmt(median(xs), 1)} ms`,
          runs: `p90 ${fmt(percentile(xs, 90), 1)} ms; ${fmt(median(xs) / base, 1)}× the baseline`,
        };
      }),
      { name: "baseline: GET /api/chat/providers round trip, p50 (same run)", median: `${fmt(base, 2)} ms` },
      {
        name: "chat turn wall time, provider answering at once (one jira_search on the sandbox, two provider calls)",
        median: `${fmt(median(totals), 1)} ms`,
      },
    ];
  } finally {
    await rig.stop();
  }
}

/** The duration of the newest jira_search call in the audit, recorded at or before `before`. */
async function waitForAudit(rig, before) {
  for (let i = 0; i < 200; i++) {
    const res = await fetch(`${rig.server.url}/api/admin/tool-calls?tool=jira_search&limit=1`, { headers: { cookie: rig.cookie } });
    const [row] = (await res.json()).items ?? [];
    if (
      row &&
      Date.parse(row.at) <= Date.parse(before) &&
      Date.parse(row.at) >= Date.parse(before) - 60_000 &&
      row.id !== rig.lastAuditId
    ) {
      rig.lastAuditId = row.id;
      return row.durationMs;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the tool call never reached the audit");
}
