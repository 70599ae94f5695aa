import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "data/**", "test-results/**", "playwright-report/**", "coverage/**", "server/db/migrations/**"] },
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
          selector: "CallExpression[callee.name=/^(before|after)(All|Each)$/] CallExpression:matches([callee.name=/^(it|test|describe)$/], [callee.object.name=/^(it|test|describe)$/], [callee.callee.object.name=/^(it|test|describe)$/])",
          message: "A test declared inside a hook never runs: declare it at the suite's top level.",
        },
      ],
    },
  },
  {
    files: ["scripts/**", "bench/**", "e2e/**", "sandbox/**"],
    rules: { "no-console": "off" },
  },
);
