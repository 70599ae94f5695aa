import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { openDatabase, type Database } from "../db/client";

const adminQuery = async (sql: string) => {
  const admin = new pg.Client({ connectionString: inject("postgresAdminUrl") });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
};

/** An empty database on the "postgres" project's server, and how to drop it. */
export async function createPostgresTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `bk_test_${randomBytes(6).toString("hex")}`;
  await adminQuery(`create database ${name}`);
  const url = new URL(inject("postgresAdminUrl"));
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => adminQuery(`drop database if exists ${name} with (force)`) };
}

/**
 * A fresh, migrated database for one test file: PGlite in memory, or a new database on the
 * PostgreSQL server of the "postgres" project (dropped again on close).
 */
export async function openTestDatabase(): Promise<Database> {
  if (process.env.TEST_DB !== "postgres") {
    const database = await openDatabase({ kind: "pglite", dataDir: null });
    await database.migrate();
    return database;
  }
  const { url, drop } = await createPostgresTestDatabase();
  const database = await openDatabase({ kind: "postgres", url });
  await database.migrate();
  return {
    ...database,
    async close() {
      await database.close();
      await drop();
    },
  };
}
