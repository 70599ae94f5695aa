import { camel, changelog, pascal, readme, snake, type RepoInfo } from "./templates-shared";

/** A small Node service (TypeScript or JavaScript): package.json, config, server, a route, a test. */
export function typescriptTree(r: RepoInfo, ext: "ts" | "js"): Record<string, string> {
  const R = pascal(r.resource);
  const c = camel(r.resource);
  const ts = ext === "ts";
  const t = (s: string) => (ts ? s : "");
  const files: Record<string, string> = {
    "README.md": readme(r, "npm install", "npm run dev"),
    "CHANGELOG.md": changelog(r),
    ".gitignore": "node_modules/\ndist/\ncoverage/\n.env\n",
    "package.json": `${JSON.stringify(
      {
        name: `@bridgekeeper/${r.slug}`,
        version: "1.4.0",
        private: true,
        type: "module",
        scripts: ts
          ? { build: "tsc -p .", dev: "tsx watch src/index.ts", test: "vitest run", lint: "eslint ." }
          : { dev: "node --watch src/index.js", test: "vitest run", lint: "eslint ." },
        dependencies: { pino: "^9.5.0", zod: "^3.23.8" },
        devDependencies: ts ? { typescript: "^5.6.3", tsx: "^4.19.2", vitest: "^2.1.4" } : { vitest: "^2.1.4" },
      },
      null,
      2,
    )}\n`,
    [`src/index.${ext}`]: `import { loadConfig } from "./config${t(".js")}";
import { createServer } from "./server${t(".js")}";
import { logger } from "./lib/logger${t(".js")}";

const config = loadConfig(process.env);
const server = createServer(config);

server.listen(config.port, () => {
  logger.info({ port: config.port }, "${r.slug} listening");
});

process.on("SIGTERM", () => {
  logger.info("shutting down");
  server.close(() => process.exit(0));
});
`,
    [`src/config.${ext}`]: `import { z } from "zod";

const ConfigSchema = z.object({
  PORT: z.coerce.number().int().default(${r.port}),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  ${snake(r.resource).toUpperCase()}_CACHE_TTL: z.coerce.number().int().default(300),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().default(5000),
});

${t("export interface Config {\n  port: number;\n  logLevel: string;\n  cacheTtlSeconds: number;\n  requestTimeoutMs: number;\n}\n\n")}export function loadConfig(env${t(": NodeJS.ProcessEnv")})${t(": Config")} {
  const parsed = ConfigSchema.parse(env);
  return {
    port: parsed.PORT,
    logLevel: parsed.LOG_LEVEL,
    cacheTtlSeconds: parsed.${snake(r.resource).toUpperCase()}_CACHE_TTL,
    requestTimeoutMs: parsed.REQUEST_TIMEOUT_MS,
  };
}
`,
    [`src/server.${ext}`]: `import http from "node:http";
${t('import type { Config } from "./config.js";\n')}import { handle${R}Request } from "./routes/${r.resource}${t(".js")}";
import { logger } from "./lib/logger${t(".js")}";

export function healthCheck()${t(": { status: string; uptime: number }")} {
  return { status: "ok", uptime: Math.round(process.uptime()) };
}

export function createServer(config${t(": Config")}) {
  return http.createServer(async (req, res) => {
    const started = Date.now();
    try {
      if (req.url === "/health") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(healthCheck()));
        return;
      }
      await handle${R}Request(req, res, config);
    } catch (err) {
      logger.error({ err }, "request failed");
      res.writeHead(500);
      res.end();
    } finally {
      logger.debug({ url: req.url, ms: Date.now() - started }, "request");
    }
  });
}
`,
    [`src/routes/${r.resource}.${ext}`]: `${t('import type { IncomingMessage, ServerResponse } from "node:http";\nimport type { Config } from "../config.js";\n\n')}const cache = new Map${t("<string, { value: unknown; expires: number }>")}();

export async function handle${R}Request(req${t(": IncomingMessage")}, res${t(": ServerResponse")}, config${t(": Config")}) {
  const id = req.url?.split("/")[2];
  if (!id) {
    res.writeHead(404);
    res.end();
    return;
  }
  const hit = cache.get(id);
  if (hit && hit.expires > Date.now()) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(hit.value));
    return;
  }
  const ${c} = await fetch${R}(id, config.requestTimeoutMs);
  cache.set(id, { value: ${c}, expires: Date.now() + config.cacheTtlSeconds * 1000 });
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify(${c}));
}

async function fetch${R}(id${t(": string")}, timeoutMs${t(": number")}) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    return { id, kind: "${r.resource}", fetchedAt: new Date().toISOString() };
  } finally {
    clearTimeout(timer);
  }
}
`,
    [`src/lib/logger.${ext}`]: `import pino from "pino";

export const logger = pino({
  name: "${r.slug}",
  level: process.env.LOG_LEVEL ?? "info",
  redact: ["req.headers.authorization", "password", "token"],
});
`,
    [`test/server.test.${ext}`]: `import { describe, expect, it } from "vitest";
import { healthCheck } from "../src/server${t(".js")}";

describe("healthCheck", () => {
  it("reports ok", () => {
    expect(healthCheck().status).toBe("ok");
  });
});
`,
  };
  if (ts) {
    files["tsconfig.json"] = `{
  "compilerOptions": {
    "target": "ES2022",
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "strict": true,
    "outDir": "dist"
  },
  "include": ["src"]
}
`;
  }
  return files;
}
