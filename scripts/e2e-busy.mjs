// `npm run test:e2e:busy`: the browser suite with a CPU hog beside it (one busy loop per core,
// bounded in time), to prove the tests wait for states, not for time. Build first.
import { spawn, spawnSync } from "node:child_process";
import { cpus } from "node:os";

const HOG_SECONDS = Number(process.env.HOG_SECONDS ?? 1200);
const hogs = cpus().map(() =>
  spawn(process.execPath, ["-e", `const end = Date.now() + ${HOG_SECONDS * 1000}; while (Date.now() < end) Math.sqrt(Math.random());`], {
    stdio: "ignore",
  }),
);
console.log(`CPU hog: ${hogs.length} busy loops (pids ${hogs.map((h) => h.pid).join(", ")}), at most ${HOG_SECONDS} s`);
let status = 1;
try {
  status = spawnSync("npx", ["playwright", "test", ...process.argv.slice(2)], { stdio: "inherit" }).status ?? 1;
} finally {
  for (const hog of hogs) hog.kill("SIGKILL");
}
process.exit(status);
