import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import type { Pool } from "pg";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { APP_ROOT } from "../lib/app-root";
import { lockDataDir } from "./data-dir-lock";
import * as schema from "./schema";

/** The one database type repos see: the same Drizzle API on PGlite and on PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  /** PostgreSQL: the connection pool (the shared rate limits count through it). */
  pool?: Pool;
  migrate(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

const MIGRATIONS_FOLDER = join(APP_ROOT, "server/db/migrations");
/** Any constant shared by every instance; serialises migrations when several servers start at once. */
const MIGRATION_LOCK_KEY = 727_274_001;

export type DatabaseTarget = { kind: "postgres"; url: string } | { kind: "pglite"; dataDir: string | null };

/** PGlite in `dataDir` (null: in memory, for tests), or PostgreSQL at `url`. */
export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.kind === "postgres") {
    // Loaded only when used: the embedded database starts without them.
    const [{ default: pg }, { drizzle: drizzlePg }, { migrate: migratePg }] = await Promise.all([
      import("pg"),
      import("drizzle-orm/node-postgres"),
      import("drizzle-orm/node-postgres/migrator"),
    ]);
    const pool = new pg.Pool({ connectionString: target.url, max: 10, idleTimeoutMillis: 30_000 });
    // An idle client the server disconnects (a restart, a failover, 57P01) is an 'error' event on the
    // pool: unheard, it would end the process. The pool drops that client and the next query opens
    // another; the queries in flight fail on their own and are answered there.
    pool.on("error", () => undefined);
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      db,
      kind: "postgres",
      pool,
      async migrate() {
        const client = await pool.connect();
        try {
          await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
          await migratePg(drizzlePg(client, { schema }), { migrationsFolder: MIGRATIONS_FOLDER });
        } finally {
          await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => undefined);
          client.release();
        }
      },
      ping: async () => void (await db.execute(sql`select 1`)),
      close: () => pool.end(),
    };
  }

  if (!target.dataDir) {
    const client = new PGlite();
    await client.waitReady;
    return wrapPglite(client);
  }
  mkdirSync(target.dataDir, { recursive: true });
  // One process per data directory: a second one is refused with a sentence saying why.
  const lock = lockDataDir(target.dataDir);
  try {
    if (!existsSync(join(target.dataDir, "PG_VERSION"))) copyPgliteSeed(target.dataDir);
    const client = new PGlite(target.dataDir);
    await client.waitReady;
    const database = wrapPglite(client);
    return { ...database, close: () => database.close().finally(() => lock.release()) };
  } catch (err) {
    lock.release();
    throw err;
  }
}

/**
 * The migrated cluster `npm run build` saves (scripts/build-pglite-seed.mjs), copied into an empty
 * data directory on a first start: a tenth of initdb's time, and the migrations are already in
 * (later ones still run). Only a seed made by the installed PGlite is used; without one (say,
 * running from source) PGlite runs initdb as usual.
 */
function copyPgliteSeed(dataDir: string): void {
  try {
    const seed = join(APP_ROOT, "dist/pglite-seed");
    const { version } = JSON.parse(readFileSync(join(APP_ROOT, "node_modules/@electric-sql/pglite/package.json"), "utf8"));
    const key = join(seed, "SEED_KEY");
    if (!existsSync(key) || readFileSync(key, "utf8") !== seedKey(version)) return;
    cpSync(seed, dataDir, { recursive: true, filter: (source) => source !== key });
  } catch {
    // no usable seed: PGlite initialises the directory itself
  }
}

/**
 * What a usable seed was made from: this PGlite and exactly these migrations (the same key
 * scripts/build-pglite-seed.mjs writes). A seed from other migrations is ignored: copying it
 * could leave the database between two schemas.
 */
function seedKey(pgliteVersion: string): string {
  const hash = createHash("sha256");
  for (const file of readdirSync(MIGRATIONS_FOLDER)
    .filter((f) => f.endsWith(".sql"))
    .sort())
    hash.update(file).update(readFileSync(join(MIGRATIONS_FOLDER, file)));
  return `pglite ${pgliteVersion}\nmigrations ${hash.digest("hex")}\n`;
}

/** A Database over an open PGlite instance (tests use it on clones of a migrated template). */
export function wrapPglite(client: PGlite): Database {
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: "pglite",
    migrate: () => migratePglite(drizzlePglite(client, { schema }), { migrationsFolder: MIGRATIONS_FOLDER }),
    ping: async () => void (await client.query("select 1")),
    close: () => client.close(),
  };
}
