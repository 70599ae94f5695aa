// MCP (issue 10): `tools/call jira_search` (20 results) through Bridgekeeper, beside (a) the same
// search as a plain request to the sandbox, (b) a minimal SDK v1 server (stateful
// StreamableHTTPServerTransport) making the same upstream call and passing the body through, and
// (c) the floor: a bare node server doing only the work Bridgekeeper's answer cannot skip (parse
// Jira's answer, render it compactly). All in one run, alternating so the machine's noise falls
// on all of them alike. Also: the size of the
// search's text answer, and the same at concurrency 16 with 20 ms of upstream latency.
// BENCH_BEFORE_ROOT=<a checkout of an earlier commit, built> adds that build as one more target in
// the same run, for a change's before and after (git worktree add /tmp/before <commit>, then
// npm ci && npm run build there).
import { fork } from "node:child_process";
import { join } from "node:path";
import autocannon from "autocannon";
import { Agent, request } from "undici";
import {
  adminCookie,
  benchClient,
  benchToken,
  cpuTimeMs,
  fmt,
  freePort,
  linkAdminAsPerson,
  median,
  percentile,
  requireBuild,
  ROOT,
  startSandboxProcess,
  startServer,
  userToken,
  probeModule,
} from "./lib.mjs";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const SERIAL_CALLS = Number(process.env.BENCH_SERIAL_CALLS ?? 1500);
/** The identity comparison (issue 27): alternating rounds of this many calls each. */
const IDENTITY_ROUNDS = Number(process.env.BENCH_IDENTITY_ROUNDS ?? 12);
const IDENTITY_CALLS = Number(process.env.BENCH_IDENTITY_CALLS ?? 400);
const MODERN = "2026-07-28";
const JQL = "project = BK ORDER BY updated DESC";
const SANDBOX_AUTH = `Basic ${Buffer.from("demo@bridgekeeper.test:sandbox-api-token").toString("base64")}`;
const FIELDS = ["summary", "status", "assignee", "priority", "issuetype", "updated"];

const cannon = (opts) =>
  new Promise((resolve, reject) => autocannon({ duration: SECONDS, ...opts }, (err, res) => (err ? reject(err) : resolve(res))));

let nextId = 1;
const call = (extra = {}, jql = JQL) => ({
  jsonrpc: "2.0",
  id: nextId++,
  method: "tools/call",
  params: { name: "jira_search", arguments: { jql, maxResults: 20 }, ...extra },
});
const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" },
};

/** tools/call jira_search on Bridgekeeper's /mcp, 2026-07-28 (cluster.bench.mjs loads it too). */
export const ourTarget = (server, token, name = "Bridgekeeper /mcp, 2026-07-28", jql = JQL) => ({
  name,
  pid: server.pid,
  url: `${server.url}/mcp`,
  headers: {
    authorization: `Bearer ${token}`,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": MODERN,
    "mcp-method": "tools/call",
    "mcp-name": "jira_search",
  },
  body: () => JSON.stringify(call({ _meta: ENVELOPE }, jql)),
});

/** The three targets as request descriptions (url, method, headers, a body maker with a fresh id). */
async function targets(server, sandbox, baselineUrl, baselinePid, floor) {
  const token = await benchToken(server);

  const init = await fetch(`${baselineUrl}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
    }),
  });
  const session = init.headers.get("mcp-session-id");
  await init.text();
  await fetch(`${baselineUrl}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-session-id": session,
      "mcp-protocol-version": "2025-11-25",
    },
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  }).then((r) => r.text());

  return {
    token,
    plain: {
      name: "(a) sandbox, plain search",
      pid: sandbox.pid,
      url: `${sandbox.url}/rest/api/3/search/jql`,
      headers: { authorization: SANDBOX_AUTH, "content-type": "application/json", accept: "application/json" },
      body: () => JSON.stringify({ jql: JQL, maxResults: 20, fields: FIELDS }),
    },
    baseline: {
      name: "(b) SDK v1 stateful server, body passed through",
      pid: baselinePid,
      url: `${baselineUrl}/mcp`,
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": session,
        "mcp-protocol-version": "2025-11-25",
      },
      body: () => JSON.stringify(call()),
    },
    floor: {
      name: "(c) floor: bare node server, Jira's answer parsed and rendered",
      pid: floor.pid,
      url: `${floor.url}/mcp`,
      headers: { "content-type": "application/json", accept: "application/json" },
      body: () => JSON.stringify(call()),
    },
    ours: ourTarget(server, token),
    ours2025: {
      name: "Bridgekeeper /mcp, 2025-11-25 (stateless)",
      pid: server.pid,
      url: `${server.url}/mcp`,
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
      },
      body: () => JSON.stringify(call()),
    },
  };
}

