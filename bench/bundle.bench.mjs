// Console first load (issue 2; target < 150 KB gzip JS): what Chromium really downloads to show
// the login page, and then to reach the dashboard after signing in. Sizes are gzip at level 6,
// what the server's compression sends.
import { gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";
import { CHROMIUM, fmt, requireBuild, startServer } from "./lib.mjs";


export async function run() {
  requireBuild();
  const server = await startServer();
  const browser = await chromium.launch(CHROMIUM);
  try {
    const page = await browser.newPage();
    const seen = new Map();
    page.on("response", async (res) => {
      const type = res.request().resourceType();
      if (type !== "script" && type !== "stylesheet") return;
      const body = await res.body().catch(() => null);
      if (body) seen.set(res.url(), { type, gzip: gzipSync(body, { level: 6 }).length, wire: Number(res.headers()["content-length"] ?? body.length) });
    });
    const total = (type) => [...seen.values()].filter((v) => v.type === type).reduce((s, v) => s + v.gzip, 0);

    await page.goto(`${server.url}/login`, { waitUntil: "networkidle" });
    const loginJs = total("script");
    const loginFiles = [...seen.values()].filter((v) => v.type === "script").length;
    const loginCss = total("stylesheet");

    await page.getByLabel("Username").fill("admin");
    await page.getByLabel("Password").fill("bench-admin-password");
    await page.getByRole("button", { name: "Sign In" }).click();
    await page.getByRole("heading", { level: 1, name: "Server Dashboard" }).waitFor();
    await page.waitForLoadState("networkidle");
    const dashboardJs = total("script");
    const dashboardFiles = [...seen.values()].filter((v) => v.type === "script").length;

    // The AI Chat route (its own lazy chunk, with Markdown and highlighting): what the click on
    // its sidebar link downloads beyond the dashboard.
    await page.getByRole("link", { name: "AI Chat" }).click();
    await page.getByRole("heading", { level: 1, name: "AI Chat Assistant" }).waitFor();
    await page.waitForLoadState("networkidle");
    const chatJs = total("script") - dashboardJs;
    const chatFiles = [...seen.values()].filter((v) => v.type === "script").length - dashboardFiles;
    const chatCss = total("stylesheet") - loginCss;

    return [
      { name: "login page, JS (gzip)", median: `${fmt(loginJs / 1024, 1)} KB`, runs: `${loginFiles} files` },
      { name: "login page, CSS (gzip)", median: `${fmt(loginCss / 1024, 1)} KB`, runs: "" },
      { name: "login page + sign-in to the dashboard, JS (gzip)", median: `${fmt(dashboardJs / 1024, 1)} KB`, runs: `${dashboardFiles} files` },
      { name: "then the /chat route, JS beyond the dashboard (gzip)", median: `${fmt(chatJs / 1024, 1)} KB`, runs: `${chatFiles} files, CSS ${fmt(chatCss / 1024, 1)} KB` },
    ];
  } finally {
    await browser.close();
    await server.stop();
  }
}
