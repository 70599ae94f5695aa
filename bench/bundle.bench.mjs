// Console first load (issue 2; target < 150 KB gzip JS): what Chromium really downloads to show
// the login page, and then to reach the dashboard after signing in. Sizes are gzip at level 6,
// what the server's compression sends.
import { gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";
import { CHROMIUM, contractModule, fmt, requireBuild, startServer } from "./lib.mjs";

export async function run() {
  requireBuild();
  const { NAV_ITEMS } = await contractModule("navigation");
  const server = await startServer();
  const browser = await chromium.launch(CHROMIUM);
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    const { seen, settled } = collect(page);
    const total = (type) => [...seen.values()].filter((v) => v.type === type).reduce((s, v) => s + v.gzip, 0);

    await page.goto(`${server.url}/login`, { waitUntil: "networkidle" });
    await settled();
    const loginJs = total("script");
    const loginFiles = [...seen.values()].filter((v) => v.type === "script").length;
    const loginCss = total("stylesheet");

    await page.getByLabel("Username").fill("admin");
    await page.getByLabel("Password").fill("bench-admin-password");
    await page.getByRole("button", { name: "Sign In" }).click();
    await page.getByRole("heading", { level: 1, name: "Server Dashboard" }).waitFor();
    // The traffic charts' code (uPlot) arrives lazily, once their data has: wait until they are drawn.
    await page.locator(".bk-chart canvas").nth(2).waitFor();
    await page.waitForLoadState("networkidle");
    await settled();
    const dashboardJs = total("script");
    const dashboardFiles = [...seen.values()].filter((v) => v.type === "script").length;

    // Each console route is its own lazy chunk: what a click on its sidebar link downloads beyond
    // the dashboard, each measured from a fresh dashboard (a new page in the signed-in context, so
    // no route profits from another's shared chunks).
    const routes = [];
    for (const item of NAV_ITEMS.filter((i) => i.path !== "/")) {
      const routePage = await context.newPage();
      const { seen: own, settled: ownSettled } = collect(routePage);
      await routePage.goto(`${server.url}/`);
      await routePage.locator(".bk-chart canvas").nth(2).waitFor();
      await routePage.waitForLoadState("networkidle");
      await ownSettled();
      const before = new Set(own.keys());
      await routePage.getByRole("navigation").first().getByRole("link", { name: item.label, exact: true }).click();
      await routePage.waitForURL(`**${item.path}`);
      await routePage.getByRole("heading", { level: 1 }).waitFor();
      await routePage.waitForLoadState("networkidle");
      await ownSettled();
      const added = [...own].filter(([url]) => !before.has(url)).map(([, v]) => v);
      const js = added.filter((v) => v.type === "script");
      routes.push({
        name: `then ${item.path} (${item.label}), JS beyond the dashboard (gzip)`,
        median: `${fmt(js.reduce((n, v) => n + v.gzip, 0) / 1024, 1)} KB`,
        runs: `${js.length} files`,
      });
      await routePage.close();
    }

    return [
      { name: "login page, JS (gzip)", median: `${fmt(loginJs / 1024, 1)} KB`, runs: `${loginFiles} files` },
      { name: "login page, CSS (gzip)", median: `${fmt(loginCss / 1024, 1)} KB`, runs: "" },
      {
        name: "login page + sign-in to the dashboard with its charts, JS (gzip)",
        median: `${fmt(dashboardJs / 1024, 1)} KB`,
        runs: `${dashboardFiles} files`,
      },
      ...routes,
    ];
  } finally {
    await browser.close();
    await server.stop();
  }
}

/**
 * The scripts and stylesheets a page receives, by URL, with their gzip size; `settled()` waits
 * until every body seen so far has been read (they are read as they arrive, after the fact).
 */
function collect(page) {
  const seen = new Map();
  const pending = new Set();
  page.on("response", (res) => {
    const type = res.request().resourceType();
    if (type !== "script" && type !== "stylesheet") return;
    const read = res
      .body()
      .then((body) => seen.set(res.url(), { type, gzip: gzipSync(body, { level: 6 }).length }))
      .catch(() => {})
      .finally(() => pending.delete(read));
    pending.add(read);
  });
  return { seen, settled: () => Promise.all([...pending]) };
}