/** Concurrency 1, timed per call in this process (sub-millisecond resolution). */
async function serial(target, agent, calls = SERIAL_CALLS) {
  const times = [];
  for (let i = 0; i < calls; i++) {
    const t0 = process.hrtime.bigint();
    const res = await request(target.url, { method: "POST", headers: target.headers, body: target.body(), dispatcher: agent });
    const text = await res.body.text();
    if (res.statusCode !== 200 || text.includes('"isError":true'))
      throw new Error(`${target.name}: ${res.statusCode} ${text.slice(0, 300)}`);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99), rps: 1000 / (times.reduce((a, b) => a + b, 0) / times.length) };
}

/**
 * Concurrency 16 with autocannon; every request gets a fresh JSON-RPC id. Also the CPU time the
 * serving process spent per call: on this shared 2-core machine the sandbox and the load generator
 * compete for the same cores, so CPU per call is the figure that carries over to a real server.
 */
export async function loaded(target, connections = 16) {
  const cpu0 = cpuTimeMs(target.pid);
  const r = await cannon({
    url: target.url,
    method: "POST",
    connections,
    headers: target.headers,
    requests: [{ setupRequest: (req) => ({ ...req, body: target.body() }) }],
  });
  const cpuMs = cpuTimeMs(target.pid) - cpu0;
  if (r.non2xx + r.errors > 0) throw new Error(`${target.name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, cpuPerCall: cpuMs / r.requests.total };
}

const summary = (name, list, unit = "req/s") => ({
  name,
  median: `${fmt(median(list.map((x) => x.rps)))} ${unit}, p50 ${fmt(median(list.map((x) => x.p50)), 2)} ms, p99 ${fmt(median(list.map((x) => x.p99)), 2)} ms`,
  runs: list.map((x) => fmt(x.rps)).join(", "),
});

/** tools/call at concurrency 16 on two servers, request log on and off, alternating (for request-log.bench.mjs). */
export async function toolsCallLatency(runs) {
  const sandbox = await startSandboxProcess();
  const env = {
    DEMO_SANDBOX_URL: sandbox.url,
    RATE_LIMIT_API_PER_MINUTE: "100000000",
    RATE_LIMIT_API_BURST: "1000000",
    ATLASSIAN_HOURLY_BUDGET: "100000000",
    BITBUCKET_HOURLY_BUDGET: "100000000",
  };
  const withLog = await startServer({ env });
  const withoutLog = await startServer({ env: { ...env, REQUEST_LOG: "false" } });
  try {
    const a = ourTarget(withLog, await benchToken(withLog));
    const b = ourTarget(withoutLog, await benchToken(withoutLog));
    await loaded(a);
    await loaded(b);
    const on = [];
    const off = [];
    for (let i = 0; i < runs; i++) {
      on.push(await loaded(a));
      off.push(await loaded(b));
    }
    return { on, off };
  } finally {
    await withLog.stop();
    await withoutLog.stop();
    await sandbox.stop();
  }
}

export async function run() {
  requireBuild();
  const sandbox = await startSandboxProcess();
  const serverEnv = {
    DEMO_SANDBOX_URL: sandbox.url,
    RATE_LIMIT_API_PER_MINUTE: "100000000",
    RATE_LIMIT_API_BURST: "1000000",
    ATLASSIAN_HOURLY_BUDGET: "100000000",
    BITBUCKET_HOURLY_BUDGET: "100000000",
  };
  const server = await startServer({ env: serverEnv });
  const beforeRoot = process.env.BENCH_BEFORE_ROOT;
  const before = beforeRoot ? await startServer({ env: serverEnv, root: beforeRoot }) : null;
  const port = await freePort();
  const baselineProc = fork(join(ROOT, "bench/mcp-baseline-server.mjs"), [], {
    env: { ...process.env, PORT: String(port), SANDBOX_URL: sandbox.url },
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const floorPort = await freePort();
  const floorProc = fork(join(ROOT, "bench/mcp-floor-server.mjs"), [], {
    env: { ...process.env, PORT: String(floorPort), SANDBOX_URL: sandbox.url },
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  await Promise.all([baselineProc, floorProc].map((proc) => new Promise((resolve) => proc.once("message", resolve))));
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: 32 });
  try {
    const t = await targets(server, sandbox, `http://127.0.0.1:${port}`, baselineProc.pid, {
      pid: floorProc.pid,
      url: `http://127.0.0.1:${floorPort}`,
    });
    const earlier = before ? ourTarget(before, await benchToken(before), `Bridgekeeper before (${beforeRoot}) /mcp, 2026-07-28`) : null;
    const order = [t.plain, t.baseline, t.floor, t.ours, t.ours2025, ...(earlier ? [earlier] : [])];
    // Warm every path (JIT, pools, caches) before measuring.
    for (const target of order) await serial(target, agent).catch((err) => Promise.reject(err));

    const one = new Map(order.map((x) => [x, []]));
    const sixteen = new Map(order.map((x) => [x, []]));
    for (let i = 0; i < RUNS; i++) {
      for (const target of order) one.get(target).push(await serial(target, agent));
      for (const target of order) sixteen.get(target).push(await loaded(target));
    }
    const rows = [];
    for (const target of order) rows.push(summary(`concurrency 1: ${target.name}`, one.get(target)));
    const overPlain = one.get(t.ours).map((x, i) => x.p50 - one.get(t.plain)[i].p50);
    rows.push({
      name: "concurrency 1: Bridgekeeper p50 over (a) (target ≤ 0.5 ms)",
      median: `${fmt(median(overPlain), 3)} ms`,
      runs: overPlain.map((x) => fmt(x, 3)).join(", "),
    });
    const floorOver = one.get(t.floor).map((x, i) => x.p50 - one.get(t.plain)[i].p50);
    rows.push({
      name: "concurrency 1: the floor (c) p50 over (a)",
      median: `${fmt(median(floorOver), 3)} ms`,
      runs: floorOver.map((x) => fmt(x, 3)).join(", "),
    });
    for (const target of order) rows.push(summary(`concurrency 16: ${target.name}`, sixteen.get(target)));
    const ratio = sixteen.get(t.ours).map((x, i) => x.rps / sixteen.get(t.baseline)[i].rps);
    rows.push({
      name: "concurrency 16: Bridgekeeper / (b) throughput (target ≥ 2, aim 3)",
      median: `${fmt(median(ratio), 2)}×`,
      runs: ratio.map((x) => fmt(x, 2)).join(", "),
    });
    const floorThroughput = sixteen.get(t.floor).map((x, i) => x.rps / sixteen.get(t.baseline)[i].rps);
    rows.push({
      name: "concurrency 16: the floor (c) / (b) throughput",
      median: `${fmt(median(floorThroughput), 2)}×`,
      runs: floorThroughput.map((x) => fmt(x, 2)).join(", "),
    });
    for (const target of order) {
      const perCall = sixteen.get(target).map((x) => x.cpuPerCall);
      rows.push({
        name: `concurrency 16: CPU per call of the serving process, ${target.name}`,
        median: `${fmt(median(perCall), 3)} ms`,
        runs: perCall.map((x) => fmt(x, 3)).join(", "),
      });
    }
    const cpuRatio = sixteen.get(t.baseline).map((x, i) => x.cpuPerCall / sixteen.get(t.ours)[i].cpuPerCall);
    rows.push({
      name: "concurrency 16: (b)'s CPU per call / Bridgekeeper's (the throughput ratio on a machine of its own)",
      median: `${fmt(median(cpuRatio), 2)}×`,
      runs: cpuRatio.map((x) => fmt(x, 2)).join(", "),
    });
    const floorRatio = sixteen.get(t.baseline).map((x, i) => x.cpuPerCall / sixteen.get(t.floor)[i].cpuPerCall);
    rows.push({
      name: "concurrency 16: (b)'s CPU per call / the floor's (c) (the most any compact answer could reach)",
      median: `${fmt(median(floorRatio), 2)}×`,
      runs: floorRatio.map((x) => fmt(x, 2)).join(", "),
    });
    const overFloor = sixteen.get(t.ours).map((x, i) => x.cpuPerCall / sixteen.get(t.floor)[i].cpuPerCall);
    rows.push({
      name: "concurrency 16: Bridgekeeper's CPU per call / the floor's (c) (aim ≤ 1.5)",
      median: `${fmt(median(overFloor), 2)}×`,
      runs: overFloor.map((x) => fmt(x, 2)).join(", "),
    });
    if (earlier) {
      const change = sixteen.get(t.ours).map((x, i) => x.cpuPerCall / sixteen.get(earlier)[i].cpuPerCall);
      rows.push({
        name: "concurrency 16: CPU per call, this build / the build before (≤ 1: no slower)",
        median: `${fmt(median(change), 2)}×`,
        runs: change.map((x) => fmt(x, 2)).join(", "),
      });
    }

    // The answer a model reads.
    const answer = await (await fetch(t.ours.url, { method: "POST", headers: t.ours.headers, body: t.ours.body() })).json();
    rows.push({
      name: "jira_search text answer, 20 issues (target ≤ 6,000 characters)",
      median: `${answer.result.content[0].text.length} characters (raw upstream body: ${(await (await fetch(t.plain.url, { method: "POST", headers: t.plain.headers, body: t.plain.body() })).text()).length})`,
    });

    // With 20 ms of upstream latency, the server's own cost should vanish behind the wait.
    await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ path: "/rest/api/3/search/jql", latencyMs: 20 }),
    });
    const slow = { plain: [], ours: [] };
    for (let i = 0; i < RUNS; i++) {
      slow.plain.push(await loaded(t.plain));
      slow.ours.push(await loaded(t.ours));
    }
    const slowRatio = slow.ours.map((x, i) => x.rps / slow.plain[i].rps);
    rows.push(
      summary("20 ms upstream latency, concurrency 16: (a) sandbox", slow.plain),
      summary("20 ms upstream latency, concurrency 16: Bridgekeeper", slow.ours),
    );
    rows.push({
      name: "20 ms upstream latency: Bridgekeeper / (a) (target ≥ 0.95)",
      median: `${fmt(median(slowRatio), 3)}`,
      runs: slowRatio.map((x) => fmt(x, 3)).join(", "),
    });
    rows.push(...(await identityCost(server, serverEnv, sandbox, agent)));
    rows.push(...(await dataCenterCost(server, serverEnv, agent)));
    return rows;
  } finally {
    baselineProc.kill("SIGTERM");
    floorProc.kill("SIGTERM");
    await agent.close();
    await server.stop();
    await before?.stop();
    await sandbox.stop();
  }
}

