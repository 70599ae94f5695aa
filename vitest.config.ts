import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { defineConfig } from "vitest/config";

/**
 * Test files share their worker's loaded modules (isolate: false): the server's module graph (the
 * SDKs, PGlite's WebAssembly) is loaded once per worker, not once per file, which took a third of
 * the suite's CPU time. Files keep no state in modules: each starts its own app on its own database.
 */
const shared = { testTimeout: 20_000, hookTimeout: 60_000, isolate: false } as const;

/**
 * Every server test runs twice: on PGlite in memory and on a real PostgreSQL (TEST_DATABASE_URL, or
 * a throwaway cluster the global setup starts from /usr/lib/postgresql/*\/bin).
 */
const postgresAvailable =
  Boolean(process.env.TEST_DATABASE_URL) ||
  (existsSync("/usr/lib/postgresql") && readdirSync("/usr/lib/postgresql").some((v) => existsSync(`/usr/lib/postgresql/${v}/bin/initdb`)));

if (!postgresAvailable) {
  console.warn("PostgreSQL not available (no TEST_DATABASE_URL, no /usr/lib/postgresql/*/bin/initdb): running on PGlite only.");
}

/**
 * The server test files worth a second run on PostgreSQL: those whose imports reach the test
 * database (server/test/test-database.ts), less those with a line `// @pglite-only: <why>`, where
 * the database plays no part in what is checked (fuzzers, conformance suites, process tests, the
 * tool adapters against the sandbox). A test of a parser or the sandbox opens no database at all.
 * Running those twice would only cost time.
 */
function databaseTestFiles(): string[] {
  const root = import.meta.dirname;
  const database = resolve(root, "server/test/test-database.ts");
  const imports = new Map<string, string[]>();
  const importsOf = (file: string): string[] => {
    let found = imports.get(file);
    if (!found) {
      found = [];
      imports.set(file, found);
      for (const [, spec] of readFileSync(file, "utf8").matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)) {
        const base = resolve(dirname(file), spec!);
        const target = [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts")].find((f) => existsSync(f) && f.match(/\.tsx?$/));
        if (target) found.push(target);
      }
    }
    return found;
  };
  const reaches = (file: string, seen = new Set<string>()): boolean => {
    if (file === database) return true;
    if (seen.has(file)) return false;
    seen.add(file);
    return importsOf(file).some((f) => reaches(f, seen));
  };
  const tests = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? tests(join(dir, e.name)) : e.name.endsWith(".test.ts") ? [join(dir, e.name)] : [],
    );
  return tests(resolve(root, "server"))
    .filter((file) => !/^\/\/ @pglite-only: /m.test(readFileSync(file, "utf8")))
    .filter((file) => reaches(file))
    .map((file) => relative(root, file));
}

export default defineConfig({
  test: {
    // One worker per core (Vitest's default leaves one core to itself: half of a 2-core machine).
    // Most of a test's time is the server's own work in the worker, not Vitest's.
    maxWorkers: "100%",
    projects: [
      // The console's pure logic (formatters, parsers): no database, no browser.
      {
        resolve: {
          alias: { "@contract": new URL("./contract", import.meta.url).pathname, "@": new URL("./web/src", import.meta.url).pathname },
        },
        test: { ...shared, name: "web", include: ["web/src/**/*.test.ts"] },
      },
      {
        test: {
          ...shared,
          name: "pglite",
          include: ["server/**/*.test.ts", "contract/**/*.test.ts", "sandbox/**/*.test.ts", "deploy/**/*.test.ts"],
          env: { TEST_DB: "pglite" },
          globalSetup: ["server/test/pglite-global-setup.ts", "server/test/conformance-global-setup.ts"],
        },
      },
      ...(postgresAvailable
        ? [
            {
              test: {
                ...shared,
                name: "postgres",
                include: databaseTestFiles(),
                env: { TEST_DB: "postgres" },
                globalSetup: ["server/test/postgres-global-setup.ts"],
              },
            },
          ]
        : []),
    ],
  },
});
