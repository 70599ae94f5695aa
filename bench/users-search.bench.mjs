// User Management search with 10,000 users (issue: a keystroke must stay instant). Starts the
// built server on a temporary data directory, seeds the users through POST /api/users as the
// admin (concurrency 8), opens /users in Debian's Chromium and types a query one character at a
// time. Two figures per keystroke, both from inside the page:
//   - input -> next paint: the keystroke is on screen (the urgent render, rAF + task after it);
//   - input -> results painted: the filtered table ("Users (N)") for that text is on screen
//     (the deferred render; the card's data-filter attribute says which text the rows answer).
// BENCH_USERS (default 10000) sets the list size; BENCH_USERS_DATA_DIR keeps a seeded data
// directory between runs (seeding hashes 10,000 argon2id passwords, which takes minutes).
/* global document, requestAnimationFrame, HTMLInputElement -- typeAndTime runs inside the page */
import { existsSync, mkdirSync } from "node:fs";
import { chromium } from "@playwright/test";
import { fmt, median, requireBuild, startServer } from "./lib.mjs";

const USERS = Number(process.env.BENCH_USERS ?? 10_000);
const CONCURRENCY = 8;
const QUERY = process.env.BENCH_QUERY ?? "user0123";
const ADMIN = { username: "admin", password: "bench-admin-password" };
const FIRST = ["Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Margaret", "Ken", "Frances", "Linus", "Radia", "Tim"];
const LAST = [
  "Lovelace",
  "Hopper",
  "Turing",
  "Dijkstra",
  "Liskov",
  "Knuth",
  "Hamilton",
  "Thompson",
  "Allen",
  "Torvalds",
  "Perlman",
  "Berners-Lee",
];

async function login(url) {
  const res = await fetch(`${url}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  if (res.status !== 200) throw new Error(`login: ${res.status}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

async function countUsers(url, cookie) {
  const res = await fetch(`${url}/api/users`, { headers: { cookie } });
  if (res.status !== 200) throw new Error(`GET /api/users: ${res.status}`);
  return (await res.json()).length;
}

/** Creates users until there are `total` (admin included), at most CONCURRENCY requests in flight. */
async function seed(url, cookie, total) {
  const existing = await countUsers(url, cookie);
  let next = existing; // user numbers continue after the ones already there
  const started = performance.now();
  const worker = async () => {
    for (;;) {
      const n = next++;
      if (n >= total) return;
      const id = String(n).padStart(5, "0");
      const body = {
        username: `user${id}`,
        email: `user${id}@bench.example`,
        password: "bench-user-password",
        firstName: FIRST[n % FIRST.length],
        lastName: LAST[Math.floor(n / FIRST.length) % LAST.length],
        isActive: n % 7 !== 0,
      };
      const res = await fetch(`${url}/api/users`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie },
        body: JSON.stringify(body),
      });
      if (res.status !== 201) throw new Error(`POST /api/users ${body.username}: ${res.status} ${await res.text()}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { created: Math.max(0, total - existing), seconds: (performance.now() - started) / 1000 };
}

/** In the page: sets the search box to `text` as a keystroke would, and times the two paints. */
function typeAndTime(text) {
  const nextPaint = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  return (async () => {
    const input = document.querySelector('input[type="search"]');
    const card = document.querySelector("[data-filter]");
    const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set;
    const t0 = performance.now();
    setValue.call(input, text);
    input.dispatchEvent(new Event("input", { bubbles: true }));
    await nextPaint();
    const inputPaint = performance.now() - t0;
    while (card.getAttribute("data-filter") !== text) await new Promise((r) => requestAnimationFrame(r));
    await nextPaint();
    const resultsPaint = performance.now() - t0;
    return { inputPaint, resultsPaint, heading: card.querySelector("h2")?.textContent ?? "" };
  })();
}

export async function run() {
  requireBuild();
  const keepDir = process.env.BENCH_USERS_DATA_DIR;
  if (keepDir && !existsSync(keepDir)) mkdirSync(keepDir, { recursive: true });
  const server = await startServer(keepDir ? { dataDir: keepDir } : {});
  let browser;
  try {
    const cookie = await login(server.url);
    const seeded = await seed(server.url, cookie, USERS);
    const listStarted = performance.now();
    const total = await countUsers(server.url, cookie);
    const listMs = performance.now() - listStarted;

    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    });
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${server.url}/users`);
    await page.getByLabel("Username").fill(ADMIN.username);
    await page.getByLabel("Password").fill(ADMIN.password);
    const loadStarted = Date.now();
    await page.getByRole("button", { name: "Sign In" }).click();
    const countText = `Users (${new Intl.NumberFormat("en-US").format(total)})`;
    await page.getByRole("heading", { level: 2, name: countText }).waitFor({ timeout: 60_000 });
    const loadMs = Date.now() - loadStarted;
    const rowsInDom = await page.locator("tbody tr[aria-rowindex]").count();

    // Warm up (JIT, first deferred render), then one keystroke per character of QUERY, twice.
    await page.evaluate(typeAndTime, "x");
    await page.evaluate(typeAndTime, "");
    const samples = [];
    for (let round = 0; round < 2; round++) {
      for (let i = 1; i <= QUERY.length; i++) samples.push(await page.evaluate(typeAndTime, QUERY.slice(0, i)));
      samples.push(await page.evaluate(typeAndTime, ""));
    }
    const inputs = samples.map((s) => s.inputPaint);
    const results = samples.map((s) => s.resultsPaint);
    const last = samples.at(-2)?.heading ?? "";
    return [
      {
        name: `users seeded through POST /api/users (concurrency ${CONCURRENCY})`,
        median: `${seeded.created} created in ${fmt(seeded.seconds, 1)} s${seeded.created ? ` (${fmt(seeded.created / seeded.seconds)} users/s)` : ""}`,
        runs: "",
      },
      { name: `GET /api/users with ${total} users (one request, Node fetch)`, median: `${fmt(listMs)} ms`, runs: "" },
      { name: `sign-in to "${countText}" painted`, median: `${fmt(loadMs)} ms, ${rowsInDom} rows in the DOM`, runs: "" },
      {
        name: `search keystroke -> next paint (${samples.length} keystrokes, typing "${QUERY}" and clearing, twice)`,
        median: `${fmt(median(inputs), 1)} ms`,
        runs: inputs.map((x) => fmt(x, 1)).join(", "),
      },
      {
        name: "search keystroke -> filtered table painted",
        median: `${fmt(median(results), 1)} ms (max ${fmt(Math.max(...results), 1)} ms; "${QUERY}" gives ${last})`,
        runs: results.map((x) => fmt(x, 1)).join(", "),
      },
    ];
  } finally {
    await browser?.close();
    await server.stop({ keepData: Boolean(keepDir) });
  }
}

// `node bench/users-search.bench.mjs` runs it alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await run()) console.log(`- ${row.name}: ${row.median}${row.runs ? `  (runs: ${row.runs})` : ""}`);
}
