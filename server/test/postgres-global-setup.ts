import { randomBytes } from "node:crypto";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../db/client";
import { startThrowawayPostgres } from "./throwaway-postgres";

declare module "vitest" {
  export interface ProvidedContext {
    /** A superuser URL on a server the tests may create databases on. */
    postgresAdminUrl: string;
    /** A migrated database on that server: test databases are created as copies of it. */
    postgresTemplate: string;
  }
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
  const cluster = await startThrowawayPostgres();
  project.provide("postgresAdminUrl", cluster.url);
  await provideTemplate(project, cluster.url);
  return () => cluster.stop();
}
