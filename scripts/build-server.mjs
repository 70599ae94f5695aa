// Bundles the server into dist/server/main.js, the sandbox into dist/sandbox/main.js and the fake
// AI providers (for the browser tests and the demo) into dist/fake-ai/main.js (dependencies stay in
// node_modules).
import { build } from "esbuild";

const common = { bundle: true, platform: "node", format: "esm", target: "node20", packages: "external", sourcemap: true, logLevel: "warning" };

await Promise.all([
  build({ ...common, entryPoints: ["server/main.ts"], outfile: "dist/server/main.js" }),
  build({ ...common, entryPoints: ["sandbox/main.ts"], outfile: "dist/sandbox/main.js" }),
  build({ ...common, entryPoints: ["server/test/fake-ai/main.ts"], outfile: "dist/fake-ai/main.js" }),
]);
