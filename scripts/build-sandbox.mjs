// Bundles what the demo, the browser tests and the benchmarks run beside the server, never part of
// it: the sandbox into dist/sandbox/main.js and the fake AI providers into dist/sandbox/fake-ai/main.js
// (dependencies stay in node_modules).
import { build } from "esbuild";

const common = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
};

await Promise.all([
  build({ ...common, entryPoints: ["sandbox/main.ts"], outfile: "dist/sandbox/main.js" }),
  build({ ...common, entryPoints: ["sandbox/fake-ai/main.ts"], outfile: "dist/sandbox/fake-ai/main.js" }),
]);
