// Dashboard (issue 12): the time from navigation start until every card is filled (the four stat
// cards, both integration cards and Recent Activity no longer busy), and until the three traffic
// charts are drawn; Chromium against the built server on loopback, signed in, warm loads.
/* global document */ // read inside the page (page.waitForFunction), not in Node
import { chromium } from "@playwright/test";
import { CHROMIUM, fmt, median, requireBuild, startServer } from "./lib.mjs";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CARDS = [
  "Server Status",
  "Active SSE Connections",
  "OAuth Clients",
  "API Requests/hour",
  "Atlassian Integration",
  "Bitbucket Integration",
  "Recent Activity",
];

export async function run() {
  requireBuild();
  const server = await startServer();
  const browser = await chromium.launch(CHROMIUM);
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}/login`);
    await page.getByLabel("Username").fill("admin");
    await page.getByLabel("Password").fill("bench-admin-password");
    await page.getByRole("button", { name: "Sign In" }).click();
    await page.getByRole("heading", { level: 1, name: "Server Dashboard" }).waitFor();
    const filled = [];
    const charts = [];
    for (let i = 0; i < RUNS + 1; i++) {
      await page.goto(`${server.url}/`);
      const cardsAt = await page.waitForFunction(
        (names) => {
          const regions = Array.from(document.querySelectorAll("[role='region'][aria-labelledby]"));
          const busy = (name) =>
            regions
              .find((r) => document.getElementById(r.getAttribute("aria-labelledby") ?? "")?.textContent?.trim() === name)
              ?.getAttribute("aria-busy");
          return names.every((name) => busy(name) === "false") ? performance.now() : false;
        },
        CARDS,
        { polling: "raf", timeout: 30_000 },
      );
      const chartsAt = await page.waitForFunction(
        () => (document.querySelectorAll(".bk-chart canvas").length >= 3 ? performance.now() : false),
        undefined,
        { polling: "raf", timeout: 30_000 },
      );
      if (i === 0) continue; // the first load warms the caches
      filled.push(await cardsAt.jsonValue());
      charts.push(await chartsAt.jsonValue());
    }
    return [
      {
        name: "dashboard: every card filled, from navigation start (loopback, warm)",
        median: `${fmt(median(filled))} ms`,
        runs: filled.map((x) => fmt(x)).join(", "),
      },
      {
        name: "dashboard: the three traffic charts drawn",
        median: `${fmt(median(charts))} ms`,
        runs: charts.map((x) => fmt(x)).join(", "),
      },
    ];
  } finally {
    await browser.close();
    await server.stop();
  }
}
