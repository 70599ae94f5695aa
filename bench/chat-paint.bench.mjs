// AI chat, issue 13: from the first streamed token to the first token painted, in Chromium. The
// page marks `chat:first-token-received` when the stream parser hands over the reply's first text
// and `chat:first-token-painted` after the frame that shows it (web/src/pages/Chat). Also the
// whole path from the provider writing its first piece (the fake records the moment) to that
// paint, through the server's relay. Target: received → painted < 50 ms.
import { chromium } from "@playwright/test";
import { chatRig } from "./chat.bench.mjs";
import { CHROMIUM, fmt, median, percentile, requireBuild } from "./lib.mjs";

const RUNS = Number(process.env.BENCH_PAINT_RUNS ?? 20);
const WARMUP = 2;

export async function run() {
  requireBuild();
  const rig = await chatRig();
  const browser = await chromium.launch(CHROMIUM);
  try {
    const page = await browser.newPage({ baseURL: rig.server.url, viewport: { width: 1440, height: 900 } });
    await page.goto("/chat");
    await page.getByLabel("Username").fill("admin");
    await page.getByLabel("Password").fill("bench-admin-password");
    await page.getByRole("button", { name: "Sign In" }).click();
    await page.getByRole("heading", { level: 1, name: "AI Chat Assistant" }).waitFor();
    await page.getByText("Bench fake", { exact: true }).waitFor();
    const input = page.getByPlaceholder("Ask about your enterprise data...");

    const inBrowser = [];
    const endToEnd = [];
    for (let i = 0; i < RUNS + WARMUP; i++) {
      rig.fake.reset();
      await page.evaluate(() => performance.clearMarks());
      await page.getByRole("button", { name: "New chat" }).click();
      await page.getByText("Ready to assist").waitFor();
      // No tool keyword: one provider call, its greeting streamed a word per event.
      await input.fill(`Hello number ${i}`);
      await input.press("Enter");
      await page.waitForFunction(() => performance.getEntriesByName("chat:first-token-painted").length > 0);
      const marks = await page.evaluate(() => ({
        origin: performance.timeOrigin,
        received: performance.getEntriesByName("chat:first-token-received")[0]?.startTime ?? NaN,
        painted: performance.getEntriesByName("chat:first-token-painted")[0]?.startTime ?? NaN,
      }));
      await page
        .getByRole("article", { name: "Assistant" })
        .getByText(/What would you like to know\?/)
        .waitFor();
      if (i < WARMUP) continue;
      const firstPieceAt = rig.fake.requests.at(-1)?.timing.firstPieceAt ?? NaN;
      inBrowser.push(marks.painted - marks.received);
      endToEnd.push(marks.origin + marks.painted - firstPieceAt);
    }
    return [
      {
        name: `chat: first token received → painted, p50 (${RUNS} replies; target < 50 ms)`,
        median: `${fmt(median(inBrowser), 1)} ms`,
        runs: `p90 ${fmt(percentile(inBrowser, 90), 1)} ms`,
      },
      {
        name: "chat: provider's first piece written → painted in the page (through the server)",
        median: `${fmt(median(endToEnd), 1)} ms`,
        runs: `p90 ${fmt(percentile(endToEnd, 90), 1)} ms`,
      },
    ];
  } finally {
    await browser.close();
    await rig.stop();
  }
}
