// Bundles the server into dist/server/main.js (dependencies stay in node_modules). The sandbox and
// the fake AI providers, which only the demo and the tests run, are built apart: build-sandbox.mjs.
import { build } from "esbuild";

await build({
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
  entryPoints: ["server/main.ts"],
  outfile: "dist/server/main.js",
});
