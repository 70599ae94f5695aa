import { spawn, spawnSync } from "node:child_process";
import { freePort } from "./throwaway-postgres";

/** Debian's Redis server (`apt-get install redis-server`, which .ci/run does), or null when it is not installed. */
export const REDIS_SERVER = spawnSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" }).stdout.trim() || null;

/** A throwaway Redis on a free loopback port, nothing saved to disk; stopped (by its pid) with `stop`. */
export async function startRedisServer(): Promise<{ url: string; stop(): Promise<void> }> {
  if (!REDIS_SERVER) throw new Error("redis-server is not installed (apt-get install -y redis-server)");
  const port = await freePort();
  const child = spawn(REDIS_SERVER, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const deadline = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 30_000);
    const seen = (d: Buffer) => {
      output += d;
      if (output.includes("Ready to accept connections")) {
        clearTimeout(deadline);
        resolve();
      }
    };
    child.stdout!.on("data", seen);
    child.stderr!.on("data", seen);
    child.once("exit", (code) => {
      clearTimeout(deadline);
      reject(new Error(`redis-server exited (${code}):\n${output}`));
    });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
