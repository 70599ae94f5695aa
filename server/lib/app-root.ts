import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The checkout's root (where package.json is), found by walking up from this module. Works the
 * same from the TypeScript sources and from the bundle in dist/server.
 */
function findAppRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).name === "bridgekeeper") return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error("Cannot find the Bridgekeeper package root");
    dir = parent;
  }
}

export const APP_ROOT = findAppRoot();
export const APP_VERSION: string = JSON.parse(readFileSync(join(APP_ROOT, "package.json"), "utf8")).version;