/**
 * Issue 27 item 9: what acting as the person costs a tools/call, with a cached, valid access token.
 * The same search (a project the sandbox's first person may browse) on the shared server with a
 * user-bound token, and on a second server in per-person mode, where the same kind of token reaches
 * Jira as that person through the gateway; alternating, in the same run. Aim: at most 50 µs at p50.
 */
const identityProbe = () => probeModule("bench/identity-probe.ts", "identity-probe");

export async function identityCost(shared, serverEnv, sandbox, agent) {
  const { measure } = await identityProbe();
  const probe = await measure();
  const over = probe.person.map((x, i) => x - probe.shared[i]);
  const inProcess = [
    {
      name: "identity resolution in process, per call: shared mode",
      median: `${fmt(median(probe.shared), 2)} µs`,
      runs: probe.shared.map((x) => fmt(x, 2)).join(", "),
    },
    {
      name: "identity resolution in process, per call: each person's own account (cached, valid 3LO token)",
      median: `${fmt(median(probe.person), 2)} µs`,
      runs: probe.person.map((x) => fmt(x, 2)).join(", "),
    },
    {
      name: "identity: per-person resolution over shared, per call (aim ≤ 50 µs)",
      median: `${fmt(median(over), 2)} µs`,
      runs: over.map((x) => fmt(x, 2)).join(", "),
    },
  ];
  // The upstream latency of the section before is not part of this comparison.
  await fetch(`${sandbox.url}/__sandbox/faults`, { method: "DELETE" });
  const accounts = await (await fetch(`${sandbox.url}/__sandbox/accounts`)).json();
  const project = accounts.people[0].jiraProjects?.[0] ?? "BK";
  const jql = `project = ${project} ORDER BY updated DESC`;
  const personal = await startServer({
    env: { ...serverEnv, ATLASSIAN_AUTH_URL: sandbox.url, ATLASSIAN_API_URL: sandbox.url, BITBUCKET_AUTH_URL: sandbox.url },
  });
  try {
    const cookie = await linkAdminAsPerson(personal, sandbox.url);
    const sharedTarget = ourTarget(
      shared,
      await userToken(shared, await benchClient(shared), await adminCookie(shared)),
      "shared account",
      jql,
    );
    const personTarget = ourTarget(
      personal,
      await userToken(personal, await benchClient(personal), cookie),
      "each person's own account",
      jql,
    );
    await serial(sharedTarget, agent);
    await serial(personTarget, agent);
    // Many short alternating rounds at concurrency 1 (the two processes' noise falls on both alike),
    // then the loaded runs for the serving process's CPU per call.
    const one = { shared: [], person: [] };
    const sixteen = { shared: [], person: [] };
    for (let i = 0; i < IDENTITY_ROUNDS; i++) {
      one.shared.push(await serial(sharedTarget, agent, IDENTITY_CALLS));
      one.person.push(await serial(personTarget, agent, IDENTITY_CALLS));
    }
    for (let i = 0; i < RUNS; i++) {
      sixteen.shared.push(await loaded(sharedTarget));
      sixteen.person.push(await loaded(personTarget));
    }
    const p50Over = one.person.map((x, i) => (x.p50 - one.shared[i].p50) * 1000);
    const cpuOver = sixteen.person.map((x, i) => (x.cpuPerCall - sixteen.shared[i].cpuPerCall) * 1000);
    return [
      ...inProcess,
      summary(`identity, concurrency 1: ${sharedTarget.name} (${jql})`, one.shared),
      summary(`identity, concurrency 1: ${personTarget.name}`, one.person),
      {
        name: "identity over HTTP: per-person p50 over shared, concurrency 1 (two processes: noisy; the in-process figure above is the one to read)",
        median: `${fmt(median(p50Over), 1)} µs`,
        runs: p50Over.map((x) => fmt(x, 1)).join(", "),
      },
      {
        name: "identity: per-person CPU per call over shared, concurrency 16",
        median: `${fmt(median(cpuOver), 1)} µs`,
        runs: cpuOver.map((x) => fmt(x, 1)).join(", "),
      },
    ];
  } finally {
    await personal.stop();
  }
}

