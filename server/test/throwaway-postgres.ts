import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A free TCP port on loopback (closed again before it is used: good enough on a test machine). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });

/** The newest PostgreSQL binaries of Debian's packages, if installed. */
export function findPostgresBin(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  return versions.map((v) => join(root, v, "bin")).find((bin) => existsSync(join(bin, "initdb")));
}

/** Runs a PostgreSQL tool, as the postgres user when we are root (initdb refuses root). */
function runPg(bin: string, tool: string, args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  const [cmd, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", join(bin, tool), ...args]] : [join(bin, tool), args];
  execFileSync(cmd, argv, { stdio: ["ignore", "ignore", "pipe"] });
}

/**
 * A throwaway PostgreSQL cluster on a free loopback port, from Debian's binaries, tuned for speed
 * (no durability); `stop` ends it and removes its files. For the tests' global setup and the
 * benchmarks (bench/cluster.bench.mjs).
 */
export async function startThrowawayPostgres(): Promise<{ url: string; stop(): void }> {
  const bin = findPostgresBin();
  if (!bin) throw new Error("PostgreSQL binaries not found (/usr/lib/postgresql/*/bin): apt-get install -y postgresql");
  const dir = mkdtempSync(join(tmpdir(), "bk-pg-"));
  const dataDir = join(dir, "data");
  if (process.getuid?.() === 0) {
    chownSync(
      dir,
      Number(execFileSync("id", ["-u", "postgres"]).toString().trim()),
      Number(execFileSync("id", ["-g", "postgres"]).toString().trim()),
    );
    chmodSync(dir, 0o700);
  }
  const port = await freePort();
  runPg(bin, "initdb", ["-D", dataDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  runPg(bin, "pg_ctl", ["-D", dataDir, "-o", options, "-l", join(dir, "log"), "-w", "start"]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        runPg(bin, "pg_ctl", ["-D", dataDir, "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
