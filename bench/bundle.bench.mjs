// Console first load: the JS the login page loads (entry + modulepreloads), gzip (issue 2; target < 150 KB).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { ROOT, fmt, requireBuild } from "./lib.mjs";

export async function run() {
  requireBuild();
  const web = join(ROOT, "dist/web");
  const html = readFileSync(join(web, "index.html"), "utf8");
  const firstLoad = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]);
  const gz = (file) => gzipSync(readFileSync(join(web, file))).length;
  const firstLoadBytes = firstLoad.reduce((sum, f) => sum + gz(f), 0);
  const allJs = readdirSync(join(web, "assets")).filter((f) => f.endsWith(".js"));
  const allBytes = allJs.reduce((sum, f) => sum + gz(`/assets/${f}`), 0);
  const css = readdirSync(join(web, "assets")).filter((f) => f.endsWith(".css"));
  const cssBytes = css.reduce((sum, f) => sum + gz(`/assets/${f}`), 0);
  return [
    { name: "first-load JS (gzip)", median: `${fmt(firstLoadBytes / 1024, 1)} KB`, runs: `${firstLoad.length} files` },
    { name: "all console JS incl. lazy pages (gzip)", median: `${fmt(allBytes / 1024, 1)} KB`, runs: `${allJs.length} files` },
    { name: "CSS (gzip)", median: `${fmt(cssBytes / 1024, 1)} KB`, runs: `${css.length} files` },
  ];
}
