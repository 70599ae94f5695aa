import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** A superuser URL on a server the tests may create databases on. */
    postgresAdminUrl: string;
  }
}

function findPostgresBin(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  return versions.map((v) => join(root, v, "bin")).find((bin) => existsSync(join(bin, "initdb")));
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });

/** Runs a PostgreSQL tool, as the postgres user when we are root (initdb refuses root). */
function runPg(bin: string, tool: string, args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  const [cmd, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", join(bin, tool), ...args]] : [join(bin, tool), args];
  execFileSync(cmd, argv, { stdio: ["ignore", "ignore", "pipe"] });
}

export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE_URL) {
    project.provide("postgresAdminUrl", process.env.TEST_DATABASE_URL);
    return;
  }
  const bin = findPostgresBin();
  if (!bin) throw new Error("PostgreSQL binaries not found and TEST_DATABASE_URL not set");

  const dir = mkdtempSync(join(tmpdir(), "bk-pg-"));
  const dataDir = join(dir, "data");
  if (process.getuid?.() === 0) {
    chownSync(dir, Number(execFileSync("id", ["-u", "postgres"]).toString().trim()), Number(execFileSync("id", ["-g", "postgres"]).toString().trim()));
    chmodSync(dir, 0o700);
  }
  const port = await freePort();
  runPg(bin, "initdb", ["-D", dataDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  // Durability is irrelevant for a throwaway test cluster; speed is not.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  runPg(bin, "pg_ctl", ["-D", dataDir, "-o", options, "-l", join(dir, "log"), "-w", "start"]);
  project.provide("postgresAdminUrl", `postgres://postgres@127.0.0.1:${port}/postgres`);

  return () => {
    try {
      runPg(bin, "pg_ctl", ["-D", dataDir, "-m", "immediate", "-w", "stop"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}
