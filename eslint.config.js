import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/**
 * The boundaries: value imports a layer may not make (type imports are allowed: a shape is not a
 * dependency at run time).
 */
const NO_TEST_CODE = {
  regex: "(^|/)(sandbox|e2e)(/|$)|(^|/)server/test(/|$)|^(\\.\\./)+test/|^\\./test/",
  message: "Production code never imports the sandbox, e2e or test code.",
};
const NO_SERVER_OR_WEB = { regex: "^(\\.\\./)+(server|web)/", message: "contract/ is shared by server and console: it imports neither." };
const NO_SERVER = {
  regex: "^(\\.\\./)+server/",
  message: "The console reaches the server over HTTP only; shared shapes live in contract/.",
};
const NO_DATABASE = {
  regex: "(^|/)db/(client|schema)$|^drizzle-orm",
  message: "Repos are the only code touching the database (server/modules/*/*.repo.ts).",
};
const NO_REPOS = { regex: "(^|/)(repos|[\\w-]+\\.repo)$", message: "Routes are adapters: they call a module's service, never a repo." };
const ONLY_THE_CONTEXT = {
  regex: "(^|/)(modules|db|http)/|(^|/)repos$|(^|/)upstream/(http|[\\w-]+\\.client)$",
  message:
    "Tools reach upstream only through their context (ToolContext): types from the clients, never the clients, modules or the database themselves.",
};

export default tseslint.config(
  {
    ignores: ["dist/**", "node_modules/**", "data/**", "test-results/**", "playwright-report/**", "coverage/**", "server/db/migrations/**"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-console": ["error", { allow: ["warn", "error"] }],
    },
  },
  {
    files: ["web/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
    },
  },
  {
    // Tests read loosely typed JSON bodies on purpose.
    files: ["**/*.test.ts", "server/test/**"],
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      // A test or suite declared inside a hook is never collected: it silently does not run.
      "no-restricted-syntax": [
        "error",
        {
          selector:
            "CallExpression[callee.name=/^(before|after)(All|Each)$/] CallExpression:matches([callee.name=/^(it|test|describe)$/], [callee.object.name=/^(it|test|describe)$/], [callee.callee.object.name=/^(it|test|describe)$/])",
          message: "A test declared inside a hook never runs: declare it at the suite's top level.",
        },
      ],
    },
  },
  {
    files: ["scripts/**", "bench/**", "e2e/**", "sandbox/**"],
    rules: { "no-console": "off" },
  },
  // Import boundaries (ARCHITECTURE, rules of the house 1, 3 and 8). A file gets the rule of the
  // last block naming it, so each block lists every boundary of its files; test code is exempt.
  ...boundaries([
    { files: ["contract/**/*.ts"], forbid: [NO_TEST_CODE, NO_SERVER_OR_WEB] },
    { files: ["web/**/*.{ts,tsx}"], forbid: [NO_TEST_CODE, NO_SERVER] },
    { files: ["server/**/*.ts"], forbid: [NO_TEST_CODE, NO_DATABASE] },
    { files: ["server/**/*.repo.ts", "server/repos.ts", "server/db/**", "server/main.ts"], forbid: [NO_TEST_CODE] },
    { files: ["server/http/routes/**/*.ts"], forbid: [NO_TEST_CODE, NO_DATABASE, NO_REPOS] },
    { files: ["server/mcp/tools/**/*.ts"], forbid: [NO_TEST_CODE, NO_DATABASE, ONLY_THE_CONTEXT] },
  ]),
);

function boundaries(blocks) {
  const testCode = ["**/*.test.ts", "**/*.test-rig.ts", "**/*.helpers.ts", "server/test/**"];
  return blocks.map(({ files, forbid }) => ({
    files,
    ignores: testCode,
    rules: { "@typescript-eslint/no-restricted-imports": ["error", { patterns: forbid.map((f) => ({ ...f, allowTypeImports: true })) }] },
  }));
}
