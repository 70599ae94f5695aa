// Login throughput and latency (argon2id bound), against GET /api/mcp/health on the same server
// in the same run as the baseline (issue 2).
//
// BENCH_BASELINE_ROOT=<another built checkout>: instead, a server from that checkout and one from
// this one, sign-in runs alternating between them (baseline, current, baseline, ...), medians and
// their ratio; then, on each, the owner's sign-in after 40 wrong passwords for the same account.
// The baseline gets TRUST_PROXY=${BENCH_BASELINE_TRUST_PROXY:-true} (older code: true/false only),
// the current one TRUST_PROXY=loopback (it refuses true).
import autocannon from "autocannon";
import { resolve } from "node:path";
import { fmt, median, percentile, requireBuild, startServer } from "./lib.mjs";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const BASELINE_ROOT = process.env.BENCH_BASELINE_ROOT;
const ADMIN = { username: "admin", password: "bench-admin-password" };

const cannon = (opts) =>
  new Promise((resolve, reject) =>
    autocannon({ connections: 4, duration: SECONDS, ...opts }, (err, res) => (err ? reject(err) : resolve(res))),
  );

const signIns = (url) =>
  cannon({ url: `${url}/api/login`, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(ADMIN) });

export async function run() {
  requireBuild();
  if (BASELINE_ROOT) return compare(resolve(BASELINE_ROOT));
  const server = await startServer();
  try {
    const login = { rps: [], p50: [], p99: [], non2xx: 0 };
    const health = { rps: [], p99: [] };
    for (let i = 0; i < RUNS; i++) {
      const h = await cannon({ url: `${server.url}/api/mcp/health` });
      health.rps.push(h.requests.average);
      health.p99.push(h.latency.p99);
      const l = await signIns(server.url);
      login.rps.push(l.requests.average);
      login.p50.push(l.latency.p50);
      login.p99.push(l.latency.p99);
      login.non2xx += l.non2xx;
    }
    if (login.non2xx > 0) throw new Error(`${login.non2xx} login requests did not answer 2xx`);
    return [
      {
        name: `POST /api/login, 4 connections, ${SECONDS} s`,
        median: `${fmt(median(login.rps))} req/s, p50 ${fmt(median(login.p50))} ms, p99 ${fmt(median(login.p99))} ms`,
        runs: login.rps.map((x) => fmt(x)).join(", "),
      },
      {
        name: "baseline GET /api/mcp/health, same server",
        median: `${fmt(median(health.rps))} req/s, p99 ${fmt(median(health.p99))} ms`,
        runs: health.rps.map((x) => fmt(x)).join(", "),
      },
      { name: "login cost relative to health", median: `${fmt(median(health.rps) / median(login.rps), 1)}x fewer req/s`, runs: "" },
    ];
  } finally {
    await server.stop();
  }
}

async function compare(baselineRoot) {
  requireBuild(baselineRoot);
  const sides = [
    { name: "baseline", root: baselineRoot, env: { TRUST_PROXY: process.env.BENCH_BASELINE_TRUST_PROXY ?? "true" } },
    { name: "current", root: undefined, env: { TRUST_PROXY: "loopback" } },
  ];
  try {
    for (const side of sides)
      Object.assign(side, { server: await startServer({ root: side.root, env: side.env }), rps: [], p50: [], p99: [], non2xx: 0 });
    for (let i = 0; i < RUNS; i++) {
      for (const side of sides) {
        const l = await signIns(side.server.url);
        side.rps.push(l.requests.average);
        side.p50.push(l.latency.p50);
        side.p99.push(l.latency.p99);
        side.non2xx += l.non2xx;
      }
    }
    for (const side of sides) if (side.non2xx > 0) throw new Error(`${side.name}: ${side.non2xx} login requests did not answer 2xx`);
    for (const side of sides) side.attack = await underAttack(side.server.url);
    const [base, cur] = sides;
    const ratio = (k) => fmt(median(cur[k]) / median(base[k]), 2);
    return [
      ...sides.map((side) => ({
        name: `${side.name} POST /api/login, 4 connections, ${SECONDS} s${side.root ? ` (${side.root})` : ""}`,
        median: `${fmt(median(side.rps))} req/s, p50 ${fmt(median(side.p50))} ms, p99 ${fmt(median(side.p99))} ms`,
        runs: side.rps.map((x, j) => `${fmt(x)} req/s p50 ${side.p50[j]} p99 ${side.p99[j]}`).join("; "),
      })),
      { name: "current/baseline, medians", median: `req/s ${ratio("rps")}, p50 ${ratio("p50")}, p99 ${ratio("p99")}`, runs: "" },
      ...sides.map((side) => ({
        name: `${side.name}: owner signs in after 40 wrong passwords for the account`,
        median: side.attack,
        runs: "",
      })),
    ];
  } finally {
    for (const side of sides) await side.server?.stop();
  }
}

const ATTACKERS = 8; // × 5 wrong passwords = 40, more than the per-account limit (30)
const OWNER_TRIES = 20;

const postLogin = (url, body, forwardedFor) =>
  fetch(`${url}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(forwardedFor ? { "x-forwarded-for": forwardedFor } : {}) },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });

const statusOf = async (res) => {
  await res.arrayBuffer();
  return res.status;
};

/** Does the server take the client address from X-Forwarded-For? Signs in with one, reads the audited address. */
async function trustsForwardedFor(url) {
  const res = await postLogin(url, ADMIN, "192.0.2.77");
  if ((await statusOf(res)) !== 200) throw new Error(`probe sign-in answered ${res.status}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const audit = await fetch(`${url}/api/admin/audit?action=auth.login&limit=1`, { headers: { cookie } });
  return (await audit.json()).events?.[0]?.ipAddress === "192.0.2.77";
}

/** 40 wrong passwords for admin (8 addresses × 5, forwarded only if trusted), then the owner's sign-ins. */
async function underAttack(url) {
  const forwarded = await trustsForwardedFor(url);
  const deadline = performance.now() + SECONDS * 1000;
  const count = (m, k) => m.set(k, (m.get(k) ?? 0) + 1);
  const show = (m) =>
    [...m]
      .sort()
      .map(([k, n]) => `${n}× ${k}`)
      .join(", ");
  const attack = new Map();
  await Promise.all(
    Array.from({ length: ATTACKERS }, async (_, a) => {
      for (let t = 0; t < 5 && performance.now() < deadline; t++) {
        count(
          attack,
          await statusOf(await postLogin(url, { ...ADMIN, password: `wrong-${a}-${t}` }, forwarded ? `203.0.113.${a + 1}` : null)),
        );
      }
    }),
  );
  const owner = new Map();
  const ms = [];
  const ownerDeadline = performance.now() + SECONDS * 1000;
  for (let t = 0; t < OWNER_TRIES && performance.now() < ownerDeadline; t++) {
    const started = performance.now();
    count(owner, await statusOf(await postLogin(url, ADMIN, forwarded ? "198.51.100.10" : null)));
    ms.push(performance.now() - started);
  }
  const from = forwarded
    ? `attackers 203.0.113.1-${ATTACKERS}, owner 198.51.100.10 (X-Forwarded-For trusted)`
    : "everyone from 127.0.0.1 (X-Forwarded-For not trusted)";
  const sent = [...attack.values()].reduce((a, b) => a + b, 0);
  return `owner ${show(owner)} (p50 ${fmt(percentile(ms, 50), 1)} ms, p99 ${fmt(percentile(ms, 99), 1)} ms); attack ${sent}/${ATTACKERS * 5} sent: ${show(attack)}; ${from}`;
}
