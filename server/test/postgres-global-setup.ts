import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../db/client";

declare module "vitest" {
  export interface ProvidedContext {
    /** A superuser URL on a server the tests may create databases on. */
    postgresAdminUrl: string;
    /** A migrated database on that server: test databases are created as copies of it. */
    postgresTemplate: string;
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

/**
 * Migrates one database on the server at `adminUrl` and offers it as the template every test
 * database is copied from (CREATE DATABASE ... TEMPLATE: a file copy, no migrations per file).
 * Returns how to drop it.
 */
async function provideTemplate(project: TestProject, adminUrl: string): Promise<() => Promise<void>> {
  const name = `bk_template_${randomBytes(6).toString("hex")}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: "postgres", url: url.toString() });
  try {
    await database.migrate();
  } finally {
    await database.close();
  }
  project.provide("postgresTemplate", name);
  return () => admin(`drop database if exists ${name} with (force)`);
}

export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE_URL) {
    project.provide("postgresAdminUrl", process.env.TEST_DATABASE_URL);
    return provideTemplate(project, process.env.TEST_DATABASE_URL);
  }
  const bin = findPostgresBin();
  if (!bin) throw new Error("PostgreSQL binaries not found and TEST_DATABASE_URL not set");

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
  // Durability is irrelevant for a throwaway test cluster; speed is not.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  runPg(bin, "pg_ctl", ["-D", dataDir, "-o", options, "-l", join(dir, "log"), "-w", "start"]);
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  project.provide("postgresAdminUrl", adminUrl);
  await provideTemplate(project, adminUrl);

  return () => {
    try {
      runPg(bin, "pg_ctl", ["-D", dataDir, "-m", "immediate", "-w", "stop"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}
