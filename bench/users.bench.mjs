// GET /api/users with 10,000 users stored (issue 3): latency p50/p99 and throughput, against
// GET /api/session on the same server in the same run as the baseline.
import autocannon from "autocannon";
import { PGlite } from "@electric-sql/pglite";
import { hash } from "@node-rs/argon2";
import { fmt, median, requireBuild, startServer } from "./lib.mjs";

const USERS = Number(process.env.BENCH_USERS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

const cannon = (opts) =>
  new Promise((resolve, reject) =>
    autocannon({ connections: 1, duration: SECONDS, ...opts }, (err, res) => (err ? reject(err) : resolve(res))),
  );

/** Writes USERS users straight into the stopped server's PGlite directory (one shared hash: seeding speed). */
async function seed(dataDir) {
  const db = new PGlite(dataDir);
  const passwordHash = await hash("seeded-user-password");
  await db.query(
    `insert into users (username, email, first_name, last_name, password_hash, is_active)
     select 'user' || g, 'user' || g || '@example.com', 'First' || g, 'Last' || g, $1, g % 10 <> 0
     from generate_series(1, ${USERS}) g`,
    [passwordHash],
  );
  await db.query(
    `insert into user_roles (user_id, role_id)
     select u.id, r.id from users u join roles r on r.name = case when u.username like '%7' then 'operator' else 'viewer' end
     where u.username like 'user%'`,
  );
  await db.close();
}

export async function run() {
  requireBuild();
  const first = await startServer();
  await first.stop({ keepData: true });
  await seed(first.dataDir);
  const server = await startServer({ dataDir: first.dataDir });
  try {
    const login = await fetch(`${server.url}/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "admin", password: "bench-admin-password" }),
    });
    const cookie = login.headers.getSetCookie()[0].split(";")[0];
    const list = await fetch(`${server.url}/api/users`, { headers: { cookie } });
    const body = await list.text();
    const count = JSON.parse(body).length;
    if (count < USERS) throw new Error(`expected ${USERS} users, got ${count}`);

    const users = { p50: [], p99: [], rps: [] };
    const session = { p50: [], rps: [] };
    for (let i = 0; i < RUNS; i++) {
      const s = await cannon({ url: `${server.url}/api/session`, headers: { cookie } });
      session.p50.push(s.latency.p50);
      session.rps.push(s.requests.average);
      const u = await cannon({ url: `${server.url}/api/users`, headers: { cookie } });
      if (u.non2xx) throw new Error(`${u.non2xx} non-2xx answers`);
      users.p50.push(u.latency.p50);
      users.p99.push(u.latency.p99);
      users.rps.push(u.requests.average);
    }
    return [
      {
        name: `GET /api/users, ${count} users (${fmt(body.length / 1024 / 1024, 1)} MB JSON), 1 connection`,
        median: `p50 ${fmt(median(users.p50))} ms, p99 ${fmt(median(users.p99))} ms, ${fmt(median(users.rps), 1)} req/s`,
        runs: users.p50.map((x) => fmt(x)).join(", "),
      },
      {
        name: "baseline GET /api/session, same server",
        median: `p50 ${fmt(median(session.p50), 1)} ms, ${fmt(median(session.rps))} req/s`,
        runs: session.p50.map((x) => fmt(x, 1)).join(", "),
      },
    ];
  } finally {
    await server.stop();
  }
}