/**
 * Issue 28 item 10: the 20-issue search through Data Center (Jira DC's REST v2 on the sandbox's
 * Data Center flavour, a personal access token) beside the same search on Cloud, the serving
 * process's CPU per call at concurrency 16, alternating in the same run. Aim: within 10 % of
 * Cloud's; and the text answer within 6,000 characters.
 */
export async function dataCenterCost(cloud, serverEnv, agent) {
  const dc = await startServer({ env: { ...serverEnv, DEMO_FLAVOUR: "datacenter" } });
  try {
    const cloudTarget = ourTarget(cloud, await benchToken(cloud), "Cloud");
    const dcTarget = ourTarget(dc, await benchToken(dc), "Data Center");
    await serial(cloudTarget, agent);
    await serial(dcTarget, agent);
    const one = { cloud: [], dc: [] };
    const sixteen = { cloud: [], dc: [] };
    for (let i = 0; i < RUNS; i++) {
      one.cloud.push(await serial(cloudTarget, agent));
      one.dc.push(await serial(dcTarget, agent));
      sixteen.cloud.push(await loaded(cloudTarget));
      sixteen.dc.push(await loaded(dcTarget));
    }
    const cpuRatio = sixteen.dc.map((x, i) => x.cpuPerCall / sixteen.cloud[i].cpuPerCall);
    const answer = await (await fetch(dcTarget.url, { method: "POST", headers: dcTarget.headers, body: dcTarget.body() })).json();
    if (answer.result?.isError) throw new Error(`Data Center search failed: ${answer.result.content[0].text}`);
    return [
      summary("Data Center, concurrency 1: jira_search (20 issues), Cloud", one.cloud),
      summary("Data Center, concurrency 1: jira_search (20 issues), Data Center", one.dc),
      {
        name: "Data Center, concurrency 16: CPU per call of the serving process, Cloud",
        median: `${fmt(median(sixteen.cloud.map((x) => x.cpuPerCall)), 3)} ms`,
        runs: sixteen.cloud.map((x) => fmt(x.cpuPerCall, 3)).join(", "),
      },
      {
        name: "Data Center, concurrency 16: CPU per call of the serving process, Data Center",
        median: `${fmt(median(sixteen.dc.map((x) => x.cpuPerCall)), 3)} ms`,
        runs: sixteen.dc.map((x) => fmt(x.cpuPerCall, 3)).join(", "),
      },
      {
        name: "Data Center: CPU per call, Data Center / Cloud (aim ≤ 1.10)",
        median: `${fmt(median(cpuRatio), 3)}×`,
        runs: cpuRatio.map((x) => fmt(x, 3)).join(", "),
      },
      {
        name: "Data Center: jira_search text answer, 20 issues (target ≤ 6,000 characters)",
        median: `${answer.result.content[0].text.length} characters`,
      },
    ];
  } finally {
    await dc.stop();
  }
}
