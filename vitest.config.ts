import { existsSync, readdirSync } from "node:fs";
import { defineConfig } from "vitest/config";

const shared = { testTimeout: 20_000, hookTimeout: 60_000 } as const;

/**
 * Every server test runs twice: on PGlite in memory and on a real PostgreSQL (TEST_DATABASE_URL, or
 * a throwaway cluster the global setup starts from /usr/lib/postgresql/*\/bin).
 */
const postgresAvailable =
  Boolean(process.env.TEST_DATABASE_URL) ||
  (existsSync("/usr/lib/postgresql") &&
    readdirSync("/usr/lib/postgresql").some((v) => existsSync(`/usr/lib/postgresql/${v}/bin/initdb`)));

if (!postgresAvailable) {
  console.warn("PostgreSQL not available (no TEST_DATABASE_URL, no /usr/lib/postgresql/*/bin/initdb): running on PGlite only.");
}

export default defineConfig({
  test: {
    projects: [
      // The console's pure logic (formatters, parsers): no database, no browser.
      {
        resolve: { alias: { "@contract": new URL("./contract", import.meta.url).pathname, "@": new URL("./web/src", import.meta.url).pathname } },
        test: { ...shared, name: "web", include: ["web/src/**/*.test.ts"] },
      },
      { test: { ...shared, name: "pglite", include: ["server/**/*.test.ts", "contract/**/*.test.ts", "sandbox/**/*.test.ts"], env: { TEST_DB: "pglite" }, globalSetup: ["server/test/pglite-global-setup.ts"] } },
      ...(postgresAvailable
        ? [
            {
              test: {
                ...shared,
                name: "postgres",
                include: ["server/**/*.test.ts"],
                env: { TEST_DB: "postgres" },
                globalSetup: ["server/test/postgres-global-setup.ts"],
              },
            },
          ]
        : []),
    ],
  },
});
