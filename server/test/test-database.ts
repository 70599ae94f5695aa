import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import pg from "pg";
import { inject } from "vitest";
import { PGlite } from "@electric-sql/pglite";
import { openDatabase, wrapPglite, type Database } from "../db/client";

const adminQuery = async (sql: string) => {
  const admin = new pg.Client({ connectionString: inject("postgresAdminUrl") });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
};

/**
 * A new database on the "postgres" project's server, and how to drop it: empty, or a copy of the
 * migrated template the global setup made.
 */
export async function createPostgresTestDatabase({ migrated = false } = {}): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `bk_test_${randomBytes(6).toString("hex")}`;
  await adminQuery(migrated ? `create database ${name} template ${inject("postgresTemplate")}` : `create database ${name}`);
  const url = new URL(inject("postgresAdminUrl"));
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => adminQuery(`drop database if exists ${name} with (force)`) };
}

/** The migrated data directory the global setup dumped (pglite-global-setup.ts), read once per file. */
let template: Blob | undefined;
const pgliteTemplate = () => (template ??= new Blob([readFileSync(inject("pgliteTemplatePath"))]));

/**
 * A fresh, migrated database for one test file: PGlite in memory, or a new database on the
 * PostgreSQL server of the "postgres" project (dropped again on close).
 */
export async function openTestDatabase(): Promise<Database> {
  if (process.env.TEST_DB !== "postgres") {
    const client = new PGlite({ loadDataDir: pgliteTemplate() });
    await client.waitReady;
    return wrapPglite(client);
  }
  const { url, drop } = await createPostgresTestDatabase({ migrated: true });
  const database = await openDatabase({ kind: "postgres", url });
  return {
    ...database,
    async close() {
      await database.close();
      await drop();
    },
  };
}
